def run():
    results = []
    for x in [4, 0, "2", 1]:
        try:
            results.append(8 // x)
        except ZeroDivisionError:
            results.append("div0")
        except TypeError:
            results.append("type")
    return results
