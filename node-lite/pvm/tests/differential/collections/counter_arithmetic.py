from collections import Counter


def run():
    a = Counter(a=3, b=1, c=0, d=-2)
    b = Counter(a=1, b=2, e=5)
    return [
        dict(a + b),
        dict(a - b),
        dict(a & b),
        dict(a | b),
        dict(+a),
        dict(-a),
        dict(a),
    ]
