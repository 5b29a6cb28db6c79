# refused: forbidden-builtin
class Config:
    retries = 3

    def __init__(self, name):
        self.name = name


def run():
    a = Config("a")
    a.retries = 10
    return [sorted(vars(a)), "retries" in Config.__dict__, a.__dict__ == {"name": "a", "retries": 10}]
