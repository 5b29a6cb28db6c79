from collections import ChainMap

def run():
    defaults = {"color": "red", "size": "M"}
    user = {"size": "L"}
    cm = ChainMap(user, defaults)
    return [cm["size"], cm["color"], sorted(cm), dict(cm.new_child({"size": "S"}))]
