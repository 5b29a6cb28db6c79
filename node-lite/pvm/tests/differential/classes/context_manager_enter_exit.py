class Tracker:
    def __init__(self, log, name):
        self.log = log
        self.name = name

    def __enter__(self):
        self.log.append("enter " + self.name)
        return self.name.upper()

    def __exit__(self, exc_type, exc, tb):
        self.log.append(f"exit {self.name} {exc_type.__name__ if exc_type else None}")
        return False


def run():
    log = []
    with Tracker(log, "a") as v:
        log.append("body " + v)
    with Tracker(log, "outer") as o, Tracker(log, "inner") as i:
        log.append(o + "/" + i)
    try:
        with Tracker(log, "err"):
            raise ValueError("boom")
    except ValueError as e:
        log.append("caught " + str(e))
    return log
