def process(tx):
    try:
        return 100 // tx["amount"]
    except ZeroDivisionError as e:
        e.add_note(f"while processing tx {tx['id']}")
        e.add_note("amount was zero")
        raise


def run():
    out = []
    try:
        process({"id": 7, "amount": 0})
    except ZeroDivisionError as e:
        out.append([str(e), list(e.__notes__)])
    fresh = ValueError("v")
    out.append(hasattr(fresh, "__notes__"))
    try:
        fresh.add_note(5)
    except TypeError as e:
        out.append(["TypeError", str(e)])
    return out
