import re


def render(template, ctx):
    def repl(m):
        key = m.group(1)
        if key in ctx:
            return str(ctx[key])
        return m.group(0)
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", repl, template)


def run():
    ctx = {"name": "Ada", "count": 3}
    return [
        render("Hello {{name}}, you have {{ count }} items.", ctx),
        render("{{missing}} stays", ctx),
        render("no placeholders", ctx),
        render("{{name}}{{name}}", ctx),
        re.sub(r"\$(\w+)|\$\{(\w+)\}", lambda m: ctx.get(m.group(1) or m.group(2), "?"), "$name and ${name}x $zzz"),
    ]
