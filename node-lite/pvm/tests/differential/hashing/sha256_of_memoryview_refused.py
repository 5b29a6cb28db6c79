# refused: forbidden-builtin
import hashlib


def run():
    return hashlib.sha256(memoryview(b"xabcx")[1:4]).hexdigest()
