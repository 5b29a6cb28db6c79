def run():
    xs = ["abc", "ABC", "123", "a1", " ", "", "Title Case", "\u00e9"]
    return [[x.isalpha(), x.isdigit(), x.isalnum(), x.isspace(), x.islower(), x.isupper(), x.istitle()] for x in xs]
