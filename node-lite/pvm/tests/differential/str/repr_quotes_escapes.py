def run():
    return [
        repr("plain"),
        repr("it's"),
        repr('say "hi"'),
        repr("both ' and \""),
        repr("tab\there\nnew\rret"),
        repr("back\\slash"),
        repr("\x00\x07\x1b\x7f"),
        repr(""),
        str("it's"),
        repr(["a'b", 'c"d']),
        repr({"k": "v\n"}),
        repr(("x",)),
    ]
