# refused: re-linear-time
import re


def run():
    return [
        re.sub(r"(?=b)", "^", "abab"),
        re.split(r"(?=[A-Z])", "HelloWorldFoo"),
        re.split(r"(?<=[a-z])(?=[A-Z])", "parseXMLDoc"),
        re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", "loadHTTPData2Json"),
    ]
