import json

def run():
    doc = json.loads('{"int": 1, "neg": -2, "str": "\\u00e9", "arr": [true, false, null], "obj": {}}')
    return [doc["int"], doc["neg"], doc["str"], doc["arr"], doc["obj"], sorted(doc)]
