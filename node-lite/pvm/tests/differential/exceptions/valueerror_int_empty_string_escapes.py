def run():
    return int("")
