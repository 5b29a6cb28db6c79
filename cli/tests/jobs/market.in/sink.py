from cowboy_sdk import actor


@actor
class Sink:
    """Receives job results."""

    def __init__(self):
        self.storage["results"] = 0

    def on_result(self, job_id, status, result, details):
        self.storage["results"] += 1
