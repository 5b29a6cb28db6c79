def run():
    transitions = {("idle", "start"): "running", ("running", "pause"): "paused", ("paused", "resume"): "running", ("running", "stop"): "idle"}
    state = "idle"
    history = [state]
    for ev in ["start", "pause", "bogus", "resume", "stop"]:
        state = transitions.get((state, ev), state)
        history.append(state)
    return history
