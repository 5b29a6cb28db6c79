def parse(lines):
    for line in lines:
        parts = line.split(",")
        if len(parts) != 3:
            continue
        yield {"from": parts[0], "to": parts[1], "amount": int(parts[2])}


def only_large(events, threshold):
    for e in events:
        if e["amount"] >= threshold:
            yield e


def running_balance(events, who):
    bal = 0
    for e in events:
        if e["to"] == who:
            bal += e["amount"]
        if e["from"] == who:
            bal -= e["amount"]
        yield bal


def run():
    raw = ["a,b,10", "bad line", "b,a,3", "a,c,50", "c,b,7"]
    large = list(only_large(parse(raw), 7))
    return [large, list(running_balance(parse(raw), "b")),
            [e["to"] for e in only_large(parse(raw), 100)]]
