import json

def run():
    return json.dumps({"x": [1, 2], "y": {"z": "w"}}, indent=2, sort_keys=True).split("\n")
