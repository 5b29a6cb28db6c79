import json
from collections import OrderedDict


def run():
    doc = '{"users": [{"id": 1, "tags": ["a", "b"], "meta": null}, {"id": 2, "tags": [], "active": false}], "count": 2, "ok": true}'
    obj = json.loads(doc)
    dup = json.loads('{"a": 1, "b": 2, "a": 3}')
    pairs = json.loads('{"a": 1, "b": 2, "a": 3}', object_pairs_hook=lambda p: [list(x) for x in p])
    hooked = json.loads('{"x": {"y": 1}}', object_hook=lambda d: sorted(d.items()))
    od = json.loads('{"z": 1, "a": 2}', object_pairs_hook=OrderedDict)
    ws = json.loads('  \n\t [ 1 , { "k" : [ ] } ]  \r\n')
    return [obj, obj["users"][1]["active"], obj["users"][0]["meta"], dup, pairs, hooked,
            list(od), ws, json.loads("null"), json.loads("true"), json.loads('""'),
            json.loads(json.dumps(obj)) == obj]
