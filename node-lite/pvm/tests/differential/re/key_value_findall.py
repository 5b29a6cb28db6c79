import re


def run():
    text = "name=alice; age=30;city = Paris ; empty=; flag"
    pairs = re.findall(r"(\w+)\s*=\s*([^;]*?)\s*(?:;|$)", text)
    d = dict(pairs)
    single = re.findall(r"\w+=", text)
    nums = re.findall(r"\d+", "a1b22c333")
    one_group = re.findall(r"(\d)\d*", "a1b22c333")
    none = re.findall(r"z", "abc")
    return [pairs, d, single, nums, one_group, none]
