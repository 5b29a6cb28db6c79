# refused: re-linear-time
import re


def run():
    return re.fullmatch("a$\n", "a\n").span()
