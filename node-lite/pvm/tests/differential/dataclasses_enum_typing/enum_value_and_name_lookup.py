from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


def run():
    out = [
        Color(1).name,
        Color["GREEN"].value,
        Color.BLUE.name,
        Color.RED is Color(1),
        Color["RED"] is Color.RED,
        getattr(Color, "BLUE").value,
        Color(Color.GREEN) is Color.GREEN,
        type(Color.RED).__name__,
        isinstance(Color.RED, Color),
        Color.RED.__class__ is Color,
    ]
    try:
        Color(7)
    except ValueError as e:
        out.append([type(e).__name__, str(e)])
    try:
        Color["PURPLE"]
    except KeyError as e:
        out.append([type(e).__name__, str(e)])
    try:
        Color("RED")
    except ValueError as e:
        out.append(str(e))
    return out
