def run():
    label = "amount: "
    return label + 5
