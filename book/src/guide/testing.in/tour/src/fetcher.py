"""Fetches a JSON value over HTTP through a runner job; the result comes back to `on_result`."""

from cowboy_sdk import actor, caller, http_job

DISPATCHER = "0x" + "00" * 19 + "02"  # the Job Dispatcher delivers job results


@actor
class Fetcher:
    def __init__(self):
        self.storage["last"] = None

    def fetch(self, url):
        return http_job(url, "on_result", 10_000_000, extract=["/usd"])

    def on_result(self, job_id, status, result, details):
        if caller() != DISPATCHER:
            raise PermissionError("only the Job Dispatcher delivers results")
        self.storage["last"] = {"job": job_id, "status": status, "result": result}

    def last(self):
        return self.storage["last"]
