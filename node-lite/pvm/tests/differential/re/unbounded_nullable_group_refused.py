# refused: re-linear-time
import re


def run():
    return re.match(r"(\w*)+", "foo").group(1)
