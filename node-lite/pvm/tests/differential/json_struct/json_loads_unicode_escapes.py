import json


def run():
    return [
        json.loads('"caf\\u00e9"'),
        json.loads('"\\ud834\\udd1e"'),
        len(json.loads('"\\ud834\\udd1e"')),
        json.loads('"tab\\there\\nnl \\"q\\" back\\\\slash \\/"'),
        json.loads('"\\u0041\\u0062"'),
        json.loads('"raw é"'),
        json.loads(b'"bytes input \\u00fc"'),
        json.loads('"\\b\\f\\r"') == "\b\f\r",
        [ord(c) for c in json.loads('"\\ud800"')],
        json.loads('"\\u00E9"') == json.loads('"\\u00e9"'),
    ]
