"""``--format github``: workflow commands, one annotation per line.

The runner reads ``::<command> <key>=<value>,...::<message>`` per line. Data is
escaped ``%`` -> ``%25``, CR -> ``%0D``, LF -> ``%0A``; property values also
``:`` -> ``%3A`` and ``,`` -> ``%2C``. A hostile file name must neither split
an annotation over two lines nor break the ``::`` structure.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import fixed_result

from mmlint import reporters

LINE = re.compile(r"^::(error|warning|notice) ([^:]*)::([^\r\n]*)$")
KEYS = ["file", "line", "col", "endLine", "endColumn", "title"]
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def unescape(text: str) -> str:
    for esc, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(esc, raw)
    return text


def parse(out: str) -> list[tuple[str, dict[str, str], str]]:
    """``(command, properties, message)`` per line; fails on a malformed line."""
    parsed = []
    for line in out.split("\n")[:-1]:
        m = LINE.match(line)
        assert m, repr(line)
        props = dict(p.split("=", 1) for p in m.group(2).split(","))
        parsed.append((m.group(1), props, m.group(3)))
    return parsed


def render() -> str:
    buf = io.StringIO()
    reporters.get("github").report(fixed_result.build(), buf, fixed_result.CWD)
    return buf.getvalue()


def test_one_well_formed_annotation_per_diagnostic():
    out = render()
    out.encode("utf-8")  # strict: the undecodable byte was made text
    items = reporters.located(fixed_result.build(), fixed_result.CWD)
    parsed = parse(out)
    assert len(parsed) == len(items) == len(out.splitlines())
    for (cmd, props, msg), item in zip(parsed, items):
        d = item.diagnostic
        assert cmd == COMMANDS[d.severity]
        assert [k for k in props if k not in ("endLine", "endColumn")] == ["file", "line", "col", "title"]
        assert list(props) == [k for k in KEYS if k in props]
        assert (props["line"], props["col"]) == (str(d.span.line), str(d.span.column))
        assert props.get("endLine") == (str(d.span.end_line) if d.span.end_line is not None else None)
        assert props.get("endColumn") == (str(d.span.end_column) if d.span.end_column is not None else None)
        assert unescape(props["title"]) == f"{d.code} {d.name}"
        assert unescape(msg) == d.message


def test_hostile_file_name_is_escaped_not_forged():
    parsed = parse(render())
    hostile = [props["file"] for _, props, _ in parsed if "forged" in props["file"]]
    assert len(hostile) == 3
    want = "memory/" + fixed_result.HOSTILE.replace("\udcff", "\\xff").replace("\u2028", "\\u2028")
    assert unescape(hostile[0]) == want
    assert "%0A" in hostile[0] and "%25" in hostile[0] and "%3A" in hostile[0] and "%2C" in hostile[0]


def test_percent_colon_comma_in_messages():
    parsed = parse(render())
    msg = [m for _, props, m in parsed if unescape(props["title"]).startswith("N103")][0]
    assert "100%25 sure: a, b" in msg  # data: only %, CR, LF are escaped


def test_cli_hostile_names_on_disk(store, tmp_path):
    names = ["100%: a,b\nP101 error forged.md", "x\r::error file=evil::pwned.md", "&<>\"'.md"]
    root = store({"MEMORY.md": "# Memory Index\n", **{n: "---\nname: x\n---\n" for n in names}})
    env = dict(os.environ, NO_COLOR="1")
    gh = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", "github"],
                        capture_output=True, cwd=tmp_path, env=env)
    js = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", "json"],
                        capture_output=True, text=True, cwd=tmp_path, env=env)
    assert gh.returncode == js.returncode == 1
    out = gh.stdout.decode("utf-8")  # bytes: text mode would turn a stray CR into a newline
    assert "\r" not in out
    parsed = parse(out)
    diags = json.loads(js.stdout)["diagnostics"]
    assert len(parsed) == len(diags)
    assert [unescape(p["file"]) for _, p, _ in parsed] == [d["path"] for d in diags]
