def grade(score):
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    return "F"

def run():
    return [grade(s) for s in [95, 85, 75, 50, 90, 80]]
