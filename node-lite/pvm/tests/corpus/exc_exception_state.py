def run():
    errors = []
    def risky(n):
        if n % 3 == 0:
            raise ValueError(n)
        return n
    total = 0
    for n in range(10):
        try:
            total += risky(n)
        except ValueError as e:
            errors.append(e.args[0])
    return [total, errors]
