//! The type stubs `cowboy new` writes for editors (`python/stubs/*.pyi`) cannot drift from the
//! modules the PVM runs: every public function, class, method and constant of `cowboy_sdk` and
//! `cowboy_test` has a stub with the same parameters (names, order, kinds, which have
//! defaults), every stub names something real, and `pvm_host`'s stub lists exactly the native
//! functions the PVM registers. CPython's `ast` (the project's oracle) reads both sides.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_pvm::Engine;
use std::path::Path;

/// Compares a module's public surface with its stub's; prints each difference and exits 1.
const COMPARE: &str = r#"
import ast, sys

def params(fn):
    a = fn.args
    plain = a.posonlyargs + a.args
    defaults = [False] * (len(plain) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, "positional", d) for p, d in zip(plain, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, "*args", False))
    out += [(p.arg, "keyword", d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append((a.kwarg.arg, "**kwargs", False))
    return out

def public(name):
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))

def surface(tree, module=True):
    out = {}
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(n.name):
            if module and n.name.startswith("__"):
                continue
            out[n.name] = ("def", params(n))
        elif isinstance(n, ast.ClassDef) and not n.name.startswith("_"):
            out[n.name] = ("class", surface(n, module=False))
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                if isinstance(t, ast.Name) and not t.id.startswith("_"):
                    out[t.id] = ("value", None)
    return out

def compare(where, real, stub, problems):
    for name, (kind, detail) in real.items():
        if name not in stub:
            problems.append("%s%s: %s %s has no stub" % (where, name, kind, name))
            continue
        skind, sdetail = stub[name]
        if kind == "value" and where:
            continue  # instance attributes are declared in stubs, assigned in __init__
        if skind != kind:
            problems.append("%s%s: a %s, stubbed as a %s" % (where, name, kind, skind))
        elif kind == "def" and detail != sdetail:
            problems.append("%s%s: parameters %s, stubbed as %s" % (where, name, detail, sdetail))
        elif kind == "class":
            compare("%s%s." % (where, name), detail, sdetail, problems)
    for name, (kind, _) in stub.items():
        if name not in real and not (where and kind == "value"):
            problems.append("%s%s: stubbed, but the module has no %s" % (where, name, name))

problems = []
for module, stub in zip(sys.argv[1::2], sys.argv[2::2]):
    real = surface(ast.parse(open(module).read()))
    stubbed = surface(ast.parse(open(stub).read()))
    local = []
    compare("", real, stubbed, local)
    problems += ["%s: %s" % (stub, p) for p in local]
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
"#;

fn python() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("python").leak()
}

fn compare(pairs: &[(&Path, &Path)]) -> (bool, String) {
    let mut cmd = std::process::Command::new("python3");
    cmd.arg("-c").arg(COMPARE);
    for (module, stub) in pairs {
        cmd.arg(module).arg(stub);
    }
    let out = cmd
        .output()
        .expect("python3 runs (CPython 3.11 is on every machine)");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn the_sdk_and_test_stubs_match_their_modules() {
    let dir = python();
    let (ok, report) = compare(&[
        (
            &dir.join("cowboy_sdk.py"),
            &dir.join("stubs/cowboy_sdk.pyi"),
        ),
        (
            &dir.join("cowboy_test.py"),
            &dir.join("stubs/cowboy_test.pyi"),
        ),
    ]);
    assert!(ok, "the stubs drifted:\n{report}");
}

#[test]
fn a_function_added_without_its_stub_is_caught() {
    let dir = python();
    let scratch = tempfile::tempdir().expect("tempdir");
    let module = scratch.path().join("cowboy_sdk.py");
    let source = std::fs::read_to_string(dir.join("cowboy_sdk.py")).expect("sdk");
    std::fs::write(
        &module,
        format!("{source}\n\ndef brand_new(x, *, y=1):\n    return x\n"),
    )
    .expect("write");
    let (ok, report) = compare(&[(&module, &dir.join("stubs/cowboy_sdk.pyi"))]);
    assert!(!ok);
    assert!(
        report.contains("brand_new: def brand_new has no stub"),
        "{report}"
    );
}

#[test]
fn the_pvm_host_stub_lists_every_native_function() {
    let mut engine = Engine::new().expect("engine");
    let names = engine
        .debug_exec(
            "import pvm_host\nresult = sorted(n for n in dir(pvm_host) if not n.startswith('_'))",
        )
        .expect("pvm_host loads");
    let stub = std::fs::read_to_string(python().join("stubs/pvm_host.pyi")).expect("stub");
    let script = "import ast, sys\n\
         t = ast.parse(sys.stdin.read())\n\
         names = set()\n\
         for n in t.body:\n\
         \x20   if isinstance(n, ast.FunctionDef): names.add(n.name)\n\
         \x20   elif isinstance(n, ast.AnnAssign): names.add(n.target.id)\n\
         print(sorted(names))\n";
    let mut child = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stub.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python3");
    let stubbed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(
        stubbed, names,
        "pvm_host.pyi (left) and the PVM's pvm_host (right) differ"
    );
}
