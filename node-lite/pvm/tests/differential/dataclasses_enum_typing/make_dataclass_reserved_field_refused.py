# refused: dataclass-field-name
# A field named like a builtin of the metering rewrite (`__ad__`, an operator's): the source
# dataclasses generates would call the builtin where it means the field.
import dataclasses


def run():
    D = dataclasses.make_dataclass("D", ["__ad__"])
    return repr(D(0))
