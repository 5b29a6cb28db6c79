import re


def spans(pattern, text):
    m = re.search(pattern, text)
    if m is None:
        return None
    return [m.span(i) for i in range(m.re.groups + 1)]


def run():
    return [
        spans(r"(a?)?b", "ab"),
        spans(r"(|a)?b", "ab"),
        spans(r"(|a){2}b", "ab"),
        spans(r"(a?){3}b", "aab"),
        spans(r"(|a){1,2}b", "ab"),
        spans(r"(a|b?){1,2}c", "abc"),
        spans(r"(a|b?){1,2}c", "bc"),
        spans(r"(b?|a){1,2}$", "ab"),
        spans(r"(a??){1,2}b", "ab"),
        spans(r"(|ab){2,3}c", "ababc"),
        spans(r"(|a){3,4}b", "aab"),
        spans(r"(?:|a){0,3}b$", "aab"),
    ]
