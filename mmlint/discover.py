"""Finding the store a command works on.

With an explicit path, that folder is the store (a path to a ``MEMORY.md``
means its folder). Without one, mmlint looks where the memory tools
themselves look, in this order, and says which one it took:

1. the current folder, if it holds ``MEMORY.md``;
2. ``./memory/`` (a workspace store, ``specs/workspace-memory.md``);
3. ``./.claude/memory/`` (a project-local Claude Code memory folder);

   and 1-3 again in each parent folder up to the repository root (the
   nearest folder above holding ``.git``, as ruff and markdownlint-cli2
   look for their configuration); outside a repository only the current
   folder is looked in, so a store in a stranger's parent folder is never
   picked up;
4. the current project's Claude Code memory folder (for the current folder,
   then for the repository root),
   ``~/.claude/projects/<absolute project path, separators replaced by '-'>/memory/``;
5. the mm root as mm spec §2 resolves it: ``$DSH_MEMORY_ROOT``, else
   ``$DSH_HOME/memory`` with ``$DSH_HOME`` defaulting to ``~/.dsh``; ``~`` and
   ``$VAR`` / ``${VAR}`` are expanded (research/mm-reference.md §3.3).
"""

from __future__ import annotations

import os
import re
from collections import namedtuple

from mmlint.textutil import lazy_re


class NoStore(Exception):
    """No store was found; ``looked`` lists ``(place, path)`` pairs tried."""

    def __init__(self, looked: list[tuple[str, str]]):
        super().__init__("no memory store found")
        self.looked = looked


class Found(namedtuple("Found", ("path", "how"))):
    """A store location: ``path`` (absolute, str) and ``how`` it was found
    (str); an immutable :func:`collections.namedtuple`."""

    __slots__ = ()


_ENV_RE = lazy_re(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def expand_env(raw: str, env: dict[str, str] | None = None) -> str:
    """``$VAR`` / ``${VAR}`` expansion as the mm reference does it (unset -> "")."""
    env = os.environ if env is None else env
    return _ENV_RE.sub(lambda m: env.get(m.group(1), ""), raw)


def expand_home(raw: str, home: str | None = None) -> str:
    """``~``, ``~/x`` and ``~\\x`` -> the home folder; ``~user`` is left alone."""
    home = home or os.path.expanduser("~")
    if raw == "~":
        return home
    if raw.startswith("~/") or raw.startswith("~\\"):
        return os.path.join(home, raw[2:])
    return raw


def mm_root(env: dict[str, str] | None = None, home: str | None = None) -> str:
    """The mm memory root (mm spec §2; expansion applies to every step)."""
    env = os.environ if env is None else env
    explicit = env.get("DSH_MEMORY_ROOT", "").strip()
    if explicit:
        raw = explicit
    else:
        dsh_home = env.get("DSH_HOME", "").strip()
        raw = os.path.join(dsh_home if dsh_home else os.path.join(home or os.path.expanduser("~"), ".dsh"), "memory")
    return os.path.abspath(expand_home(expand_env(raw, env), home))


def claude_project_dirs(cwd: str, home: str | None = None) -> list[str]:
    """Candidate Claude Code memory folders for the project at ``cwd``.

    Claude Code names a project folder after its absolute path with the path
    separators replaced by ``-``; some versions replace every character that
    is not a letter or digit. Both spellings are tried.
    """
    home = home or os.path.expanduser("~")
    base = os.path.join(home, ".claude", "projects")
    seps = re.sub(r"[\\/:]", "-", cwd)
    alnum = re.sub(r"[^A-Za-z0-9]", "-", cwd)
    out = [os.path.join(base, seps, "memory")]
    if alnum != seps:
        out.append(os.path.join(base, alnum, "memory"))
    return out


def _is_store(path: str) -> bool:
    if os.path.isfile(os.path.join(path, "MEMORY.md")):
        return True
    try:
        return os.path.isdir(path) and any(n.endswith(".md") for n in os.listdir(path))
    except OSError:
        return False


def find_store(cwd: str | None = None, env: dict[str, str] | None = None, home: str | None = None) -> Found:
    """The store to use when no path is given (see the module docs).

    Raises:
        NoStore: nothing found; the exception lists every place tried.
    """
    cwd = os.path.abspath(cwd or os.getcwd())
    folders = walk_up(cwd)
    candidates = []
    for k, folder in enumerate(folders):
        up = "" if k == 0 else f" of the parent folder {folder}"
        candidates += [("a MEMORY.md in the current folder" if k == 0 else f"a MEMORY.md in the parent folder {folder}",
                        folder, True),
                       (f"a workspace store at ./memory/{up}", os.path.join(folder, "memory"), False),
                       (f"a project Claude Code folder at ./.claude/memory/{up}", os.path.join(folder, ".claude", "memory"), False)]
    for folder in dict.fromkeys((cwd, folders[-1])):
        for d in claude_project_dirs(folder, home):
            candidates.append(("this project's Claude Code memory folder", d, False))
    candidates.append(("the mm root ($DSH_MEMORY_ROOT, else $DSH_HOME/memory, else ~/.dsh/memory)", mm_root(env, home), False))
    looked = []
    for how, path, need_index in candidates:
        looked.append((how, path))
        ok = os.path.isfile(os.path.join(path, "MEMORY.md")) if need_index else _is_store(path)
        if ok:
            return Found(path, how)
    raise NoStore(looked)


def repo_root(start: str) -> str | None:
    """The nearest folder at or above ``start`` that holds ``.git`` (a folder,
    or a file in a worktree or submodule), or ``None``."""
    folder = os.path.abspath(start)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def walk_up(cwd: str) -> list[str]:
    """``cwd`` and its parents up to the repository root (:func:`repo_root`),
    nearest first; ``[cwd]`` outside a repository."""
    top = repo_root(cwd)
    out = [cwd]
    if top is None:
        return out
    while out[-1] != top:
        parent = os.path.dirname(out[-1])
        if parent == out[-1]:
            break
        out.append(parent)
    return out


def resolve_path(path: str) -> Found:
    """An explicit path: a folder, or a ``MEMORY.md`` file meaning its folder.

    Raises:
        NoStore: the path does not exist or is a file other than an index
            (``looked`` is ``[("no such file or folder" | "a file, not a
            store folder", path)]``).
    """
    full = os.path.abspath(path)
    if os.path.isdir(full):
        return Found(full, "given on the command line")
    if os.path.isfile(full) and os.path.basename(full) == "MEMORY.md":
        return Found(os.path.dirname(full), "the folder of the given MEMORY.md")
    raise NoStore([("a file, not a store folder" if os.path.lexists(full) else "no such file or folder", full)])
