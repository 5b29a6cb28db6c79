import struct


def run():
    fmts = ["<bhi", ">bhi", "!bhi", "=bhi", "<q", "<e", "<10s", "<5p", "<3x", "<?",
            "<2h3I", "<ihq", "<", "<0i", ">3s2H"]
    return [[f, struct.calcsize(f)] for f in fmts] + [struct.Struct("<Hd").size, struct.Struct(">I").format]
