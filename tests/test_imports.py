"""Start-up cost (issue 9 item 8): ``--version`` builds no parser, and a check
imports markdown-it and jsonschema only when a store needs them."""

from __future__ import annotations

import pytest

from conftest import after_cli, make_store, modules_after

NOTE = "---\nname: {n}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}"


def _store(root, body="A plain fact, see [[b]].\n", type_="reference"):
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n- [B](b.md) - h\n",
             "a.md": NOTE.format(n="a", body=body).replace("type: reference", f"type: {type_}"),
             "b.md": NOTE.format(n="b", body="Another fact.\n")}
    return make_store(root, files)


def _check(root) -> set[str]:
    return modules_after(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"])


def test_version_builds_no_parser():
    assert modules_after(["--version"]) & {"dataclasses", "argparse", "typing", "gettext"} == set()


def test_plain_store_imports_neither_markdown_it_nor_jsonschema(tmp_path):
    # nor package metadata (third-party dialects) for a built-in --profile
    assert _check(_store(tmp_path / "plain")) & {"markdown_it", "jsonschema", "email", "csv"} == set()


def test_libraries_come_when_a_note_needs_them(tmp_path):
    invalid = _check(_store(tmp_path / "bad", type_="nonsense"))
    assert "jsonschema" in invalid  # jsonschema words the finding
    linked = _check(_store(tmp_path / "md", body="See ``code`` and [a link](b.md).\n"))
    assert "markdown_it" in linked and "jsonschema" not in linked


def test_plain_check_reads_schemas_without_importlib_resources(tmp_path):
    # the schemas are plain files: importlib.resources (zipfile, tempfile, random) is not needed
    assert _check(_store(tmp_path / "plain")) & {"zipfile", "tempfile", "random"} == set()


def test_a_command_builds_its_own_subparser_only():
    from mmlint import cli
    from mmlint.commands import COMMANDS

    def commands(parser):
        return set(next(a for a in parser._actions if a.dest == "command").choices)

    assert commands(cli.build_parser("check")) == {"check"}
    assert commands(cli.build_parser()) == set(COMMANDS)


def test_a_mistyped_flag_still_gets_a_suggestion_from_the_full_parser(capsys):
    import pytest

    from mmlint import cli

    with pytest.raises(SystemExit):
        cli.main(["check", ".", "--no-cahce"])
    assert "--no-cache" in capsys.readouterr().err


def test_a_plain_check_compiles_no_pattern_only_other_stores_need(tmp_path):
    """Module-level patterns of the secret scan, personal data, mm budgets and
    recall-v1 names are :func:`mmlint.textutil.lazy_re`: a plain store's
    check never compiles them."""

    root = _store(tmp_path / "plain")
    probe = ("from mmlint.textutil import LazyPattern\n"
             "result = sorted(f'{m}.{k}' for m, mod in list(sys.modules.items()) if m.startswith('mmlint')\n"
             "                for k, v in vars(mod).items() if isinstance(v, LazyPattern) and 'search' not in vars(v))")
    left = set(after_cli(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"], probe))
    assert {"mmlint.personal._EMAIL_RE", "mmlint.personal._SSN_RE", "mmlint.dialects.mm._BUDGET_RE",
            "mmlint.dialects.engramory._RECALL_NAME_RE", "mmlint.rules.store._CONFLICT",
            "mmlint.frontmatter._NUMERIC", "mmlint.textutil.UNSAFE_CHARS", "mmlint.reporters.json._RAW_UNSAFE",
            "mmlint.rules.interop.INVISIBLE", "mmlint.rules.interop.BIDI", "mmlint.discover._ENV_RE",
            "mmlint.carriers._ISO_DATETIME_RE", "mmlint.carriers._MM_CARRIER_RE", "mmlint.rules.hygiene._PATH_RE",
            "mmlint.rules.hygiene._CODE_RE", "mmlint.markdown._TAG_RE", "mmlint.dialects.engramory._LEDGER_RE",
            "mmlint.dialects.mm._MM_HEADER_RE", "mmlint.dialects.mm._MM_ENTRY_RE",
            "mmlint.textutil._ASCII_UNSAFE"} <= left


def test_building_the_parser_asks_no_terminal_size(tmp_path):
    # argparse's formatter imports shutil (bz2, lzma) for the width; only --help needs it
    assert _check(_store(tmp_path / "plain")) & {"shutil", "bz2", "lzma"} == set()


def test_help_wraps_at_the_terminal_width(monkeypatch, capsys):
    import pytest

    from mmlint import cli

    widths = {}
    for columns in ("40", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        with pytest.raises(SystemExit):
            cli.main(["check", "--help"])
        widths[columns] = len(capsys.readouterr().out.splitlines())
    assert widths["40"] > widths["200"] * 1.5  # narrower: many more lines


def test_the_collector_is_off_during_a_command_and_restored_after(tmp_path, monkeypatch):
    import gc

    from mmlint import cli
    from mmlint.commands import check

    seen = []
    real = check.run
    monkeypatch.setattr(check, "run", lambda args: seen.append(gc.isenabled()) or real(args))
    assert gc.isenabled()
    cli.main(["check", str(_store(tmp_path / "plain")), "--format", "json", "--profile", "upstream", "--no-cache"])
    assert seen == [False] and gc.isenabled()


def _added(argv: list[str]) -> set[str]:
    """Modules (dotted names) that running ``mmlint argv`` in a fresh
    interpreter imports beyond those present before mmlint is imported (an
    editable install's finder brings pathlib and urllib.parse at start-up; a
    user's ``pip install .`` does not)."""
    import json
    import os
    import site
    import subprocess
    import sys

    import mmlint

    code = ("import io, sys\nbefore = set(sys.modules)\nimport mmlint.cli as c\n"
            "sys.stdout = io.StringIO()\n"
            "try:\n    c.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "added = sorted(set(sys.modules) - before)\nimport json\n"
            "sys.stderr.write('\\nADDED ' + json.dumps(added))")
    # no site module (-S): an editable install's import finder, whose .pth
    # file imports pathlib and urllib.parse, would hide them; mmlint and its
    # libraries come from PYTHONPATH instead, as from a plain install
    path = [os.path.dirname(os.path.dirname(mmlint.__file__)), *site.getsitepackages()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    proc = subprocess.run([sys.executable, "-S", "-c", code, *argv], capture_output=True, text=True, env=env)
    return set(json.loads(proc.stderr.rsplit("ADDED ", 1)[-1]))


@pytest.fixture(scope="module")
def plain_check_adds(tmp_path_factory) -> set[str]:
    """What a plain check (JSON output, no cache) adds to a bare interpreter."""
    root = _store(tmp_path_factory.mktemp("plain"))
    return _added(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"])


def test_plain_check_imports_no_url_or_path_library(plain_check_adds):
    # resolve unquotes only a target with a "%"; the schemas are read with os
    assert plain_check_adds & {"urllib", "urllib.parse", "ipaddress", "pathlib", "fnmatch", "ntpath"} == set()
    assert "mmlint.rules" in plain_check_adds  # the probe ran a check


def test_plain_check_imports_no_dataclasses(plain_check_adds):
    # every class on the path is a plain mmlint._record class: no dataclasses, nor what it imports
    assert plain_check_adds & {"dataclasses", "inspect", "ast", "dis", "tokenize", "copy"} == set()


def test_reader_rule_docs_read_as_when_cleaned_at_registration():
    # reader_rule keeps the doc as written (no inspect at import); every reader
    # of Rule.doc cleans it, which gives what cleaning a cleaned doc gave
    import inspect

    from mmlint import rules

    reader = [r for r in rules.load().values() if r.func is None]
    assert len(reader) >= 15
    for r in reader:
        assert inspect.cleandoc(r.doc) == inspect.cleandoc(inspect.cleandoc(r.doc)), r.code


def test_plain_check_imports_no_json(plain_check_adds):
    # the JSON reporter writes strings with json.encoder's own C encoder (_json), a valid note is
    # proved valid by a predicate shipped ready-made (mmlint._schema_predicates): no schema is parsed
    assert plain_check_adds & {"json", "json.decoder", "json.scanner", "json.encoder"} == set()
    assert {"mmlint._schema_predicates", "mmlint.reporters.json"} <= plain_check_adds


def test_plain_check_imports_no_datetime_importlib_or_warnings(plain_check_adds):
    # dates are counted by mmlint.dates (F117, F118, the schemas' format: date); modules are
    # loaded with __import__ (the package __getattr__ imported importlib, and with it warnings,
    # for every "from mmlint import <submodule>")
    assert plain_check_adds & {"datetime", "_datetime", "importlib", "warnings"} == set()


def test_plain_check_imports_no_parallel(plain_check_adds):
    # serial (jobs not configured, or 1) needs no mmlint.parallel
    assert "mmlint.parallel" not in plain_check_adds


def test_the_json_reporter_encodes_strings_as_json_dumps_does():
    import json

    from mmlint.reporters import json as reporter

    assert reporter._encode_str is json.encoder.encode_basestring


@pytest.mark.parametrize("fmt", ["text", "github", "json-lines", "junit"])
def test_a_check_in_another_format_imports_no_typing(tmp_path, fmt):
    # every reporter names its types for type checkers only: the text reporter (the default
    # output) imported typing (~3 ms of each `mmlint check`), as did github, json-lines, junit
    root = _store(tmp_path / "plain")
    added = _added(["check", str(root), "--format", fmt, "--profile", "upstream", "--no-cache"])
    assert f"mmlint.reporters.{fmt.replace('-', '_')}" in added and "typing" not in added


def test_a_check_with_output_imports_no_fix_machinery(tmp_path):
    # --output wrote through mmlint.fixes (dataclasses, typing: ~8 ms); mmlint.atomic is its own module
    root = _store(tmp_path / "plain")
    added = _added(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache",
                    "--output", str(tmp_path / "report.json")])
    assert "mmlint.atomic" in added
    assert added & {"mmlint.fixes", "dataclasses", "typing"} == set()
    assert (tmp_path / "report.json").read_text(encoding="utf-8").startswith("{")


def test_plain_check_imports_no_typing(plain_check_adds):
    # annotations name typing only under TYPE_CHECKING; Span, Found and Located are collections.namedtuple
    assert "typing" not in plain_check_adds


def test_plain_check_imports_no_argparse(plain_check_adds):
    # a plain command line is parsed by mmlint.commands._fastargs (tests/test_fastargs.py)
    assert plain_check_adds & {"argparse", "gettext", "locale", "mmlint.commands._parser"} == set()


def test_version_adds_only_the_package_the_cli_and_the_command_table():
    # not even __future__: mmlint, mmlint.cli and mmlint.commands quote their annotations
    added = _added(["--version"])
    assert {m for m in added if m.startswith("mmlint")} == {"mmlint", "mmlint.cli", "mmlint.commands"}
    assert added & {"__future__", "re", "argparse", "typing", "enum", "importlib", "warnings"} == set()


def test_no_cache_check_of_a_flat_store_imports_no_cache_module(plain_check_adds):
    # resolve takes the unwalked folders from walk; the walk asks the cache module about subfolders only
    assert "mmlint.cache" not in plain_check_adds and "mmlint.walk" in plain_check_adds
    assert "heapq" not in plain_check_adds  # the suppression sweep imports it for a store with suppression comments
    assert "contextlib" not in plain_check_adds  # gc_paused and walk.overlay are classes (python -m imports it anyway)


def test_the_process_command_line_skips_the_exit_collection_a_caller_keeps_it(tmp_path):
    # main() without argv is the process's own command: gc.freeze at exit (registered after this
    # probe's handler, so it runs before it); main(argv) leaves a caller's process alone
    import subprocess
    import sys

    root = _store(tmp_path / "plain")
    probe = ("import atexit, gc, io, sys\natexit.register(lambda: sys.stderr.write(f'\\nFROZEN {gc.get_freeze_count()}'))\n"
             "import mmlint.cli as c\nsys.stdout = io.StringIO()\n")
    argv = ["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"]
    own = subprocess.run([sys.executable, "-c", probe + "sys.argv[1:] = sys.argv[2:]\nc.main()", "-", *argv],
                         capture_output=True, text=True)
    caller = subprocess.run([sys.executable, "-c", probe + "c.main(sys.argv[1:])", *argv], capture_output=True, text=True)
    assert int(own.stderr.rsplit("FROZEN ", 1)[-1]) > 1000
    assert int(caller.stderr.rsplit("FROZEN ", 1)[-1]) == 0


def test_gc_paused_nests_restores_and_lets_exceptions_through():
    import gc

    import pytest

    from mmlint.gcpause import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it off: it stays off
    assert gc.isenabled()
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_walk_overlay_is_undone_after_the_block_even_on_error(tmp_path):
    import pytest

    from mmlint import walk

    (tmp_path / "a.md").write_bytes(b"disk")
    with walk.overlay(str(tmp_path), {"a.md": b"memory", "b.md": b"new"}):
        with walk.overlay(str(tmp_path), {"a.md": b"inner"}):
            assert walk.walk_store(str(tmp_path)).files["a.md"].data == b"inner"
        assert {p: r.data for p, r in walk.walk_store(str(tmp_path)).files.items()} == {"a.md": b"memory", "b.md": b"new"}
    with pytest.raises(ValueError), walk.overlay(str(tmp_path), {"a.md": b"x"}):
        raise ValueError
    assert walk.walk_store(str(tmp_path)).files["a.md"].data == b"disk" and walk._OVERLAYS == {}


def test_a_detected_recall_v1_check_imports_no_json_nor_unicodedata(tmp_path):
    # the profile a store of <type>-<slug>.md notes is detected as (the benchmark's): S110 imports
    # json only for a ledger, and ASCII names are folded without unicodedata (textutil.fold_key)
    from conftest import make_store

    note = "---\nname: {n}\ndescription: d\ntype: user\n---\n\nA fact about {n}, see [[user-b]].\n"
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## user\n- [A](user-a.md) — h\n- [B](user-b.md) — h\n",
                                       "user-a.md": note.format(n="a"), "user-b.md": note.format(n="b")})
    added = _added(["check", str(root), "--format", "json", "--no-cache"])
    assert "mmlint.rules.store" in added and "mmlint.similarity" in added  # S110 and H101 ran
    assert added & {"json", "unicodedata"} == set()


def test_a_ledger_is_still_read_as_json_lines(tmp_path):
    from conftest import make_store
    from mmlint import api

    note = "---\nname: a\ndescription: d\ntype: user\n---\n\nA fact.\n"
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## user\n- [A](user-a.md) — h\n",
                                       "user-a.md": note, ".engramory-usage.jsonl": '{"ts": 1}\n{"ts":\n'})
    ds = api.check([str(root)], profile="recall-v1").stores[0].diagnostics
    assert [(d.code, d.span.line) for d in ds if d.code == "S110"] == [("S110", 2)]
