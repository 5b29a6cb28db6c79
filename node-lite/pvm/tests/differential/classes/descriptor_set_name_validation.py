class Positive:
    def __set_name__(self, owner, name):
        self.public = name
        self.private = "_" + name
        self.owner = owner.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private)

    def __set__(self, obj, value):
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"{self.public} must be a positive int, got {value!r}")
        setattr(obj, self.private, value)


class Order:
    qty = Positive()
    price = Positive()

    def __init__(self, qty, price):
        self.qty = qty
        self.price = price


def run():
    o = Order(2, 50)
    out = [o.qty * o.price, [o._qty, o._price], hasattr(o, "qty")]
    try:
        o.qty = 0
    except ValueError as e:
        out.append(str(e))
    try:
        Order(1, "9")
    except ValueError as e:
        out.append(str(e))
    out.append([Order.qty.public, Order.price.private, Order.qty.owner])
    out.append(type(Order.qty).__name__)
    return out
