"""Command-line habits of ruff and markdownlint-cli2 (issue 10 item 7):
per-PATH results, discovery up to the repository root, --quiet,
--exit-zero, --fail-on, --color, --show-settings, "did you mean", Ctrl-C,
a forced dialect that does not fit, and rule docs as plain text.

Tests call :func:`mmlint.cli.main` in-process (capsys) to stay cheap."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import ENG, WS, idx, with_  # noqa: E402
from conftest import make_store  # noqa: E402

from mmlint import cli  # noqa: E402

DANGLING = with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x"))
#: A store whose only finding is a warning (S108 empty-note... here I108 index-name-case is not a warning-only;
#: a workspace stale projection is a warning).
WARN_ONLY = with_(ENG, **{"a.md.bak": "old"})  # S109 leftover-file: info only


def main(capsys, *argv, env=None, monkeypatch=None):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_each_path_is_checked_on_its_own(tmp_path, capsys):
    good = make_store(tmp_path / "good", DANGLING)
    (tmp_path / "afile.md").write_text("x", encoding="utf-8")
    code, out, err = main(capsys, "check", str(tmp_path / "missing"), str(good), str(tmp_path / "afile.md"))
    assert code == 2  # the highest status wins: a path could not be checked
    assert "P101" in out and "1 path" not in out and "2 paths could not be checked" in out
    assert f"mmlint: {tmp_path / 'missing'}: no such file or folder" in err
    assert f"{tmp_path / 'afile.md'}: a file, not a store folder" in err
    # --exit-zero never hides a path that could not be checked
    assert main(capsys, "check", "--exit-zero", str(tmp_path / "missing"), str(good))[0] == 2


def test_exit_zero_and_fail_on(tmp_path, capsys):
    bad = make_store(tmp_path / "bad", DANGLING)
    info = make_store(tmp_path / "info", WARN_ONLY)
    assert main(capsys, "check", str(bad))[0] == 1
    assert main(capsys, "check", "--exit-zero", str(bad))[0] == 0
    assert main(capsys, "check", str(info))[0] == 0
    assert main(capsys, "check", "--fail-on", "warning", str(info))[0] == 0
    assert main(capsys, "check", "--fail-on", "info", str(info))[0] == 1


def test_quiet_prints_diagnostics_only(tmp_path, capsys, monkeypatch):
    bad = make_store(tmp_path / "bad", DANGLING)
    monkeypatch.chdir(bad)
    code, out, err = main(capsys, "check", "--quiet")
    assert code == 1 and "P101" in out
    assert "Found" not in out and "engramory, profile" not in out and err == ""
    code, out, err = main(capsys, "check")
    assert "Found 1 error" in out and "mmlint: using" in err


def test_discovery_walks_up_to_the_repository_root(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    make_store(repo / ".claude" / "memory", DANGLING)
    (repo / ".git").mkdir()
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DSH_MEMORY_ROOT", str(tmp_path / "none"))
    code, out, err = main(capsys, "check")
    assert code == 1 and "P101" in out
    assert f"using {repo / '.claude' / 'memory'}" in err and "parent folder" in err
    # outside a repository the parents are not searched
    (repo / ".git").rmdir()
    code, out, err = main(capsys, "check")
    assert code == 2 and "no memory store found" in err


def test_color_flag_and_environment(tmp_path, capsys, monkeypatch):
    bad = make_store(tmp_path / "bad", DANGLING)
    assert "\x1b[" in main(capsys, "check", "--color", "always", str(bad))[1]
    assert "\x1b[" not in main(capsys, "check", "--color", "never", str(bad))[1]
    assert "\x1b[" not in main(capsys, "check", str(bad))[1]  # auto, not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in main(capsys, "check", str(bad))[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in main(capsys, "check", str(bad))[1]
    assert "\x1b[" in main(capsys, "check", "--color", "always", str(bad))[1]


def test_show_settings_names_config_dialect_and_rules(tmp_path, capsys):
    bad = make_store(tmp_path / "bad", DANGLING)
    (tmp_path / ".mmlint.toml").write_text('ignore = ["P106"]\n[severity]\nP101 = "warning"\n', encoding="utf-8")
    code, out, err = main(capsys, "check", "--show-settings", str(bad))
    assert code == 0
    assert f"configuration: {tmp_path / '.mmlint.toml'}" in out
    assert "dialect: engramory (" in out and "profile: upstream" in out
    assert "  P101  dangling-pointer" in out and "warning" in out.split("P101  dangling-pointer", 1)[1].split("\n")[0]
    assert "P106" not in out
    doc = json.loads(main(capsys, "check", "--show-settings", "--format", "json", str(bad), "--isolated")[1])
    assert doc["format"] == "mmlint.settings/1"
    (s,) = doc["stores"]
    assert s["config"] is None and s["dialect"] == "engramory" and s["profile"] == "upstream"
    assert {"code": "P106", "name": "orphan-note", "severity": "error"} in s["rules"]


@pytest.mark.parametrize("argv, words", [
    (["check", "--exit-zeroo"], "(did you mean '--exit-zero'?)"),
    (["chekc"], "(did you mean 'check'?)"),
    (["check", "--format", "sarf"], "(did you mean 'sarif'?)"),
    (["check", "--select", "dangling-pionter"], "(did you mean 'dangling-pointer'?)"),
    (["check", "--dialect", "engramori"], "(did you mean 'engramory'?)"),
    (["check", "--profile", "upstrem"], "(did you mean 'upstream'?)"),
    (["rule", "orphan-nte"], "(did you mean 'orphan-note'?)"),
    (["schema", "workspace.nte"], "(did you mean 'workspace.note'?)"),
    (["convert", "a", "b", "--to", "mm", "--default", "sumary=x"], "(did you mean 'summary'?)"),
])
def test_did_you_mean(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and words in err, err


def test_ctrl_c_is_one_line_and_exit_130(capsys, monkeypatch):
    from mmlint.commands import rules as rules_cmd

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(rules_cmd, "run", interrupted)
    code, out, err = main(capsys, "rules")
    assert code == 130 and err == "mmlint: interrupted\n"


def test_forced_dialect_that_does_not_fit_says_so(tmp_path, capsys):
    root = make_store(tmp_path / "s", ENG)
    code, out, err = main(capsys, "check", "--dialect", "workspace", str(root))
    assert "warning:" in err and "read as workspace (forced), but it looks like engramory" in err
    code, out, err = main(capsys, "check", "--dialect", "engramory", str(root))
    assert "warning" not in err
    ws = make_store(tmp_path / "w", WS)
    assert "looks like workspace" in main(capsys, "check", "--dialect", "engramory", str(ws))[2]


def test_rule_doc_is_plain_text(capsys):
    code, out, err = main(capsys, "rule", "F114")
    assert code == 0 and "``" not in out and "'Why:'" in out


def test_findings_on_one_line_are_sorted_by_column():
    from mmlint.api import CheckResult, StoreResult
    from mmlint.discover import Found
    from mmlint.model import Index, Span, Store
    from mmlint.reporters import located
    from mmlint.rules import Diagnostic

    store = Store("/r", "engramory", "upstream", Index("MEMORY.md", text=""), [], {})
    diags = [Diagnostic("A101", "a", "error", Span("MEMORY.md", 3, 30), "late"),
             Diagnostic("Z101", "z", "error", Span("MEMORY.md", 3, 2), "early")]
    diags.sort(key=Diagnostic.sort_key)
    assert [d.message for d in diags] == ["early", "late"]
    res = CheckResult([StoreResult(Found("/r", "x"), "engramory", "upstream", None, store, diags)])
    assert [x.diagnostic.message for x in located(res, "/r")] == ["early", "late"]


def test_ctrl_c_after_the_command_ended_is_ignored_for_the_exit():
    """A Ctrl-C that lands in the interpreter's shutdown, after a convert
    had finished, printed a traceback from ``threading._shutdown`` (the kill
    test caught it under load); the process's own command line ignores
    SIGINT once the command has ended. A caller passing ``argv`` keeps its
    handler."""
    import subprocess
    import sys

    code = ("import signal, sys\n"
            "from mmlint import cli\n"
            "cli.main(['rules', '--format', 'json'])\n"
            "kept = signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
            "sys.argv = ['mmlint', 'rules', '--format', 'json']\n"
            "cli.main()\n"
            "sys.stderr.write(f'{kept} {signal.getsignal(signal.SIGINT) is signal.SIG_IGN}')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stderr.strip().endswith("True True"), r.stderr[-300:]


def test_a_ctrl_c_wrapped_by_class_creation_is_an_interruption(monkeypatch, capsys):
    """A Ctrl-C landing in a descriptor's ``__set_name__`` while a module is
    imported reaches the CLI as a ``RuntimeError`` caused by the
    ``KeyboardInterrupt``: it ends the run as any Ctrl-C does (exit 130,
    one line), not with a traceback and exit 1 (the kill campaign found it)."""
    from mmlint import cli

    def boom(argv):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:
            raise RuntimeError("Error calling __set_name__") from ki

    monkeypatch.setattr(cli, "_main", boom)
    assert cli.main(["rules"]) == cli.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "mmlint: interrupted\n"

    def other(argv):
        raise RuntimeError("a bug, not a Ctrl-C")

    monkeypatch.setattr(cli, "_main", other)
    import pytest

    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["rules"])


@pytest.mark.parametrize("argv, usage", [
    (["check", "--formt", "json", "."], "usage: mmlint check "),
    (["convert", "a", "b", "--to", "mm", "--dryrun"], "usage: mmlint convert "),
    (["--bogus"], "usage: mmlint [-h]"),
])
def test_an_unknown_flag_shows_the_usage_of_its_command(argv, usage, capsys, tmp_path, monkeypatch):
    # found by a newcomer: `check --formt` printed the top-level usage (mmlint [-h] [--version] COMMAND)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith(usage) and "unrecognized arguments" in err, err


def test_the_rule_list_shows_no_rst_markup(capsys):
    # found by a newcomer run: 69 lines of `mmlint rules` showed ``detailMaxBytes``-style literals
    assert cli.main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "``" not in out and "'detailMaxBytes'" in out
