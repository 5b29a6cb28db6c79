from enum import Enum


class Shade(Enum):
    LIGHT = "light"
    DARK = "dark"
    UNKNOWN = "unknown"

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.value == value.lower():
                    return m
            return cls.UNKNOWN
        return None


class Strict(Enum):
    A = 1

    @classmethod
    def _missing_(cls, value):
        return "not a member"


def run():
    out = [Shade("LIGHT").name, Shade("Dark").name, Shade("purple").name, Shade("light") is Shade.LIGHT]
    try:
        Shade(3)
    except ValueError as e:
        out.append(str(e))
    try:
        Strict(2)
    except TypeError as e:
        out.append([type(e).__name__, str(e)])
    return out
