"""The layout issue 10 item 9 asks for: ``cli.py`` parses and hands over,
one module per command, and ``api``/``config`` do not import each other."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT
from mmlint import commands

#: The source tree, not the installed package: CI installs a copy (``pip
#: install .``) that lacks pyproject.toml and any subpackage it forgot.
PKG = ROOT / "mmlint"


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_api_and_config_do_not_import_each_other():
    assert not any(m == "mmlint.api" or m.startswith("mmlint.api.") for m in _imports(PKG / "config.py"))
    assert not any(m.startswith("mmlint.api") for m in _imports(PKG / "baseline.py"))


def test_cli_imports_only_the_command_table():
    mine = {m for m in _imports(PKG / "cli.py") if m.startswith("mmlint")}
    assert {m.split(".")[1] for m in mine if m.count(".") >= 1} <= {"commands", "errors", "suggest", "__version__"}


def test_every_command_is_a_module_with_help_configure_run():
    for name in commands.COMMANDS:
        mod = commands.load(name)
        assert mod.HELP and callable(mod.configure) and callable(mod.run), name
        assert (PKG / "commands" / f"{mod.__name__.rsplit('.', 1)[-1]}.py").is_file()


def test_new_subpackages_are_listed_in_pyproject():
    text = (PKG.parent / "pyproject.toml").read_text("utf-8")
    for init in PKG.rglob("__init__.py"):
        dotted = ".".join(init.parent.relative_to(PKG.parent).parts)
        if dotted in ("mmlint.schemas",) or "__pycache__" in dotted:
            continue
        assert f'"{dotted}"' in text, f"{dotted} is missing from [tool.setuptools] packages"
