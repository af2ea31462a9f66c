"""Configuration files: discovery, precedence, ``extend``, every key, command
line overrides, ``--isolated`` / ``--config``, and invalid configurations
(exit status 2 naming the file and the key)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import make_store, modules_after

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import ENG, N, idx, with_  # noqa: E402

#: One dangling pointer (P101, error) and one orphan note (P106, error).
BROKEN = with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x"), **{"b.md": N("b")})


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"))


def codes(*args, cwd=None) -> set[str]:
    proc = run("check", *args, "--format", "json", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return {d["rule"]["id"] for d in json.loads(proc.stdout)["diagnostics"]}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path):
    """``repo/mem`` is a store with P101 and P106 findings."""
    make_store(tmp_path / "repo" / "mem", BROKEN)
    return tmp_path / "repo"


def test_without_config_both_findings(repo):
    assert {"P101", "P106"} <= codes(str(repo / "mem"))


@pytest.mark.parametrize("name, text", [
    (".mmlint.toml", 'ignore = ["P106"]\n'),
    ("mmlint.toml", 'ignore = ["orphan-note"]\n'),
    ("pyproject.toml", '[project]\nname = "x"\n\n[tool.mmlint]\nignore = ["P106"]\n'),
])
def test_config_file_above_the_store_is_found(repo, name, text):
    write(repo / name, text)
    got = codes(str(repo / "mem"))
    assert "P106" not in got and "P101" in got


def test_nearest_file_wins_without_merging(repo):
    write(repo / ".mmlint.toml", 'ignore = ["P101", "P106"]\n')
    write(repo / "mem" / "mmlint.toml", 'ignore = ["P106"]\n')
    got = codes(str(repo / "mem"))
    assert "P101" in got and "P106" not in got


def test_pyproject_without_a_table_is_passed_over(repo):
    write(repo / ".mmlint.toml", 'ignore = ["P106"]\n')
    write(repo / "mem" / "pyproject.toml", '[project]\nname = "notes"\n')
    assert "P106" not in codes(str(repo / "mem"))


def test_dot_file_beats_plain_beats_pyproject_in_one_folder(repo):
    write(repo / "pyproject.toml", '[tool.mmlint]\nignore = ["P101"]\n')
    write(repo / "mmlint.toml", 'ignore = ["P106"]\n')
    got = codes(str(repo / "mem"))
    assert "P101" in got and "P106" not in got
    write(repo / ".mmlint.toml", 'ignore = ["P101"]\n')
    got = codes(str(repo / "mem"))
    assert "P101" not in got and "P106" in got


def test_extend_inherits_and_tables_merge_per_key(repo, tmp_path):
    write(tmp_path / "base" / "shared.toml", 'ignore = ["P106"]\n[severity]\nP101 = "warning"\nI105 = "warning"\n')
    write(repo / ".mmlint.toml", 'extend = "../base/shared.toml"\n[severity]\nI105 = "error"\n')
    proc = run("check", str(repo / "mem"), "--format", "json")
    doc = json.loads(proc.stdout)
    sev = {d["rule"]["id"]: d["severity"] for d in doc["diagnostics"]}
    assert "P106" not in sev and sev["P101"] == "warning"
    assert proc.returncode == 0


def test_extend_cycle_and_missing_file_are_errors(repo):
    write(repo / ".mmlint.toml", 'extend = "other.toml"\n')
    write(repo / "other.toml", 'extend = ".mmlint.toml"\n')
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2 and "extend" in proc.stderr and "cycle" in proc.stderr
    write(repo / ".mmlint.toml", 'extend = "nowhere.toml"\n')
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2 and "nowhere.toml" in proc.stderr and "extend" in proc.stderr


def test_per_path_ignores_relative_to_the_config_folder(repo):
    write(repo / ".mmlint.toml", '[per-path-ignores]\n"mem/b.md" = ["P106"]\n"other/MEMORY.md" = ["P101"]\n')
    got = codes(str(repo / "mem"))
    assert "P106" not in got
    assert "P101" in got  # the pattern names repo/other/MEMORY.md, not repo/mem/MEMORY.md
    write(repo / ".mmlint.toml", '[per-path-ignores]\n"**/MEMORY.md" = ["dangling-pointer"]\n"*.md" = ["P1"]\n')
    assert codes(str(repo / "mem")) & {"P101", "P106"} == set()


def test_per_path_ignores_name_only_pattern_matches_any_depth(repo):
    write(repo / ".mmlint.toml", '[per-path-ignores]\n"MEMORY.md" = ["P101"]\n')
    assert "P101" not in codes(str(repo / "mem"))


def test_severity_by_code_or_name_changes_the_exit_status(repo):
    write(repo / ".mmlint.toml", '[severity]\nP101 = "info"\norphan-note = "warning"\n')
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 0
    assert "P101 info" in proc.stdout and "P106 warning" in proc.stdout


def test_dialect_profile_and_caps(repo):
    write(repo / ".mmlint.toml", 'dialect = "engramory"\nprofile = "claude-code"\n[caps]\nindex_lines = 2\n')
    proc = run("check", str(repo / "mem"))
    assert "profile claude-code" in proc.stdout
    assert "I102" in proc.stdout and "over the 2-line cap" in proc.stdout


def test_command_line_overrides(repo):
    write(repo / ".mmlint.toml", 'select = ["P106"]\nprofile = "claude-code"\n')
    assert codes(str(repo / "mem")) == {"P106"}
    assert codes(str(repo / "mem"), "--select", "P101") == {"P101"}
    assert codes(str(repo / "mem"), "--ignore", "P106") == set()
    proc = run("check", str(repo / "mem"), "--profile", "upstream")
    assert "profile upstream" in proc.stdout


def test_isolated_ignores_config_and_config_picks_one(repo, tmp_path):
    write(repo / ".mmlint.toml", 'ignore = ["P101", "P106"]\n')
    assert {"P101", "P106"} <= codes(str(repo / "mem"), "--isolated")
    other = write(tmp_path / "elsewhere" / "strict.toml", 'select = ["P101"]\n')
    assert codes(str(repo / "mem"), "--config", str(other)) == {"P101"}
    proc = run("check", str(repo / "mem"), "--config", str(other), "--isolated")
    assert proc.returncode == 2 and "--isolated" in proc.stderr
    proc = run("check", str(repo / "mem"), "--config", str(tmp_path / "missing.toml"))
    assert proc.returncode == 2 and "missing.toml" in proc.stderr


@pytest.mark.parametrize("text, key, words", [
    ('selct = ["P101"]\n', "selct", "unknown key"),
    ('select = "P101"\n', "select", "array"),
    ('select = ["Z999"]\n', "select", "Z999"),
    ('ignore = [1]\n', "ignore[0]", "string"),
    ('[severity]\nP101 = "fatal"\n', "severity.P101", "error, warning, info"),
    ('[severity]\nZ999 = "error"\n', "severity.Z999", "unknown rule"),
    ('[per-path-ignores]\n"*.md" = ["nope-rule"]\n', "per-path-ignores.*.md", "nope-rule"),
    ('[per-path-ignores]\n"*.md" = "P101"\n', "per-path-ignores.*.md", "array"),
    ('dialect = "obsidian"\n', "dialect", "obsidian"),
    ('dialect = "mm"\nprofile = "upstream"\n', "profile", "upstream"),
    ('profile = "nosuch"\n', "profile", "nosuch"),
    ('[caps]\nindex_line = 3\n', "caps.index_line", "unknown key"),
    ('[caps]\nindex_lines = "3"\n', "caps.index_lines", "integer"),
    ('[caps]\nindex_lines = -1\n', "caps.index_lines", "minimum"),
    ('[caps]\nindex_lines = true\n', "caps.index_lines", "integer"),
    ('extend = 3\n', "extend", "string"),
    ('select = [\n', None, "not valid TOML"),
])
def test_invalid_config_exits_2_naming_file_and_key(repo, text, key, words):
    cfg = write(repo / ".mmlint.toml", text)
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2, proc.stdout
    assert str(cfg) in proc.stderr
    if key:
        assert f": {key}:" in proc.stderr, proc.stderr
    assert words in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_invalid_pyproject_table_names_the_dotted_key(repo):
    write(repo / "pyproject.toml", '[tool.mmlint]\nselect = 5\n')
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2 and ": tool.mmlint.select:" in proc.stderr
    write(repo / "pyproject.toml", '[tool]\nmmlint = 5\n')
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2 and ": tool.mmlint:" in proc.stderr and "table" in proc.stderr


@pytest.mark.parametrize("data", [b"\x00\x01\x02 binary", b"ignore = [\"P106\"]\n\xff\xfe", b"[[[[", "x = 1\n".encode() * 3 + b"= =\n"])
def test_hostile_config_files(repo, data):
    (repo / ".mmlint.toml").write_bytes(data)
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2
    assert ".mmlint.toml" in proc.stderr and "Traceback" not in proc.stderr


def test_huge_config_file_is_refused(repo):
    (repo / ".mmlint.toml").write_bytes(b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    proc = run("check", str(repo / "mem"))
    assert proc.returncode == 2 and "bytes" in proc.stderr


def test_config_schema_is_bundled_and_valid():
    from jsonschema import Draft202012Validator

    from mmlint.validate import load_schema, validate

    schema = load_schema("config")
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema")
    assert validate("config", {"select": ["P101"], "caps": {"index_lines": 10}, "severity": {"P101": "info"}}) == []
    proc = run("schema", "config")
    assert proc.returncode == 0 and json.loads(proc.stdout)["title"]


def test_no_toml_parser_when_no_config_is_near(tmp_path):
    root = make_store(tmp_path / "s", BROKEN)
    assert modules_after(["check", str(root), "--format", "json"]) & {"tomllib", "tomli"} == set()


def test_readme_example_is_a_valid_configuration(tmp_path):
    from conftest import ROOT

    from mmlint import config

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    example = text.split("## Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    write(tmp_path / "shared" / "mmlint.toml", "[caps]\nindex_bytes = 20000\n")
    cfg = write(tmp_path / "repo" / ".mmlint.toml", example)
    conf = config.load(str(cfg))
    assert conf.caps == {"index_lines": 150, "index_bytes": 20000}
    assert conf.severity == {"F114": "info", "P106": "warning"} and conf.profile == "claude-code"


def test_explicit_pyproject_without_table_is_an_error(repo, tmp_path):
    other = write(tmp_path / "elsewhere" / "pyproject.toml", '[project]\nname = "x"\n')
    proc = run("check", str(repo / "mem"), "--config", str(other))
    assert proc.returncode == 2 and ": tool.mmlint: no [tool.mmlint] table" in proc.stderr


def test_a_value_no_alternative_takes_is_explained_by_the_keys_description(tmp_path):
    # found by a newcomer run: jobs = "many" said only "is not valid under any of the given schemas"
    import subprocess
    import sys

    from conftest import make_store

    root = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n---\n\nx\n",
                                       ".mmlint.toml": 'jobs = "many"\n'})
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root)], capture_output=True, text=True)
    assert proc.returncode == 2 and "'many' is not allowed here: Processes the rules run on" in proc.stderr, proc.stderr
    assert "given schemas" not in proc.stderr


def test_a_config_path_that_is_a_folder_says_so(tmp_path):
    # found by a newcomer run: --config DIR said "not a regular file (a FIFO, socket or device ...)"
    import subprocess
    import sys

    from conftest import make_store

    root = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n---\n\nx\n"})
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--config", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.rstrip().endswith("is a folder, not a file"), proc.stderr
