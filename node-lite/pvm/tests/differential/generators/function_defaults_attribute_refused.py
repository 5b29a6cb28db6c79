# refused: dunder-attribute
def append_bad(item, bucket=[]):
    bucket.append(item)
    return bucket


def run():
    append_bad(1)
    append_bad(2)
    return [list(append_bad.__defaults__[0]), len(append_bad.__defaults__)]
