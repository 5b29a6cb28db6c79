import json


def run():
    data = {"b": [1, 2, {"z": None, "a": True}], "a": "x", "c": {}, "d": []}
    return [
        json.dumps(data),
        json.dumps(data, sort_keys=True),
        json.dumps(data, indent=2),
        json.dumps(data, indent=0),
        json.dumps(data, indent="\t", sort_keys=True),
        json.dumps([1, [2, [3]]], indent=1),
        json.dumps({}, indent=4),
        json.dumps([], indent=4),
    ]
