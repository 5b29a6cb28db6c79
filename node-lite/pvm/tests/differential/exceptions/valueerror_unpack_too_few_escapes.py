def run():
    record = ("only",)
    name, amount, memo = record
    return name
