"""``--write-baseline`` records today's findings; ``--baseline`` hides them,
and keeps hiding them when unrelated lines move."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_store

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import ENG, N, idx, with_  # noqa: E402

STORE = with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x"), **{"b.md": N("b")})


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"))


def shown(root: Path, baseline: Path) -> list[tuple[str, str, int]]:
    proc = run("check", str(root), "--isolated", "--baseline", str(baseline), "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    return [(d["rule"]["id"], d["path"].rsplit("/", 1)[-1], d["range"]["start"]["line"]) for d in json.loads(proc.stdout)["diagnostics"]]


def record(root: Path, baseline: Path) -> subprocess.CompletedProcess:
    proc = run("check", str(root), "--isolated", "--write-baseline", str(baseline))
    assert proc.returncode == 0, proc.stderr
    return proc


def test_write_then_check_hides_everything(tmp_path):
    root = make_store(tmp_path / "mem", STORE)
    base = tmp_path / "baseline.json"
    proc = record(root, base)
    assert "recorded 2 findings" in proc.stderr
    doc = json.loads(base.read_text())
    assert doc["format"] == "mmlint.baseline/1" and doc["tool"]["name"] == "mmlint"
    assert [s["store"] for s in doc["stores"]] == ["mem"]
    assert {(f["rule"], f["path"]) for f in doc["stores"][0]["findings"]} == {("P101", "MEMORY.md"), ("P106", "b.md")}
    proc = run("check", str(root), "--isolated", "--baseline", str(base))
    assert proc.returncode == 0, proc.stdout
    assert "2 findings hidden by the baseline" in proc.stderr


def test_baseline_file_is_sorted_and_stable(tmp_path):
    root = make_store(tmp_path / "mem", STORE)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    record(root, a)
    record(root, b)
    assert a.read_bytes() == b.read_bytes()
    findings = json.loads(a.read_text())["stores"][0]["findings"]
    assert findings == sorted(findings, key=lambda f: (f["path"], f["rule"], f["fingerprint"]))
    assert a.read_text().endswith("}\n")


def test_inserting_lines_above_keeps_findings_hidden(tmp_path):
    root = make_store(tmp_path / "mem", STORE)
    base = tmp_path / "baseline.json"
    record(root, base)
    (root / "MEMORY.md").write_text(idx("<!-- moved -->", "", "- [A](a.md) — hook", "", "", "- [Gone](gone.md) — x"), encoding="utf-8")
    (root / "b.md").write_text(N("b", body="a new first line\n\nbody\n"), encoding="utf-8")
    assert [x for x in shown(root, base) if x[0] in ("P101", "P106")] == []


def test_a_new_finding_is_shown_and_fails(tmp_path):
    root = make_store(tmp_path / "mem", STORE)
    base = tmp_path / "baseline.json"
    record(root, base)
    (root / "MEMORY.md").write_text(idx("- [A](a.md) — hook", "- [Gone](gone.md) — x", "- [New](new.md) — y"), encoding="utf-8")
    assert shown(root, base) == [("P101", "MEMORY.md", 5)]
    assert run("check", str(root), "--isolated", "--baseline", str(base)).returncode == 1


def test_identical_lines_are_counted(tmp_path):
    twice = with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x", "- [Gone](gone.md) — x"))
    root = make_store(tmp_path / "mem", twice)
    base = tmp_path / "baseline.json"
    record(root, base)
    assert [f["rule"] for f in json.loads(base.read_text())["stores"][0]["findings"]].count("P101") == 2
    (root / "MEMORY.md").write_text(idx("- [A](a.md) — hook", "- [Gone](gone.md) — x"), encoding="utf-8")
    assert shown(root, base) == []
    (root / "MEMORY.md").write_text(idx("- [A](a.md) — hook", *["- [Gone](gone.md) — x"] * 3), encoding="utf-8")
    assert [c for c, _, _ in shown(root, base) if c == "P101"] == ["P101"]


def test_cap_findings_survive_moving_lines(tmp_path):
    pad = ["<!-- pad -->"] * 210
    root = make_store(tmp_path / "mem", with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", *pad)))
    base = tmp_path / "baseline.json"
    record(root, base)
    (root / "MEMORY.md").write_text(idx("<!-- top -->", "- [A](a.md) — hook", *pad[:-3]), encoding="utf-8")
    assert [x for x in shown(root, base) if x[0] == "I102"] == []


def test_each_store_has_its_own_records(tmp_path):
    one = make_store(tmp_path / "one", STORE)
    two = make_store(tmp_path / "two", with_(ENG, **{"b.md": N("b")}))
    base = tmp_path / "baseline.json"
    record(one, base)
    assert [c for c, _, _ in shown(two, base)] == ["P106"]


def test_bad_baseline_files_exit_2(tmp_path):
    root = make_store(tmp_path / "mem", STORE)
    for name, data in (("missing.json", None), ("text.json", "not json"), ("other.json", '{"format": "x"}'),
                       ("shape.json", '{"format": "mmlint.baseline/1", "stores": [{"store": 1}]}')):
        path = tmp_path / name
        if data is not None:
            path.write_text(data)
        proc = run("check", str(root), "--isolated", "--baseline", str(path))
        assert proc.returncode == 2, name
        assert name in proc.stderr and "Traceback" not in proc.stderr
    proc = run("check", str(root), "--baseline", str(path), "--write-baseline", str(path))
    assert proc.returncode == 2


def test_fingerprint_ignores_line_numbers_and_spacing():
    from mmlint import baseline
    from mmlint.model import FileRecord, Span, Store
    from mmlint.rules import Diagnostic

    def fp(data: bytes, line: int) -> str:
        store = Store(root="/x", dialect="engramory", files={"a.md": FileRecord("a.md", "note", len(data), data)})
        d = Diagnostic("P101", "dangling-pointer", "error", Span("a.md", line, 1), "m")
        return baseline.fingerprints(store, [d])[0]

    assert fp(b"x\n- [a](b.md)  hook\n", 2) == fp(b"\n\n\n-  [a](b.md) hook\r\n", 4)
    assert fp(b"- [a](b.md)\n", 1) != fp(b"- [a](c.md)\n", 1)


def _diags(specs):
    from mmlint.rules import Diagnostic
    from mmlint.span import Span

    return [Diagnostic(code, "x", "error", Span(path, line, col), msg, anchor=anchor) for path, line, col, code, msg, anchor in specs]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a.md", "b.md", "c/d.md"]), st.integers(1, 4), st.integers(1, 3),
                          st.sampled_from(["P101", "F111"]), st.sampled_from(["m", "n"]), st.sampled_from([None, "cap"])),
                max_size=30))
def test_fingerprints_count_occurrences_in_report_order(specs):
    """A fingerprint's counter is the number of findings before it, in
    report order, with the same rule, path and line text (or anchor)."""
    import hashlib

    from mmlint import baseline
    from mmlint.model import FileRecord, Store

    files = {p: FileRecord(p, "note", 0, b"same\nsame\nother\n  same  \n") for p in ("a.md", "b.md", "c/d.md")}
    store = Store(root="/x", dialect="engramory", files=files)
    ds = _diags(specs)
    lines = {1: "same", 2: "same", 3: "other", 4: "same"}
    text = [d.anchor if d.anchor is not None else lines[d.span.line] for d in ds]
    want = []
    for i, d in enumerate(ds):
        before = sum(1 for j, e in enumerate(ds) if (e.sort_key(), j) < (d.sort_key(), i)
                     and (e.code, e.span.path, text[j]) == (d.code, d.span.path, text[i]))
        raw = "\0".join((d.code, d.span.path, text[i], str(before))).encode()
        want.append(hashlib.sha256(raw).hexdigest()[:16])
    assert baseline.fingerprints(store, ds) == want


@pytest.mark.parametrize("finding,ok", [
    ({"rule": "P101", "path": "a.md", "fingerprint": "f"}, True),
    ({"fingerprint": "f", "store": "elsewhere"}, True),  # a finding with a stray key is still one
    ({"fingerprint": "f", "findings": []}, True),  # as before: any object with a text fingerprint
    ({"fingerprint": 3}, False),
    ("f", False),
    ({"rule": "P101"}, False),
])
def test_read_takes_findings_as_before(tmp_path, finding, ok):
    import json

    from mmlint import baseline
    from mmlint.errors import CheckError

    doc = {"format": baseline.FORMAT, "stores": [{"store": "s", "findings": [finding]}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    if ok:
        assert baseline.read(str(path)) == {"s": {"f"}}
    else:
        with pytest.raises(CheckError, match="malformed store record"):
            baseline.read(str(path))


@pytest.mark.parametrize("store,message", [
    ({"store": "s", "fingerprint": "f"}, "malformed store record"),
    ("s", "malformed store record"),
])
def test_read_refuses_store_records_as_before(tmp_path, store, message):
    import json

    from mmlint import baseline
    from mmlint.errors import CheckError

    path = tmp_path / "b.json"
    path.write_text(json.dumps({"format": baseline.FORMAT, "stores": [store]}))
    with pytest.raises(CheckError, match=message):
        baseline.read(str(path))
    path.write_text(json.dumps({"fingerprint": "f", "stores": []}))
    with pytest.raises(CheckError, match="not an mmlint.baseline/1 file"):
        baseline.read(str(path))


def test_read_holds_fingerprints_not_records(tmp_path):
    """20,000 findings (a 2.7 MB file): read into a 64 MiB buffer, then
    parsed into dicts with their rule and path beside the file's bytes,
    they peaked at ~67 MB (12.6 MB without the buffer); kept as
    fingerprints, the text alone while it is parsed: ~6.3 MB."""
    import json
    import tracemalloc

    from mmlint import baseline

    findings = [{"rule": "P109", "path": f"note-{i:05}.md", "fingerprint": f"{i:016x}"} for i in range(20000)]
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"format": baseline.FORMAT, "stores": [{"store": "s", "findings": findings}]}, indent=2))
    del findings
    tracemalloc.start()
    try:
        got = baseline.read(str(path))
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(got["s"]) == 20000 and f"{19999:016x}" in got["s"] and f"{20000:016x}" not in got["s"]
    assert peak < 8_000_000, peak
    # kept until the end of the check: a set of the strings took ~2.5 MiB, the sorted array of numbers ~160 KB
    assert kept < 400_000, kept


def test_written_as_made_is_the_whole_document(tmp_path):
    """write() streams the text of dumps(document(...), indent=2): the same
    bytes, for no store, one, several and one twice, names that are not
    UTF-8 included (written whole, 20,000 findings took 92 MiB; ~64)."""
    from mmlint import api, baseline
    from mmlint.reporters.json import dumps

    roots = [make_store(tmp_path / "a", STORE), make_store(tmp_path / "b", {**STORE, "c\udcff.md": N("c")})]
    one = api.check([str(roots[0])])
    both = api.check([str(r) for r in roots])
    for results in ([], one.stores, both.stores, one.stores * 2, both.stores[::-1]):
        path = tmp_path / "base.json"
        count = baseline.write(str(path), results)
        doc = baseline.document(results, str(path))
        assert path.read_bytes() == (dumps(doc, indent=2) + "\n").encode("utf-8")
        assert count == sum(len(s["findings"]) for s in doc["stores"])
    assert b"\\udcff" in path.read_bytes()


@given(st.lists(st.text(alphabet="0123456789abcdefABx _", min_size=14, max_size=18) | st.text(max_size=20), max_size=20),
       st.lists(st.text(alphabet="0123456789abcdefABx _", min_size=14, max_size=18), max_size=10))
def test_fingerprints_hold_what_a_set_holds(recorded, asked):
    from mmlint import baseline

    kept = baseline.Fingerprints(recorded)
    assert kept == set(recorded) and len(kept) == len(set(recorded))
    for f in asked + recorded + [f.upper() for f in recorded] + ["0x" + f[2:] for f in recorded if len(f) == 16]:
        assert (f in kept) == (f in set(recorded)), f
