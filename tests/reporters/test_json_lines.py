"""``--format json-lines``: the diagnostics of ``--format json``, one per line."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import fixed_result

from mmlint import reporters
from mmlint.api import CheckResult
from mmlint.reporters.json import document


def render(fmt: str, result=None) -> str:
    buf = io.StringIO()
    reporters.get(fmt).report(result or fixed_result.build(), buf, fixed_result.CWD)
    return buf.getvalue()


def test_same_objects_and_order_as_json():
    out = render("json-lines")
    assert out.endswith("\n")
    lines = out.splitlines()
    assert len(lines) == 8
    assert [json.loads(line) for line in lines] == json.loads(render("json"))["diagnostics"]


def test_one_line_per_object_even_with_line_separators_in_paths():
    out = render("json-lines")
    # str.splitlines also splits on U+2028, NEL, FF...: a consumer using it must still see 8 objects
    assert len(out.splitlines()) == len(out.split("\n")) - 1 == 8


def test_undecodable_file_name_round_trips_and_output_is_utf8():
    for fmt in ("json", "json-lines"):
        out = render(fmt)
        out.encode("utf-8")  # strict: no lone surrogate leaks into the output
        text = out if fmt == "json" else "[" + ",".join(out.splitlines()) + "]"
        doc = json.loads(text)
        items = doc["diagnostics"] if fmt == "json" else doc
        assert "memory/" + fixed_result.HOSTILE in {d["path"] for d in items}
        assert items == document(fixed_result.build(), fixed_result.CWD)["diagnostics"]


def test_no_diagnostics_prints_nothing():
    assert render("json-lines", CheckResult([])) == ""


def test_cli_json_lines_matches_json(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n\n- [Gone](gone.md) — missing\n", "o.md": "---\nname: o\n---\n"})

    def run(fmt):
        return subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", fmt],
                              capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ, NO_COLOR="1"))

    lines, whole = run("json-lines"), run("json")
    assert lines.returncode == whole.returncode == 1
    assert [json.loads(x) for x in lines.stdout.splitlines()] == json.loads(whole.stdout)["diagnostics"]
