"""Answers questions: replies to the caller with the same correlation id."""

from cowboy_sdk import actor, caller, send


@actor
class Responder:
    def __init__(self):
        self.storage["answered"] = 0

    def handle(self, request_id, question):
        self.storage["answered"] += 1
        send(caller(), "on_reply", request_id, question.upper())
        return request_id
