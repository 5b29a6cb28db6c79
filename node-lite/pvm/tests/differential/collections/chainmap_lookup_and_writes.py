from collections import ChainMap


def run():
    defaults = {"color": "red", "user": "guest", "size": 1}
    env = {"user": "admin"}
    cli = {}
    cm = ChainMap(cli, env, defaults)
    r = [cm["user"], cm["color"], len(cm), sorted(cm), cm.get("nope", "dflt")]
    cm["color"] = "blue"
    r.append([cli, defaults["color"]])
    child = cm.new_child({"size": 5})
    r.append([child["size"], cm["size"], len(child.maps)])
    r.append(dict(child.parents) == dict(cm))
    del cm["color"]
    r.append(cm["color"])
    try:
        del cm["user"]
        r.append(None)
    except KeyError as e:
        r.append([type(e).__name__, str(e)])
    r.append(list(ChainMap({"a": 1}, {"b": 2, "a": 3}).items()))
    return r
