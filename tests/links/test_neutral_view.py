"""Rules read a dialect-neutral view (issue 10 item 9): no rule module looks
into a reader's private layout, imports a dialect module, or spells out a
dialect fact (archive folders, the ledger pattern, history archives, schema
names, caps); each dialect exposes those and the rules ask
(:class:`mmlint.rules.Context`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "mmlint" / "rules"
#: Remaining exceptions, each with its reason.
ALLOWED_IMPORTS: set[tuple[str, str]] = set()  # I107/I111 ask ctx.dialect for the projection
FACTS = ("archive", "templates", ".engramory-", "-history.md", "engramory-", "workspace.note", "memories/")
CAPS = (4 * 1024 * 1024, 2000, 65536, 262144, 4000)


def _code_strings(tree: ast.AST):
    """String constants that are not docstrings."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("reader_rule", "rule"):
            docs.update(id(a) for a in node.args if isinstance(a, ast.Constant))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_read_the_neutral_view(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr != "layout", f"{path.name}:{node.lineno} reads a reader's layout"
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mmlint.dialects."):
            assert (path.name, node.module) in ALLOWED_IMPORTS, f"{path.name}:{node.lineno} imports {node.module}; ask ctx.dialect"
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            assert node.value not in CAPS, f"{path.name}:{node.lineno} spells a dialect cap ({node.value}); use ctx.fact()"
    for node in _code_strings(tree):
        for fact in FACTS:
            if fact in node.value:  # a message may name the fact; a pattern, path or name may not
                assert " " in node.value.strip(), f"{path.name}:{node.lineno} spells the dialect fact {fact!r} in {node.value!r}; ask the dialect"
