def run():
    return [str(12345)[::-1], int("".join(sorted("3142"))), sum(int(d) for d in str(2 ** 50)), "{:>10}".format(3.5), str(-0.5), "%.3e" % 123456.789]
