# refused: import-not-allowed
import binascii


def run():
    return [
        binascii.b2a_base64(b"abc"),
        binascii.b2a_base64(b"abc", newline=False),
        binascii.a2b_base64(b"YWJj\n"),
        binascii.a2b_base64("YW Jj"),
    ]
