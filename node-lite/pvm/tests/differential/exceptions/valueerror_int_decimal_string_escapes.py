def run():
    amount = int("12")
    return amount + int("12.5")
