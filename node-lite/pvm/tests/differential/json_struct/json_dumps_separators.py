import json


def run():
    data = {"k": [1, 2], "s": "v"}
    return [
        json.dumps(data, separators=(",", ":")),
        json.dumps(data, separators=(";", "=")),
        json.dumps(data, indent=2, separators=(",", ": ")),
        json.dumps(data, indent=2),
        json.dumps([1, 2], separators=(", ", ": ")),
        json.dumps(data, sort_keys=True, separators=(",", ":")),
    ]
