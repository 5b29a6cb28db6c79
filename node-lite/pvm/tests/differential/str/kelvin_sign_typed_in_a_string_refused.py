# refused: source-normalization


def run():
    # The Kelvin sign, typed: NFC (applied to deployed source) would make it "K".
    unit = "K"
    return [unit, len(unit), ord(unit), unit == "\u212a", unit.lower()]
