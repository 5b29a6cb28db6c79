class Plugin:
    registry = {}

    def __init_subclass__(cls, key=None):
        cls.key = key or cls.__name__.lower()
        Plugin.registry[cls.key] = cls


class Json(Plugin, key="json"):
    pass


class Xml(Plugin):
    pass


class PrettyJson(Json, key="pretty"):
    pass


def run():
    out = [sorted(Plugin.registry), Plugin.registry["json"].__name__, PrettyJson.key, Xml.key]
    out.append(hasattr(Plugin, "key"))
    try:
        class Bad(Plugin, unknown=1):
            pass
    except TypeError as e:
        out.append(str(e))
    return out
