"""Which project a store belongs to: Claude Code project folders decoded back
into paths, the project root of any store, and the git repository a project
is a checkout (or a worktree) of.

Claude Code keeps a project's memory in
``~/.claude/projects/<encoded project path>/memory/`` where the encoded name
is the absolute path with every path separator (some versions: every
character that is not an ASCII letter or digit) replaced by ``-``
(research/claude-code-notes.md, :func:`mmlint.discover.claude_project_dirs`).
The encoding is **lossy**: ``-`` may stand for ``/``, ``-``, ``.``, ``_``, a
space or any other character, so a folder name can decode to several paths or
to none that exists. :func:`decode_project` therefore only returns paths it
verified on the file system (walking down from ``/`` and matching each
folder's encoded name), and :func:`naive_decode` is the unverified guess
shown when nothing matches.
"""

from __future__ import annotations

import os
import re

from mmlint._record import Record
from mmlint.discover import repo_root
from mmlint.textutil import lazy_re

#: Most verified candidates :func:`decode_project` returns, and folders it lists.
MAX_CANDIDATES = 8
MAX_LISTED = 2000
_NON_ALNUM = lazy_re(r"[^A-Za-z0-9]")


def encode(path: str) -> str:
    """The coarse form of a project path every Claude Code version's folder
    name reduces to: every character but ASCII letters and digits as ``-``."""
    return _NON_ALNUM.sub("-", path)


def naive_decode(name: str) -> str:
    """The unverified guess for a folder name: ``--`` read as ``/.`` (a
    hidden folder such as ``.claude``), every other ``-`` as ``/``."""
    return "/" + name.lstrip("-").replace("--", "\0").replace("-", "/").replace("\0", "/.")


def decode_project(name: str, root: str = "/") -> list[str]:
    """Existing absolute paths whose encoded form is the folder ``name``
    (sorted, at most :data:`MAX_CANDIDATES`). ``[]`` when none exists: the
    project was moved or deleted (or lived on another machine).

    Walks from ``root`` (``/``) one folder at a time, following only children
    whose encoded name continues the encoded rest of ``name``; at most
    :data:`MAX_LISTED` folders are listed, so a hostile name cannot make it
    scan the disk. Never raises for file-system errors.
    """
    want = encode(name)
    if not want.startswith("-"):
        return []
    out: list[str] = []
    listed = 0
    stack = [(root, want[1:])]
    while stack and len(out) < MAX_CANDIDATES and listed < MAX_LISTED:
        folder, rest = stack.pop()
        if not rest:
            out.append(folder)
            continue
        try:
            children = sorted(os.listdir(folder), reverse=True)
        except OSError:
            continue
        listed += 1
        for child in children:
            enc = encode(child)
            if rest == enc or rest.startswith(enc + "-"):
                full = os.path.join(folder, child)
                if os.path.isdir(full):
                    stack.append((full, rest[len(enc) + 1 :]))
    return sorted(out)


def claude_projects_dir(home: str | None = None) -> str:
    """``<home>/.claude/projects`` (``home`` defaults to the user's)."""
    return os.path.join(home or os.path.expanduser("~"), ".claude", "projects")


def claude_project_of(store_root: str) -> str | None:
    """The encoded project folder name when ``store_root`` is a Claude Code
    store (``.../.claude/projects/<name>/memory``), else ``None``."""
    parts = os.path.abspath(store_root).split(os.sep)
    if len(parts) >= 4 and parts[-1] == "memory" and parts[-3] == "projects" and parts[-4] == ".claude":
        return parts[-2]
    return None


def project_root(store_root: str) -> str | None:
    """The root of the project a store belongs to, against which the paths
    its notes cite are checked: for a Claude Code store under
    ``~/.claude/projects/`` the decoded project path when exactly one exists;
    otherwise the nearest git checkout holding the store. ``None`` when
    neither is known."""
    name = claude_project_of(store_root)
    if name is not None:
        found = decode_project(name)
        return found[0] if len(found) == 1 else None
    return repo_root(store_root)


def git_common_dir(checkout: str) -> str | None:
    """The repository a checkout belongs to: its ``.git`` folder, or for a
    worktree (a ``.git`` file ``gitdir: <repo>/.git/worktrees/<name>``) the
    main repository's ``.git`` folder. ``None`` for no checkout. Reads at most
    4 KiB of the ``.git`` file."""
    dotgit = os.path.join(checkout, ".git")
    if os.path.isdir(dotgit):
        return os.path.realpath(dotgit)
    try:
        with open(dotgit, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    m = re.match(r"gitdir:[ \t]*([^\r\n]+)", head)
    if m is None:
        return None
    gitdir = os.path.normpath(os.path.join(checkout, m.group(1).strip()))
    common = os.path.join(gitdir, "commondir")
    try:
        with open(common, "rb") as fh:
            rel = fh.read(4096).decode("utf-8", "replace").strip()
        return os.path.realpath(os.path.join(gitdir, rel))
    except OSError:
        pass
    parts = gitdir.split(os.sep)
    if len(parts) >= 2 and parts[-2] == "worktrees":
        return os.path.realpath(os.sep.join(parts[:-2]))
    return os.path.realpath(gitdir)


class Project(Record):
    """A decoded Claude Code project folder.

    Attributes:
        name: the encoded folder name.
        candidates: existing paths it decodes to (see :func:`decode_project`).
        guess: :func:`naive_decode` of the name (shown when nothing exists).
        repository: the git repository of the single candidate (see
            :func:`git_common_dir`), else ``None``.
    """

    _fields = ("name", "candidates", "guess", "repository")

    def __init__(self, name: str, candidates: list[str], guess: str, repository: str | None = None) -> None:
        self.name = name
        self.candidates = candidates
        self.guess = guess
        self.repository = repository

    @property
    def path(self) -> str | None:
        """The project path when exactly one existing path matches."""
        return self.candidates[0] if len(self.candidates) == 1 else None


def project(name: str) -> Project:
    """Decode a Claude Code project folder name (see :class:`Project`)."""
    cands = decode_project(name)
    p = Project(name, cands, naive_decode(name))
    if p.path is not None:
        top = repo_root(p.path)
        p.repository = git_common_dir(top) if top else None
    return p
