# refused: re-linear-time
import re

STRONG = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,}$")


def run():
    out = {}
    for pw in ["Passw0rd", "password1", "PASSWORD1", "Pass word1", "Pa1", "Abcdefg9"]:
        out[pw] = bool(STRONG.match(pw))
    out["price"] = re.findall(r"\d+(?=\s*USD)", "10 USD, 20 EUR, 30USD")
    out["notfollowed"] = re.findall(r"\b\d+\b(?!\s*EUR)", "10 USD, 20 EUR, 30USD")
    out["thousands"] = re.sub(r"(?<=\d)(?=(\d{3})+$)", ",", "1234567")
    return out
