"""``mmlint stores``: every Claude Code store under ``~/.claude/projects/``,
which project it belongs to, and which stores are stranded.

Claude Code keeps one store per project at
``<home>/.claude/projects/<encoded project path>/memory/``. The folder name
decodes back to a path only by guessing (:mod:`mmlint.projects`: the
encoding is lossy), so each store lists the existing paths its name matches
(verified on disk, ``candidates``) or, when none exists, the naive guess.

Flags:

* ``project-gone``: no existing path matches the folder name (the project
  or worktree was deleted, moved or renamed); its memories load nowhere.
* ``ambiguous-project``: several existing paths match.
* ``same-repository``: two or more stores belong to checkouts of the same
  git repository (its main checkout and its worktrees), so the memories are
  split between them.

Each flag carries the ``mmlint merge`` command that would bring the stores
together: worktree stores into the store of the main checkout (or of the
first of them), a gone project's store into the live store whose project
path its name extends (a worktree folder inside the project, say), else into
the store of the project's new location, which mmlint cannot know.

Shape (``mmlint.stores/1``)::

    {"format": "mmlint.stores/1", "tool": {...}, "projects": "<home>/.claude/projects",
     "stores": [{"name", "store", "project": path | null, "candidates": [path],
                 "guess": path, "exists": bool, "repository": path | null,
                 "notes": int, "index": {"lines", "bytes", "loadLines", "loadBytes",
                 "loadUsedPct"} | null, "lastChange": "YYYY-MM-DDTHH:MM:SSZ" | null,
                 "flags": [{"flag", "message", "command": str | null}]}]}

``loadUsedPct`` is the larger of lines / ``loadLines`` and bytes /
``loadBytes`` in percent (rounded, not clamped: over 100 means pointers fall
outside the load window).
"""

from __future__ import annotations

import datetime as _dt
import os
import shlex
from typing import Any

from mmlint import __version__, projects

FORMAT = "mmlint.stores/1"
LOAD_LINES, LOAD_BYTES = 200, 25_000
MAX_STORES = 10_000


def _index_use(path: str) -> dict[str, Any] | None:
    from mmlint.textutil import count_lines
    from mmlint.walk import read_bounded

    data, _, _ = read_bounded(path, 2 * 1024 * 1024)
    if data is None:
        return None
    lines = count_lines(data.decode("utf-8", "surrogateescape"))
    pct = max(lines * 100 / LOAD_LINES, len(data) * 100 / LOAD_BYTES)
    return {"lines": lines, "bytes": len(data), "loadLines": LOAD_LINES, "loadBytes": LOAD_BYTES, "loadUsedPct": int(pct + 0.5)}


def _scan(folder: str) -> tuple[int, float | None]:
    """``(notes, latest mtime)`` of a store folder, without following symlinks."""
    notes, latest = 0, None
    for dirpath, dirnames, files in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in files:
            try:
                st = os.lstat(os.path.join(dirpath, f))
            except OSError:
                continue
            latest = st.st_mtime if latest is None else max(latest, st.st_mtime)
            if f.endswith(".md") and f != "MEMORY.md":
                notes += 1
    return notes, latest


def store_entry(base: str, name: str) -> dict[str, Any]:
    """One store's record (see the module docs), flags not yet added."""
    store = os.path.join(base, name, "memory")
    proj = projects.project(name)
    notes, latest = _scan(store)
    index = os.path.join(store, "MEMORY.md")
    when = (_dt.datetime.fromtimestamp(latest, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if latest is not None else None)
    return {"name": name, "store": store, "project": proj.path, "candidates": proj.candidates, "guess": proj.guess,
            "exists": bool(proj.candidates), "repository": proj.repository, "notes": notes,
            "index": _index_use(index) if os.path.isfile(index) else None, "lastChange": when, "flags": []}


#: Stands for a destination mmlint cannot know in a suggested command.
NEW_STORE = "NEW_STORE"


def merge_command(sources: list[str], dest: str) -> str:
    """The shell command merging ``sources`` into the store ``dest``
    (:data:`NEW_STORE` is left unquoted, for the user to replace)."""
    return " ".join(["mmlint", "merge", *map(shlex.quote, sources), dest if dest == NEW_STORE else shlex.quote(dest)])


def _flag(entries: list[dict[str, Any]]) -> None:
    by_repo: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        if e["repository"]:
            by_repo.setdefault(e["repository"], []).append(e)
        if len(e["candidates"]) > 1:
            e["flags"].append({"flag": "ambiguous-project", "command": None,
                               "message": f"the folder name matches {len(e['candidates'])} existing paths; the encoding is lossy"})
    for repo, group in by_repo.items():
        if len(group) < 2:
            continue
        main_checkout = os.path.dirname(repo) if os.path.basename(repo) == ".git" else None
        main = next((e for e in group if e["project"] == main_checkout), group[0])
        others = [e for e in group if e is not main]
        cmd = merge_command([e["store"] for e in others], main["store"])
        for e in group:
            e["flags"].append({"flag": "same-repository", "command": cmd,
                               "message": f"{len(group)} stores belong to checkouts of the repository {repo}"})
    live = sorted((e for e in entries if e["project"]), key=lambda e: -len(e["name"]))
    for e in entries:
        if e["exists"]:
            continue
        coarse = projects.encode(e["name"])
        parent = next((x for x in live if coarse.startswith(projects.encode(x["name"]) + "-")), None)
        if parent is not None:
            e["flags"].append({"flag": "project-gone", "command": merge_command([e["store"]], parent["store"]),
                               "message": f"no folder matches {e['guess']}; it lay inside {parent['project']}, whose store can take its notes"})
        else:
            e["flags"].append({"flag": "project-gone", "command": merge_command([e["store"]], NEW_STORE),
                               "message": f"no folder matches {e['guess']} (moved, renamed or deleted); its memories load "
                                          f"nowhere; merge them into the store of the project's new location (NEW_STORE)"})


def document(home: str | None = None) -> dict[str, Any]:
    """The ``mmlint.stores/1`` document for ``home`` (default: the user's).

    A missing ``<home>/.claude/projects`` gives an empty list. Never raises
    for file-system errors; at most :data:`MAX_STORES` stores are listed.
    """
    base = projects.claude_projects_dir(home)
    try:
        names = sorted(n for n in os.listdir(base) if os.path.isdir(os.path.join(base, n, "memory"))
                       and not os.path.islink(os.path.join(base, n, "memory")))[:MAX_STORES]
    except OSError:
        names = []
    entries = [store_entry(base, n) for n in names]
    _flag(entries)
    return {"format": FORMAT, "tool": {"name": "mmlint", "version": __version__}, "projects": base, "stores": entries}
