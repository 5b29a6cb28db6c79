# refused: dunder-attribute
def run():
    slots = [0, 0]
    try:
        slots.__setitem__(2, 7)
    except IndexError as e:
        return [type(e).__name__, str(e)]
