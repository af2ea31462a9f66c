"""Finding the store a command works on.

With an explicit path, that folder is the store (a path to a ``MEMORY.md``
means its folder). Without one, mmlint looks where the memory tools
themselves look, in this order, and says which one it took:

1. the current folder, if it holds ``MEMORY.md``;
2. ``./memory/`` (a workspace store, ``specs/workspace-memory.md``);
3. ``./.claude/memory/`` (a project-local Claude Code memory folder);
4. the current project's Claude Code memory folder,
   ``~/.claude/projects/<absolute project path, separators replaced by '-'>/memory/``;
5. the mm root as mm spec §2 resolves it: ``$DSH_MEMORY_ROOT``, else
   ``$DSH_HOME/memory`` with ``$DSH_HOME`` defaulting to ``~/.dsh``; ``~`` and
   ``$VAR`` / ``${VAR}`` are expanded (research/mm-reference.md §3.3).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass


class NoStore(Exception):
    """No store was found; ``looked`` lists ``(place, path)`` pairs tried."""

    def __init__(self, looked: list[tuple[str, str]]):
        super().__init__("no memory store found")
        self.looked = looked


@dataclass(frozen=True)
class Found:
    """A store location: ``path`` (absolute) and ``how`` it was found."""

    path: str
    how: str


_ENV_RE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


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
    candidates = [("the current folder holds MEMORY.md", cwd, True),
                  ("a workspace store at ./memory/", os.path.join(cwd, "memory"), False),
                  ("a project Claude Code folder at ./.claude/memory/", os.path.join(cwd, ".claude", "memory"), False)]
    for d in claude_project_dirs(cwd, home):
        candidates.append(("this project's Claude Code memory folder", d, False))
    candidates.append(("the mm root ($DSH_MEMORY_ROOT, else $DSH_HOME/memory, else ~/.dsh/memory)", mm_root(env, home), False))
    looked = []
    for how, path, need_index in candidates:
        looked.append((how, path))
        ok = os.path.isfile(os.path.join(path, "MEMORY.md")) if need_index else _is_store(path)
        if ok:
            return Found(path, how)
    raise NoStore(looked)


def resolve_path(path: str) -> Found:
    """An explicit path: a folder, or a ``MEMORY.md`` file meaning its folder.

    Raises:
        NoStore: the path does not exist or is a file other than an index.
    """
    full = os.path.abspath(path)
    if os.path.isdir(full):
        return Found(full, "given on the command line")
    if os.path.isfile(full) and os.path.basename(full) == "MEMORY.md":
        return Found(os.path.dirname(full), "the folder of the given MEMORY.md")
    raise NoStore([("the given path", full)])
