import json

def run():
    out = []
    for bad in ["{", "[1 2]", '{"a" 1}', "nul"]:
        try:
            json.loads(bad)
            out.append("ok")
        except json.JSONDecodeError as e:
            out.append(e.pos)
    return out
