import json

def run():
    obj = {"b": [1, 2, {"c": None}], "a": "text", "t": True, "n": -3}
    s = json.dumps(obj, sort_keys=True)
    return [s, json.loads(s) == obj, json.dumps([1, "two"], separators=(",", ":"))]
