"""Tests for the requester and the responder, run by `cowboy test`: each test_* function gets
a fresh local chain. A message is delivered within the transaction that sends it, so a reply
comes back in the same block; a timeout timer fires blocks later."""

import cowboy_test as ct

FUNDS = 100_000_000_000  # base units (100 CBY) the requester's timeout timers are paid from


def pair():
    return ct.deploy("requester", value=FUNDS), ct.deploy("responder")


def test_a_question_is_answered_in_the_same_transaction():
    requester, responder = pair()
    receipt = requester.transact("ask", responder.address, "ping")
    assert receipt.return_value == 0
    assert receipt.messages == ["handle"] and receipt.timers == 1
    assert receipt.ran() == ["requester.ask", "responder.handle", "requester.on_reply"]
    assert receipt.emitted("Answered")
    assert requester.query("result", 0) == {"state": "answered", "answer": "PING"}
    assert responder.storage("answered") == 1


def test_an_unanswered_question_times_out():
    requester, _ = pair()
    nobody = ct.accounts[9]  # no actor there: the question's delivery fails
    assert requester.ask(nobody, "anyone?") == 0
    fired = [r for r in ct.advance(10) if r.method == "on_timeout"]
    assert len(fired) == 1 and fired[0].emitted("TimedOut")
    assert requester.query("result", 0) == {"state": "timed_out", "answer": None}


def test_only_the_asked_actor_may_reply():
    requester, _ = pair()
    requester.ask(ct.accounts[9], "anyone?")
    with ct.expect_failure(kind="Exception", match="wrong actor"):
        requester.on_reply(0, "FAKE", sender=ct.accounts[1])
    # A late reply to a settled request is ignored.
    ct.advance(10)
    assert requester.on_reply(0, "LATE", sender=ct.accounts[9]) is False


def test_the_responder_answers_whoever_asks():
    _, responder = pair()
    receipt = responder.transact("handle", 7, "hello")
    assert receipt.return_value == 7
    assert receipt.messages == ["on_reply"]


@ct.given(question=ct.text(max_size=12), max_examples=20)
def test_the_answer_is_the_question_in_capitals(question):
    requester, responder = pair()
    request_id = requester.ask(responder.address, question)
    assert requester.query("result", request_id)["answer"] == question.upper()
