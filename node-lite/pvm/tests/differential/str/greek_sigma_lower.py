def run():
    return [
        "ΟΔΟΣ".lower(),
        "ΟΔΟΣ ΟΔΟΣ".lower(),
        "Σ".lower(),
        "ΑΣ.".lower(),
        "ΣΑ".lower(),
        "ΟΔΟΣ".title(),
        "ΟΔΟΣ".capitalize(),
        "οδος".upper(),
        "ς".upper(),
        "ΟΔΟΣ".swapcase(),
    ]
