def run():
    return [
        b"a,b,,c".split(b","), b"  a  b \t c\n".split(), b"a,b,c".split(b",", 1),
        b"a,b,c".rsplit(b",", 1), b"line1\nline2\r\nline3".splitlines(),
        b"x\ny\n".splitlines(keepends=True),
        b"-".join([b"a", b"bc", b""]), b"".join([bytearray(b"x"), b"y", b"xyz"[2:]]), bytes(bytearray(b"|").join([b"a", b"b"])),
        b"  pad  ".strip(), b"xxdataxx".strip(b"x"), b"\x00\x00ab".lstrip(b"\x00"),
        b"abc".center(9, b"*"), b"7".zfill(4), b"ab".ljust(4, b"."), b"ab".rjust(4),
        b"Hello World".swapcase(), b"abc".isalpha(), b"123".isdigit(), b" ".isspace(),
    ]
