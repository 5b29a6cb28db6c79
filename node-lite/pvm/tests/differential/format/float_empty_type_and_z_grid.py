def attempt(value, spec):
    try:
        return format(value, spec)
    except ValueError as e:
        return str(e)


def run():
    values = [1.0, -0.0, 0.5, -0.0004, 1234.5, 1e16, 100.0, float("inf"), float("nan"), 7, -3]
    specs = [".3", ".1", "10.2", "<10.3", "^9.2", "=+10.2", "010.3", "+.2", " .3", "*>12.4",
             ",.6", "_.8", "z.1f", "z.2", "+z.1f", " z.0f", "z8.1f", "z", "z.3e", "z.0%", "#.3",
             ".0", "12", "+", "z.1g"]
    return [[attempt(v, s) for s in specs] for v in values]
