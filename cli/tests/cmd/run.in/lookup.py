from cowboy_sdk import actor

def helper(x):
    return {"a": 1}[x]

@actor
class T:
    def go(self):
        return helper("b")
