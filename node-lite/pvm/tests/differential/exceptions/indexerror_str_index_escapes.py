def run():
    symbol = "PVM"
    return symbol[0] + symbol[5]
