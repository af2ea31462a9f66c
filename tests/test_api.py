"""The public API: lazy exports, one exception hierarchy, the docs/api.md
example run as written, and ``py.typed``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT, make_store

import mmlint


def test_docs_example_runs():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 1
    p = subprocess.run([sys.executable, "-c", blocks[0]], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "refused: E_DEST_NOT_EMPTY" in p.stdout and "mm://" in p.stdout and "not a store:" in p.stdout


def test_import_is_lazy_and_exports_are_complete():
    code = ("import sys, mmlint; heavy = [m for m in ('mmlint.public', 'mmlint.convert', 'jsonschema', 'ruamel', 'markdown_it', 'rich') "
            "if m in sys.modules]; print(heavy); print(sorted(mmlint.__all__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.splitlines()
    assert out[0] == "[]"
    for name in ("read_store", "lint", "convert", "merge", "merge_index", "dump", "MmlintError", "CheckError", "Refused"):
        assert name in out[1]
        assert callable(getattr(mmlint, name))
    with pytest.raises(AttributeError):
        mmlint.no_such_thing  # noqa: B018


def test_convert_stays_callable_after_the_module_is_imported(tmp_path):
    import mmlint.convert  # the module of the same name

    store = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: a\ndescription: a\ntype: user\n---\n\nx\n"})
    plan = mmlint.convert(store, tmp_path / "out", to="mm", dry_run=True)
    assert plan.ok and not plan.written and hasattr(mmlint.convert, "plan_conversion")


def test_errors_are_one_hierarchy(tmp_path):
    from mmlint.config import ConfigError

    assert issubclass(mmlint.CheckError, mmlint.MmlintError) and issubclass(mmlint.Refused, mmlint.MmlintError)
    assert issubclass(ConfigError, mmlint.CheckError)
    with pytest.raises(mmlint.CheckError):
        mmlint.read_store(tmp_path / "missing")
    store = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: a\ndescription: a\ntype: user\n---\n\nx\n"})
    with pytest.raises(mmlint.CheckError, match="unknown rule"):
        mmlint.lint(mmlint.read_store(store), select=["Z999"])
    with pytest.raises(mmlint.CheckError):
        mmlint.read_store(store, dialect="nosuch")
    with pytest.raises(mmlint.Refused) as exc:
        mmlint.merge([store, make_store(tmp_path / "t", {"MEMORY.md": "- [A](a.md) — a\n",
                                                         "a.md": "---\nname: a\ndescription: other\ntype: user\n---\n\ny\n"})], tmp_path / "m")
    assert exc.value.plan.refusals[0].code == "E_SLUG_COLLISION"


def test_lint_select_ignore_and_severity(tmp_path):
    store = mmlint.read_store(make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n- [B](gone.md) — b\n",
                                                          "a.md": "---\nname: a\ndescription: a\ntype: user\n---\n\nx\n"}))
    assert [d.code for d in mmlint.lint(store, select=["P101"])] == ["P101"]
    assert mmlint.lint(store, select=["P"], ignore=["dangling-pointer"]) == []
    assert mmlint.lint(store, select=["P101"], severity={"P101": "info"})[0].severity == "info"


def test_py_typed_is_package_data():
    assert (ROOT / "mmlint" / "py.typed").is_file()
    text = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'"mmlint" = \[[^\]]*"py.typed"', text)
