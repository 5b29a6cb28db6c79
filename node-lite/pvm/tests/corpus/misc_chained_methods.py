def run():
    text = "  Alpha, beta;GAMMA , delta  "
    tokens = [t.strip().lower() for t in text.replace(";", ",").split(",")]
    return [tokens, ", ".join(sorted(tokens, key=len)), text.strip().split(",")[0].upper()]
