import hashlib


def run():
    return [
        hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 1, 20).hex(),
        hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 2, 20).hex(),
        hashlib.pbkdf2_hmac("sha256", b"password", b"salt", 1).hex(),
        hashlib.pbkdf2_hmac("sha256", b"password", b"salt", 1000, dklen=16).hex(),
        len(hashlib.pbkdf2_hmac("sha512", b"pw", b"s", 10)),
        hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 10, 40).hex(),
    ]
