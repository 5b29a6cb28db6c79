"""Asks another actor a question and waits for its reply: each request carries a correlation
id, and a timeout timer fails the request if no reply comes (the pattern the whitepaper
recommends for actor messaging). Deploy with some value: the timeout timer is paid from the
actor's balance."""

from cowboy_sdk import actor, emit, block_height, caller, send, set_timer, cancel_timer

TIMEOUT_BLOCKS = 10


@actor
class Requester:
    def __init__(self):
        self.storage["next_id"] = 0

    def ask(self, responder, question):
        request_id = self.storage["next_id"]
        self.storage["next_id"] = request_id + 1
        timer = set_timer(block_height() + TIMEOUT_BLOCKS, "on_timeout", request_id)
        self.storage[("request", request_id)] = {
            "responder": responder, "question": question, "timer": timer,
            "state": "pending", "answer": None,
        }
        send(responder, "handle", request_id, question)
        return request_id

    def on_reply(self, request_id, answer):
        request = self.storage.get(("request", request_id))
        if request is None or request["state"] != "pending":
            return False  # unknown or already settled: ignore late replies
        if caller() != request["responder"]:
            raise PermissionError("reply from the wrong actor")
        cancel_timer(request["timer"])
        request["state"] = "answered"
        request["answer"] = answer
        self.storage[("request", request_id)] = request
        emit("Answered", request_id)
        return True

    def on_timeout(self, request_id):
        request = self.storage.get(("request", request_id))
        if request is None or request["state"] != "pending":
            return False
        request["state"] = "timed_out"
        self.storage[("request", request_id)] = request
        emit("TimedOut", request_id)
        return True

    def result(self, request_id):
        request = self.storage.get(("request", request_id))
        if request is None:
            raise KeyError("no request %d" % request_id)
        return {"state": request["state"], "answer": request["answer"]}
