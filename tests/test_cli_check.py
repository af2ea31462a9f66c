"""``mmlint check``: exit codes, output formats, selection, hostile input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import FIXTURES, modules_after


def run(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd,
                          env=env or dict(os.environ, NO_COLOR="1"))


BROKEN = {
    "MEMORY.md": "# Memory Index\n\n- [Gone](gone.md) — missing note\n- [A](a.md) — ok\n",
    "a.md": "---\nname: a\ndescription: a note\ntype: reference\n---\n\nbody\n",
    "orphan.md": "---\nname: orphan\ndescription: nobody points here\ntype: reference\n---\n",
}


def test_example_is_clean():
    proc = run("check", "--example")
    assert proc.returncode == 0
    assert "All checks passed" in proc.stdout


def test_errors_exit_1_with_path_line_column(store, tmp_path):
    root = store(BROKEN)
    proc = run("check", str(root), cwd=tmp_path)
    assert proc.returncode == 1
    rel = root.relative_to(tmp_path).as_posix()
    assert f"{rel}/MEMORY.md:3:10: P101 error no note at 'gone.md'" in proc.stdout
    assert f"{rel}/orphan.md:1:1: P106 error orphan note" in proc.stdout
    assert "  hint: create the note or remove the entry" in proc.stdout
    assert "Found 2 errors" in proc.stdout


def test_json_format_shape(store, tmp_path):
    root = store(BROKEN)
    proc = run("check", str(root), "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert list(doc) == ["format", "tool", "summary", "diagnostics"]
    assert doc["format"] == "mmlint.diagnostics/1"
    assert doc["tool"]["name"] == "mmlint"
    assert doc["summary"] == {"files": 3, "errors": 2, "warnings": 0, "infos": 0}
    d = doc["diagnostics"][0]
    assert list(d) == ["rule", "severity", "path", "range", "message", "hint", "fix"]
    assert d["rule"] == {"id": "P101", "name": "dangling-pointer"}
    assert d["path"] == f"{root.name}/MEMORY.md"
    assert d["range"] == {"start": {"line": 3, "column": 10}, "end": {"line": 3, "column": 17}}
    paths = [(x["path"], x["range"]["start"]["line"], x["rule"]["id"]) for x in doc["diagnostics"]]
    assert paths == sorted(paths)


def test_select_and_ignore(store):
    root = store(BROKEN)
    doc = json.loads(run("check", str(root), "--format", "json", "--select", "P106").stdout)
    assert {d["rule"]["id"] for d in doc["diagnostics"]} == {"P106"}
    doc = json.loads(run("check", str(root), "--format", "json", "--ignore", "dangling-pointer,P106").stdout)
    assert doc["diagnostics"] == []
    proc = run("check", str(root), "--select", "Z999")
    assert proc.returncode == 2 and "unknown rule 'Z999'" in proc.stderr


def test_unknown_flag_and_missing_path_are_usage_errors(tmp_path):
    assert run("check", "--strict").returncode == 2
    proc = run("check", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "no such file or folder" in proc.stderr


def test_plain_output_when_not_a_tty(store):
    proc = run("check", str(store(BROKEN)))
    assert "\x1b[" not in proc.stdout


def test_hostile_file_name_cannot_forge_a_line(store):
    root = store({"MEMORY.md": "# Memory Index\n", "x\nP101 error forged.md": "---\nname: x\n---\n"})
    proc = run("check", str(root))
    forged = [line for line in proc.stdout.splitlines() if line.startswith("P101")]
    assert forged == []
    assert "x\\nP101 error forged.md" in proc.stdout


def test_long_pointer_is_bounded_in_messages(store):
    target = "a" * 3000 + ".md"
    root = store({"MEMORY.md": f"# Memory Index\n- [x]({target})\n"})
    proc = run("check", str(root), "--format", "json", "--select", "P101")
    msg = json.loads(proc.stdout)["diagnostics"][0]["message"]
    assert len(msg) < 200 and msg.endswith("...'")


def test_several_stores_in_one_run(store):
    a, b = store(BROKEN), store({"MEMORY.md": "# Memory Index\n"})
    proc = run("check", str(a), str(b))
    assert proc.returncode == 1
    assert proc.stdout.count(": engramory") == 2


def test_version_imports_no_heavy_library():
    heavy = {"jsonschema", "rich", "ruamel", "markdown_it", "tomllib", "tomli"}
    assert modules_after(["--version"]) & heavy == set()


def test_json_check_imports_no_rich(store):
    root = store(BROKEN)
    assert "rich" not in modules_after(["check", str(root), "--format", "json"])


def test_every_fixture_checks_without_crash():
    for root in sorted(FIXTURES.glob("*/*/store")):
        proc = run("check", str(root), "--format", "json")
        assert proc.returncode in (0, 1), (root, proc.stderr)
        json.loads(proc.stdout)


def test_output_keeps_a_symlink_and_writes_a_fifo_in_place(tmp_path):
    """--output replaced the name it was given (a temporary file renamed
    over it): a symlink became a regular file, a FIFO or (as root)
    /dev/stdout was swapped for one (found by review). A link's target is
    replaced and the link kept; a FIFO is written in place; a dangling
    link's target is created."""
    import os
    import threading

    from conftest import make_store

    root = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — h\n",
                                       "a.md": "---\nname: a\ndescription: d\ntype: user\n---\n\nb\n"})

    def check(out):
        return subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--no-cache", "--format", "json",
                               "--output", str(out)], capture_output=True, text=True)

    (tmp_path / "target.json").write_text("old\n")
    (tmp_path / "link.json").symlink_to("target.json")
    assert check(tmp_path / "link.json").returncode in (0, 1)
    assert (tmp_path / "link.json").is_symlink() and '"diagnostics"' in (tmp_path / "target.json").read_text()
    (tmp_path / "dangling.json").symlink_to("made.json")
    assert check(tmp_path / "dangling.json").returncode in (0, 1)
    assert (tmp_path / "dangling.json").is_symlink() and '"diagnostics"' in (tmp_path / "made.json").read_text()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    assert check(fifo).returncode in (0, 1)
    reader.join(30)
    assert fifo.is_fifo() and '"diagnostics"' in got[0]
