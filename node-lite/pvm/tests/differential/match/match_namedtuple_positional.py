from collections import namedtuple

Order = namedtuple("Order", ["side", "price", "qty"])


def book(order):
    match order:
        case Order("buy", price, qty) if qty > 10:
            return f"big buy {qty}@{price}"
        case Order("buy", price, qty):
            return f"buy {qty}@{price}"
        case Order(side="sell", qty=0):
            return "empty sell"
        case Order("sell", p, q):
            return f"sell {q}@{p}"
        case (side, price, qty):
            return f"plain tuple {side}"


def run():
    return [book(Order("buy", 10, 50)), book(Order("buy", 10, 5)), book(Order("sell", 9, 0)),
            book(Order("sell", 9, 4)), book(("buy", 1, 1)), book(Order(side="buy", qty=11, price=2)),
            book(["sell", 1, 2]), book(Order._make(["sell", 3, 0]))]
