def run():
    found = None
    for i in range(5):
        if i * i > 6:
            found = i
            break
    else:
        found = "none"
    for j in range(2):
        pass
    else:
        j = "completed"
    return [found, j]
