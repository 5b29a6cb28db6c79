def run():
    allowances = {("alice", "bob"): 100}
    allowances[("alice", "carol")] = 5
    return allowances[("bob", "alice")]
