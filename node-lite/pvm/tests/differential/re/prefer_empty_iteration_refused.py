# refused: re-linear-time
import re


def run():
    return re.findall(r"a*?", "aa")
