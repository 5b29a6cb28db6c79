# refused: import-not-allowed
import keyword


def run():
    names = ["class", "None", "match", "case", "_", "valid_name"]
    return [[n, keyword.iskeyword(n), keyword.issoftkeyword(n)] for n in names]
