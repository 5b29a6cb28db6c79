def run():
    people = [("ann", "eng"), ("bob", "ops"), ("cy", "eng"), ("di", "ops"), ("ed", "hr")]
    groups = {}
    for name, team in people:
        groups.setdefault(team, []).append(name)
    return {k: sorted(v) for k, v in sorted(groups.items())}
