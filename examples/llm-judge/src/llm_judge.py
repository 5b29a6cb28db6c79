"""LLM judge: a committee of runners asks a model to grade a text and answer as JSON
(`{"verdict": "pass" | "fail", "score": 0..100}`); `structured_match` keeps the answers whose
verdict is the majority's and whose score is within 10% of the median, and the verified
verdict comes back through `on_verdict`. The job's escrow comes from this actor's balance, so
deploy it with value."""

import json

from cowboy_sdk import actor, emit, block_height, caller, llm_job

# The Job Dispatcher (0x…02) delivers job results.
DISPATCHER = "0x" + "00" * 19 + "02"
# Covers the callback (some 50,000 cycles at a devnet's basefee); the rest goes back.
CALLBACK_FEE = 1_000_000_000
SCHEMA = json.dumps({
    "type": "object",
    "required": ["verdict", "score"],
    "properties": {
        "verdict": {"enum": ["pass", "fail"]},
        "score": {"type": "integer", "minimum": 0, "maximum": 100},
    },
})
CHECKS = {"structured_match": {"checks": [
    {"json_schema": {}},
    {"field_majority": {"field": "/verdict"}},
    {"numeric_tolerance": {"field": "/score", "tolerance_bps": 1000}},
]}}


@actor
class LlmJudge:
    def __init__(self, model, runners=3, max_price=10_000_000):
        if runners < 2:
            raise ValueError("structured_match needs a committee of at least 2 runners")
        self.storage["owner"] = caller()
        self.storage["model"] = model
        self.storage["runners"] = runners
        self.storage["max_price"] = max_price
        self.storage["verdicts"] = {}

    def judge(self, text):
        """Asks the committee to grade `text`; returns the job id."""
        if caller() != self.storage["owner"]:
            raise PermissionError("only the owner asks for judgements")
        job = llm_job(self.storage["model"], "Grade this text. Answer only with JSON "
                      '{"verdict": "pass" or "fail", "score": 0 to 100}.\n\n' + text,
                      "on_verdict", self.storage["max_price"],
                      system="You are a strict, fair grader.", max_tokens=64,
                      data_format="json", json_schema=SCHEMA, verification=CHECKS,
                      runners=self.storage["runners"],
                      threshold=self.storage["runners"] // 2 + 1,
                      callback_fee=CALLBACK_FEE)
        verdicts = self.storage["verdicts"]
        verdicts[job] = None
        self.storage["verdicts"] = verdicts
        emit("Asked", [job, block_height()])
        return job

    def on_verdict(self, job_id, status, result, details):
        if caller() != DISPATCHER:
            raise PermissionError("only the Job Dispatcher delivers results")
        verdicts = self.storage["verdicts"]
        # Anyone may submit a job naming this handler as its callback: only the judge's own
        # jobs are recorded.
        if job_id not in verdicts:
            emit("Ignored", [job_id])
            return
        if status == "verified":
            if isinstance(result, bytes):
                result = result.decode()
            answer = json.loads(result)
            verdicts[job_id] = {"verdict": answer["verdict"], "score": answer["score"]}
        else:
            verdicts[job_id] = {"verdict": None, "status": status,
                                "failure": details.get("failure", "")}
        self.storage["verdicts"] = verdicts
        emit("Judged", [job_id, status])

    def verdict(self, job_id):
        return self.storage["verdicts"].get(job_id)
