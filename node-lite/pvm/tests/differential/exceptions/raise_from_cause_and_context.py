class ConfigError(Exception):
    pass


def parse(text):
    try:
        return int(text)
    except ValueError as e:
        raise ConfigError("bad number: " + text) from e


def implicit():
    try:
        [][0]
    except IndexError:
        raise RuntimeError("while handling")


def run():
    out = {}
    try:
        parse("x1")
    except ConfigError as e:
        out["explicit"] = [str(e), type(e.__cause__).__name__, str(e.__cause__),
                           e.__context__ is e.__cause__, e.__suppress_context__]
    try:
        implicit()
    except RuntimeError as e:
        out["implicit"] = [e.__cause__ is None, type(e.__context__).__name__,
                           str(e.__context__), e.__suppress_context__]
    try:
        try:
            1 // 0
        except ZeroDivisionError:
            raise ValueError("clean") from None
    except ValueError as e:
        out["from_none"] = [e.__cause__ is None, type(e.__context__).__name__,
                            e.__suppress_context__]
    return out
