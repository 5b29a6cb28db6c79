class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code

class NotFound(AppError):
    pass

def run():
    try:
        raise NotFound(404, "missing")
    except AppError as e:
        return [e.code, str(e), type(e).__name__, isinstance(e, Exception), e.args]
