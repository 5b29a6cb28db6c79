def run():
    balance = 5
    amount = 9
    assert amount > 0, "amount must be positive"
    assert balance >= amount, f"insufficient balance: {balance} < {amount}"
    return balance - amount
