"""Ponger: answers `ping(id, payload)` with `pong(id, payload)` to the caller, unless set
silent (to exercise the pinger's timeout)."""

from cowboy_sdk import actor, caller, send


@actor
class Ponger:
    def __init__(self):
        self.storage["owner"] = caller()
        self.storage["silent"] = False
        self.storage["seen"] = 0

    def ping(self, request_id, payload):
        self.storage["seen"] += 1
        if self.storage["silent"]:
            return None
        send(caller(), "pong", request_id, payload)
        return request_id

    def set_silent(self, silent):
        if caller() != self.storage["owner"]:
            raise PermissionError("only the owner can silence the ponger")
        self.storage["silent"] = bool(silent)
        return self.storage["silent"]
