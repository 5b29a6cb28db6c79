def run():
    balances = {"alice": 10, "bob": 5}
    total = balances["alice"] + balances["bob"]
    return total + balances["carol"]
