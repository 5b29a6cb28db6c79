def run():
    return int("abc")
