"""The import graph of mmlint: dialects never reach ``convert``.

Every ``import`` in every module is counted, those inside functions too (a
lazy import is still a dependency). ``convert`` uses the dialects; the
dialects report budget use and refusals through :mod:`mmlint.usage`, so no
path of imports may lead from a dialect back to ``convert`` (DESIGN "no
import cycles", issue 8 item 9).
"""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "mmlint"


def _module_name(path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, set[str]]:
    """mmlint module -> the mmlint modules it imports (a submodule import
    also imports every package above it)."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        wanted: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                wanted.add(base)
                wanted |= {f"{base}.{a.name}" for a in node.names}
        deps = set()
        for w in wanted:
            parts = w.split(".")
            deps |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(paths)
        graph[name] = deps - {name}
    # The package itself is the public façade: its exports are resolved on
    # attribute access (``__getattr__``), never by importing a submodule,
    # so ``from mmlint import carriers`` does not reach them.
    graph["mmlint"] = set()
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """Module -> the module that first imported it, for everything ``start`` reaches."""
    seen = {start: ""}
    todo = [start]
    while todo:
        cur = todo.pop()
        for dep in sorted(graph.get(cur, ())):
            if dep not in seen:
                seen[dep] = cur
                todo.append(dep)
    return seen


def _chain(seen: dict[str, str], end: str) -> str:
    out = [end]
    while seen[out[-1]]:
        out.append(seen[out[-1]])
    return " -> ".join(reversed(out))


def test_graph_sees_lazy_imports():
    graph = _modules()
    assert "mmlint.convert.pipeline" in graph["mmlint.convert"]
    assert "mmlint.usage" in graph["mmlint.dialects.mm"]  # imported inside budget_use
    assert "mmlint.dialects" in graph["mmlint.convert.pipeline"]


def test_no_dialect_reaches_convert():
    graph = _modules()
    dialect_modules = [m for m in graph if m == "mmlint.dialects" or m.startswith("mmlint.dialects.")]
    assert len(dialect_modules) >= 4
    for mod in dialect_modules:
        seen = _reachable(graph, mod)
        bad = sorted(m for m in seen if m == "mmlint.convert" or m.startswith("mmlint.convert."))
        assert not bad, f"import cycle through convert: {_chain(seen, bad[0])}"


def test_usage_is_neutral():
    seen = _reachable(_modules(), "mmlint.usage")
    assert not any(m.startswith(("mmlint.convert", "mmlint.dialects")) for m in seen), sorted(seen)
