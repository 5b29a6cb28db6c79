def run():
    return ["  pad  ".strip(), "xxhixx".strip("x"), "7".zfill(3), "ab".center(6, "*"), "ab".ljust(4, "."), "ab".rjust(4), "-5".zfill(4)]
