import json

def run():
    return [json.dumps("caf\u00e9"), json.dumps("caf\u00e9", ensure_ascii=False), json.dumps("quote\"back\\slash\n"), json.loads(json.dumps("\u2603"))]
