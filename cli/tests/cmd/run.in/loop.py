class Actor:
    def spin(self):
        while True:
            pass
