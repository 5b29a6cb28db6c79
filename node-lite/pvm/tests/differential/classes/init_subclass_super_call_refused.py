# refused: dunder-attribute
class Plugin:
    registry = {}

    def __init_subclass__(cls, key=None, **kwargs):
        super().__init_subclass__(**kwargs)
        Plugin.registry[key or cls.__name__.lower()] = cls


class Json(Plugin, key="json"):
    pass


def run():
    try:
        class Bad(Plugin, unknown=1):
            pass
    except TypeError as e:
        return [sorted(Plugin.registry), str(e)]
