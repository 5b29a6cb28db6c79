from dataclasses import dataclass

def run():
    try:
        @dataclass
        class Bad:
            xs: list = []
        return "no error"
    except ValueError:
        return "ValueError"
