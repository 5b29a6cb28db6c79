def run():
    try:
        assert 1 + 1 == 3, "math is broken"
    except AssertionError as e:
        return ["AssertionError", str(e)]
