"""The fuzz harness: one store (``dict[str, bytes]``) through every path.

:func:`check_store` runs a store through every reader, the rules, every
reporter, ``--fix`` (safe and unsafe) and the same- and cross-dialect
writers, in memory (:func:`mmlint.walk.overlay` over an empty folder, so no
file is written per input); :func:`check_on_disk` writes it to a folder and
runs detection and the whole ``check`` command on it. A crash is an
exception; a mismatch is a broken property, returned as text:

* same-dialect rendering is byte for byte the input;
* no message, hint or human-readable report holds a raw control, escape
  or bidi character; JSON reports parse;
* ``--fix`` converges, and what it leaves reads and checks again;
* a cross-dialect rendering reads back in the target dialect.

Shared by ``test_fuzz.py`` (bounded by the hypothesis ``ci`` profile) and
``scripts/fuzz.py`` (the long campaign).
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import tempfile
from typing import Any

from mmlint import dialects, fixes, reporters, rules
from mmlint.api import CheckResult, StoreResult
from mmlint.dialects import Unrepresentable
from mmlint.discover import Found
from mmlint.walk import overlay

#: What no human-readable output may hold (``\n`` separates its lines).
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
HUMAN = ("text", "github", "junit")
MACHINE = ("json", "json-lines", "sarif")
READERS = [("engramory", "claude-code"), ("engramory", "recall-v1"), ("engramory", "upstream"), ("mm", None), ("workspace", None)]

_EMPTY = tempfile.mkdtemp(prefix="mmlint-fuzz-")


def read(files: dict[str, bytes], dialect: str, profile: str | None, root: str = _EMPTY):
    """The store ``files`` read by ``dialect``/``profile`` in memory."""
    with overlay(root, files):
        return dialects.get(dialect).read(root, profile)


def _result(store, dialect: str, profile: str | None, diagnostics: list) -> StoreResult:
    res = StoreResult(Found(store.root, "fuzz"), dialect, profile, None, store, diagnostics, rules.Options())
    return res


def check_read_render(files: dict[str, bytes], dialect: str, profile: str | None) -> list[str]:
    """Reader and same-dialect writer only (the campaign's fast mode)."""
    mod = dialects.get(dialect)
    store = read(files, dialect, profile)
    try:
        out = mod.render(store, profile)
    except Unrepresentable as exc:
        return [f"{dialect}/{profile}: same-dialect render refused: {exc}"]
    return [f"{dialect}/{profile}: same-dialect render changed {rel!r}" for rel, data in out.items() if files.get(rel) != data]


def check_reader(files: dict[str, bytes], dialect: str, profile: str | None) -> tuple[list[str], Any]:
    """Reader, rules and same-dialect writer: ``(mismatches, StoreResult)``."""
    bad: list[str] = []
    mod = dialects.get(dialect)
    store = read(files, dialect, profile)
    found = rules.run(store, mod)
    for d in found:
        if d.span.line < 1 or d.span.column < 1:
            bad.append(f"{dialect}/{profile}: {d.code} at line {d.span.line} column {d.span.column}")
        for text in (d.message, d.hint or "", (d.fix or {}).get("message", "")):
            if RAW_CONTROL.search(text):
                bad.append(f"{dialect}/{profile}: {d.code} prints a raw control character: {text[:80]!r}")
    try:
        out = mod.render(store, profile)
    except Unrepresentable as exc:
        bad.append(f"{dialect}/{profile}: same-dialect render refused: {exc}")
        out = {}
    for rel, data in out.items():
        if files.get(rel) != data:
            bad.append(f"{dialect}/{profile}: same-dialect render changed {rel!r}")
    return bad, _result(store, dialect, profile, found)


def check_reporters(res: StoreResult) -> list[str]:
    """Every reporter on one store's result."""
    bad = []
    result = CheckResult([res], unsafe_fixes=True)
    for name in HUMAN + MACHINE:
        buf = io.StringIO()
        reporters.get(name).report(result, buf, _EMPTY)
        text = buf.getvalue()
        if name in HUMAN:
            m = RAW_CONTROL.search(text.replace("\t", " ").replace("\r", "") if name == "junit" else text)
            if m:
                bad.append(f"{name}: raw control character {m.group()!r} in output")
        elif name == "json-lines":
            for line in text.splitlines():
                json.loads(line)
        else:
            json.loads(text)
    return bad


def check_fix(res: StoreResult) -> list[str]:
    """``--fix`` with unsafe fixes, in memory: converges; the fixed store
    reads and checks again."""
    bad = []
    files = {p: r.data for p, r in res.store.files.items() if r.data is not None}
    with overlay(res.store.root, files):
        out = fixes.fix_store(res, unsafe=True)
    if not out.converged:
        bad.append(f"{res.dialect}/{res.profile}: --fix did not converge")
    if out.changes:
        after = dict(files)
        after.update({p: new for p, (_, new) in out.changes.items()})
        store = read(after, res.dialect, res.profile)
        rules.run(store, dialects.get(res.dialect))
    return bad


def check_writers(res: StoreResult) -> list[str]:
    """Every other dialect's writer on the store: it renders or refuses
    (:class:`Unrepresentable`), and what it renders reads back."""
    for dialect, profile in READERS:
        if (dialect, profile) == (res.dialect, res.profile):
            continue
        target = dialects.get(dialect)
        try:
            out = target.render(copy.deepcopy(res.store), profile)
        except Unrepresentable:
            continue
        if any(rel.startswith("/") or ".." in rel.split("/") for rel in out):
            return [f"{res.dialect}->{dialect}/{profile}: writes outside the destination: {sorted(out)[:3]}"]
        store = read(out, dialect, profile, tempfile.gettempdir() + "/mmlint-fuzz-dst")
        rules.run(store, target)
    return []


def check_store(files: dict[str, bytes], deep: bool = True) -> list[str]:
    """Every reader on ``files``; with ``deep`` also the reporters, ``--fix``
    and the writers for each. Returns the mismatches (crashes raise)."""
    bad = []
    for dialect, profile in READERS:
        found, res = check_reader(files, dialect, profile)
        bad += found
        if deep:
            bad += check_reporters(res)
            bad += check_fix(res)
            bad += check_writers(res)
    return bad


def check_on_disk(files: dict[str, bytes], folder: str) -> list[str]:
    """Write ``files`` under ``folder`` and run ``mmlint check`` (detection,
    configuration, every reporter, then ``--fix --unsafe-fixes``) on it in
    process. Returns the mismatches; a crash raises."""
    from contextlib import redirect_stderr, redirect_stdout

    from mmlint import cli

    for rel, data in files.items():
        full = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as fh:
            fh.write(data)
    bad = []
    for args in (["--format", "text"], ["--format", "github"], ["--fix", "--unsafe-fixes"]):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = cli.main(["check", folder, *args])
        if status not in (0, 1, 2):
            bad.append(f"check {args}: exit status {status}")
        m = RAW_CONTROL.search(out.getvalue() + err.getvalue())
        if m:
            bad.append(f"check {args}: raw control character {m.group()!r} in output")
        if "Traceback" in err.getvalue():
            bad.append(f"check {args}: traceback")
    return bad
