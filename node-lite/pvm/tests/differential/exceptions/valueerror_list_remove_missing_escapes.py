def run():
    members = ["a", "b"]
    members.remove("a")
    members.remove("z")
    return members
