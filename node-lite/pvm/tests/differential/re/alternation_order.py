import re


def run():
    return [
        re.findall(r"cat|category", "category cat"),
        re.findall(r"category|cat", "category cat"),
        re.findall(r"\b(?:GET|POST|PUT|DELETE)\b", "GET /a POST /b PATCH /c DELETE"),
        re.match(r"(red|green|blue)-(\d+)", "green-42").groups(),
        re.findall(r"(?:ab)+|a", "abababa"),
        re.sub(r"yes|no", lambda m: m.group().upper(), "yes or no or maybe"),
        re.match(r"|a", "a").span(),
    ]
