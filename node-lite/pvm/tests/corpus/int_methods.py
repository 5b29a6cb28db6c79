def run():
    return [(255).bit_length(), (-8).bit_count() if hasattr(int, "bit_count") else 1, int.__name__, (5).real, (5).numerator, (7).conjugate()]
