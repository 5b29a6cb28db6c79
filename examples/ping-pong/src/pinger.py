"""Pinger: sends `ping(id, payload)` to a ponger and waits for `pong(id, payload)`. Every
request has a correlation id and a timeout timer (`expire`) — the whitepaper's pattern for
messages that may never be answered. A pong cancels the timer; a timeout settles the request
as expired and a late pong is ignored. Deploy with value: timers are paid by the actor."""

from cowboy_sdk import actor, emit, block_height, caller, self_address, send, set_timer, \
    cancel_timer


@actor
class Pinger:
    def __init__(self, timeout_blocks=5):
        self.storage["timeout"] = timeout_blocks
        self.storage["next_id"] = 1
        self.storage["stats"] = {"sent": 0, "answered": 0, "expired": 0, "ignored": 0}

    def ping(self, ponger, payload):
        request_id = self.storage["next_id"]
        self.storage["next_id"] = request_id + 1
        deadline = block_height() + self.storage["timeout"]
        timer = set_timer(deadline, "expire", request_id)
        self.storage[("req", request_id)] = {
            "to": ponger, "payload": payload, "timer": timer, "deadline": deadline,
            "state": "pending", "reply": None,
        }
        self._count("sent")
        send(ponger, "ping", request_id, payload)
        emit("Ping", request_id)
        return request_id

    def pong(self, request_id, payload):
        req = self.storage.get(("req", request_id))
        if req is None or req["state"] != "pending" or caller() != req["to"]:
            self._count("ignored")
            return False
        cancel_timer(req["timer"])
        req["state"] = "answered"
        req["reply"] = payload
        self.storage[("req", request_id)] = req
        self._count("answered")
        emit("Pong", request_id)
        return True

    def expire(self, request_id):
        if caller() != self_address():
            raise PermissionError("expire runs only from the request's timeout timer")
        req = self.storage.get(("req", request_id))
        if req is None or req["state"] != "pending":
            return False
        req["state"] = "expired"
        self.storage[("req", request_id)] = req
        self._count("expired")
        emit("Expired", request_id)
        return True

    def request(self, request_id):
        req = self.storage.get(("req", request_id))
        if req is None:
            raise KeyError("no request %d" % request_id)
        return {"state": req["state"], "reply": req["reply"], "deadline": req["deadline"]}

    def stats(self):
        return self.storage["stats"]

    def _count(self, what):
        stats = self.storage["stats"]
        stats[what] += 1
        self.storage["stats"] = stats
