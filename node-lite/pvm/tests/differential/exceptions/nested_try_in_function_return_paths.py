def find_first_valid(values, log):
    for v in values:
        try:
            try:
                n = int(v)
            except ValueError:
                log.append("skip " + v)
                continue
            if n < 0:
                raise ArithmeticError("negative " + v)
            return n
        except ArithmeticError as e:
            log.append(str(e))
        finally:
            log.append("checked " + v)
    return None


def run():
    log1, log2 = [], []
    return [find_first_valid(["x", "-3", "8", "9"], log1), log1,
            find_first_valid(["a"], log2), log2]
