"""Shared helpers: where the real corpus and the fixtures are, and a store builder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
FIXTURES = ROOT / "fixtures"

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent; the real-store tests read it from there")


def corpus_stores() -> list[Path]:
    """Every folder under ../shared/corpus that holds a MEMORY.md."""
    if not CORPUS.is_dir():
        return []
    return sorted(p.parent for p in CORPUS.rglob("MEMORY.md"))


def fixture_stores() -> list[Path]:
    """Every synthetic store: fixtures/<dialect>/<case>/store."""
    return sorted(FIXTURES.glob("*/*/store"))


def store_id(p: Path) -> str:
    for base in (CORPUS, FIXTURES):
        try:
            return str(p.relative_to(base))
        except ValueError:
            pass
    return p.name


@dataclass(frozen=True)
class LINK:
    """In a ``make_store`` file table: a symlink to ``target`` (relative to
    the link, or absolute)."""

    target: str


def make_store(root: Path, files: dict) -> Path:
    """Write ``files`` (POSIX relative path -> text, bytes or :class:`LINK`)
    under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        full = root.joinpath(*rel.split("/"))
        full.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, LINK):
            os.symlink(content.target, full)
        else:
            full.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return root


def indexed_notes(root: Path, n: int, note, hook: str = "h") -> Path:
    """A store at ``root`` of ``n`` notes ``n0.md`` ... whose texts are
    ``note(i)``, each with a pointer line ``- [Ni](ni.md) — <hook>`` in
    ``MEMORY.md`` (for tests that time or count work against the size)."""
    files = {"MEMORY.md": "".join(f"- [N{i}](n{i}.md) — {hook}\n" for i in range(n))}
    files.update({f"n{i}.md": note(i) for i in range(n)})
    return make_store(root, files)


def after_cli(argv: list[str], probe: str):
    """Run ``mmlint argv`` in a fresh interpreter (its output discarded),
    then the Python source ``probe`` there, which sets ``result`` to
    something JSON can hold; returns that value."""
    import json
    import subprocess
    import sys

    code = ("import io, sys, mmlint.cli as c\n"
            "sys.stdout = io.StringIO()\n"
            "try:\n    c.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            + probe + "\nimport json\nsys.stderr.write('\\nRESULT ' + json.dumps(result))")  # json: not before the probe
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    return json.loads(proc.stderr.rsplit("RESULT ", 1)[-1])


def modules_after(argv: list[str]) -> set[str]:
    """Top-level modules imported by running ``mmlint argv`` in a fresh
    interpreter: what a command costs at start-up."""
    return set(after_cli(argv, "result = sorted({m.split('.')[0] for m in sys.modules})"))


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (POSIX relative path -> bytes)."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            full = Path(dirpath) / name
            out[full.relative_to(root).as_posix()] = full.read_bytes()
    return out


@pytest.fixture
def store(tmp_path):
    """``store(files)`` -> a store folder built under tmp_path."""
    counter = {"n": 0}

    def build(files: dict[str, str | bytes]) -> Path:
        counter["n"] += 1
        return make_store(tmp_path / f"store{counter['n']}", files)

    return build


@pytest.fixture(autouse=True, scope="session")
def _private_result_cache(tmp_path_factory):
    """Every check the tests run (in process or as a child) keeps its result
    cache in a temporary folder, never in the user's cache home."""
    old = os.environ.get("MMLINT_CACHE_DIR")
    os.environ["MMLINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("mmlint-cache"))
    yield
    if old is None:
        os.environ.pop("MMLINT_CACHE_DIR", None)
    else:
        os.environ["MMLINT_CACHE_DIR"] = old


def stock_markdown():
    """markdown-it-py's CommonMark parser as shipped, with link normalisation
    and validation off (what mmlint's reader must agree with, token for
    token, in the fast-path tests)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.normalizeLink = lambda url: url
    md.normalizeLinkText = lambda url: url
    md.validateLink = lambda url: True
    return md
