"""The pre-commit manifest runs mmlint once per store, not per changed file,
and the README tells how to use it."""

from __future__ import annotations

import re

from conftest import ROOT


def manifest() -> list[dict]:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_check_hook_runs_per_store():
    hooks = {h["id"]: h for h in manifest()}
    hook = hooks["mmlint"]
    assert {"id", "name", "entry", "language"} <= set(hook)
    assert hook["entry"] == "mmlint check" and hook["language"] == "python"
    assert hook["pass_filenames"] is False and hook["require_serial"] is True
    files = re.compile(hook["files"])
    for path in ("MEMORY.md", ".claude/memory/feedback_x.md", "memory/项目约定/x.md", ".mmlint.toml", "pyproject.toml"):
        assert files.search(path), path
    for path in ("src/app.py", "MEMORY.md.bak", "notes.txt"):
        assert not files.search(path), path


def test_readme_documents_the_hook_with_args():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    assert "repo:" in section and "id: mmlint" in section and "args:" in section
    for heading in ("## Configuration", "## Suppressions"):
        assert heading in text
