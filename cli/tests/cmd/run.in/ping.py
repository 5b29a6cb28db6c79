import cowboy_sdk as sdk

class Actor:
    def __init__(self, peer):
        self.peer = peer

    def ping(self, n):
        sdk.send(self.peer, "pong", n)
        sdk.set_timer(sdk.block_height() + 10, "timeout", n)
        print("sent ping", n)
        return n

    def timeout(self, n):
        return n
