from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    host: str
    port: int = 8080


def run():
    c = Config("localhost")
    c.port = 9090
    return c.port
