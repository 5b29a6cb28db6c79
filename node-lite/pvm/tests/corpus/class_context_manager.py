class Log:
    def __init__(self):
        self.events = []
    def __enter__(self):
        self.events.append("enter")
        return self
    def __exit__(self, exc_type, exc, tb):
        self.events.append("exit:" + (exc_type.__name__ if exc_type else "ok"))
        return exc_type is KeyError

def run():
    log = Log()
    with log:
        log.events.append("body")
    with log:
        raise KeyError("swallowed")
    try:
        with log:
            raise ValueError("x")
    except ValueError:
        log.events.append("caught")
    return log.events
