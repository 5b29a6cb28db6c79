import json


def run():
    samples = ["", "plain", 'quote " inside', "back\\slash", "line\nbreak", "\u00e9\u4e2d", "\x00\x1f", "😀"]
    encoded = [json.dumps(s) for s in samples]
    decoded = [json.loads(e) for e in encoded]
    enc_utf = [json.dumps(s, ensure_ascii=False) for s in samples]
    return [encoded, decoded == samples, enc_utf,
            [json.loads(e) for e in enc_utf] == samples,
            json.dumps(["a", "b"]) == '["a", "b"]',
            json.dumps("</script>")]
