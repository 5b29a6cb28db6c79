def run():
    log = []
    try:
        try:
            raise IndexError("first")
        except IndexError:
            log.append("handled")
            raise
    except IndexError as e:
        log.append(str(e))
    return log
