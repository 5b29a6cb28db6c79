# refused: import-not-allowed
import base64
import binascii


def run():
    try:
        base64.b64decode(b"Zm9", validate=True)
    except binascii.Error as e:
        return [type(e).__name__, str(e), issubclass(binascii.Error, ValueError)]
