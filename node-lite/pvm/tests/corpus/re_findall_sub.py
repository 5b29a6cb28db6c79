import re

def run():
    text = "a1b22c333d"
    return [re.findall(r"\d+", text), re.sub(r"\d", "#", text), re.sub(r"(\d+)", r"<\1>", text), re.split(r"\d+", text), re.subn("[abc]", "", text)]
