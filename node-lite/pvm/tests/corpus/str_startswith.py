def run():
    s = "prefix_body_suffix"
    return [s.startswith("pre"), s.endswith(("x", "fix")), s.startswith("body", 7), s.removeprefix("prefix_"), s.removesuffix("_suffix")]
