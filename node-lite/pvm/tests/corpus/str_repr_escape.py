def run():
    return [repr("it's"), repr('say "hi"'), repr("tab\tnew\nline"), repr("\x00\x7f"), str(b"bytes"), repr("\u00e9")]
