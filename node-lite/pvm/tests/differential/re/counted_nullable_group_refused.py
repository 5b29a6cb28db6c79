# refused: re-linear-time
import re


def run():
    # `_sre` refuses a second optional iteration after an empty one: group 1 is (1, 1).
    return re.search(r"(|a){0,2}b", "ab").span(1)
