import re


def camel_to_snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def snake_to_camel(name):
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)


def run():
    return [
        camel_to_snake("CamelCaseString"),
        camel_to_snake("getHTTPResponseCode"),
        camel_to_snake("HTTPServer2Go"),
        snake_to_camel("user_account_id"),
    ]
