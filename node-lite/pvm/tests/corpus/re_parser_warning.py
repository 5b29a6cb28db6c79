import re


def run():
    # `[[` makes CPython's parser warn ("possible nested set"): recording a warning must not
    # make a later call cheaper than the first.
    return re.findall(r"[[a]", "a[b") + re.findall(r"[a||b]", "a|b")
