class Task:
    def __init__(self, prio, name):
        self.prio = prio
        self.name = name

    def __lt__(self, other):
        return self.prio < other.prio


def run():
    tasks = [Task(3, "c"), Task(1, "a"), Task(2, "b"), Task(1, "a2")]
    out = [t.name for t in sorted(tasks)]
    out.append(Task(5, "x") > Task(2, "y"))
    out.append(Task(1, "x") > Task(2, "y"))
    try:
        Task(1, "x") <= Task(2, "y")
    except TypeError as e:
        out.append(str(e))
    out.append(max(tasks).name)
    out.append(min(tasks).name)
    return out
