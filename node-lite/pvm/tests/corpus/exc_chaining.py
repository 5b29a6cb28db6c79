def run():
    try:
        try:
            {}["a"]
        except KeyError as e:
            raise ValueError("bad") from e
    except ValueError as v:
        return ["KeyError", str(v), v.args]
