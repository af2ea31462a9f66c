"""What a check returns: :class:`StoreResult` per store, :class:`CheckResult`
per run, and :func:`display_path` (:func:`display_paths`) to show a
diagnostic's path.

Plain classes in a module that imports nothing heavy (no :mod:`dataclasses`,
no model, no rules), so that a check answered by the result cache
(:mod:`mmlint.cache`) can build and report its result cheaply.
:mod:`mmlint.api` re-exports all three.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any


class StoreResult:
    """One checked store.

    Attributes:
        found: where the store is and how it was found (:class:`mmlint.discover.Found`).
        dialect, profile: what it was read as.
        evidence: detection evidence (:class:`mmlint.dialects.Evidence`;
            ``None`` when forced by options, or when the result came from the
            cache without the dialects being loaded).
        store: the model read (:class:`mmlint.model.Store`); for a cached
            result a summary (see :func:`mmlint.api.check`).
        diagnostics: sorted, with store-relative paths.
        options: the :class:`mmlint.options.Options` the store was checked with
            (its configuration with the command line on top; ``None`` for a
            result the cache answered before any configuration was read).
        config: the configuration file that applied, or ``None``.
        warnings: sentences for the user about how the store was read (a
            forced dialect the store does not look like); the CLI prints
            them on stderr.
        cached: the diagnostics came from the result cache (:func:`mmlint.api.check`).
    """

    def __init__(self, found: Any, dialect: str, profile: str | None, evidence: Any, store: Any,
                 diagnostics: list | None = None, options: Any = None, config: str | None = None,
                 warnings: list[str] | None = None, cached: bool = False):
        self.found = found
        self.dialect = dialect
        self.profile = profile
        self.evidence = evidence
        self.store = store
        self.diagnostics: list = diagnostics if diagnostics is not None else []
        self.options = options
        self.config = config
        self.warnings: list[str] = warnings if warnings is not None else []
        self.cached = cached

    @property
    def files(self) -> int:
        """Every file of the store (notes, index, auxiliary files, and files
        that could not be read)."""
        return len(self.store.files)

    def __repr__(self) -> str:
        return (f"StoreResult(found={self.found!r}, dialect={self.dialect!r}, profile={self.profile!r}, "
                f"diagnostics={len(self.diagnostics)}, cached={self.cached!r})")


class CheckResult:
    """All stores of one ``check`` run.

    ``unsafe_fixes`` tells reporters whether unsafe fixes count as
    applicable (``--unsafe-fixes``); ``fixed`` is how many findings
    ``--fix`` resolved before the stores were checked again. ``failures``
    lists ``(path, message)`` for each PATH that could not be checked
    (``check(..., keep_going=True)``); the message names the path and is
    escaped for a terminal (:meth:`mmlint.errors.CheckError.shown`).
    """

    def __init__(self, stores: list[StoreResult], unsafe_fixes: bool = False, fixed: int = 0,
                 failures: list[tuple[str, str]] | None = None):
        self.stores = stores
        self.unsafe_fixes = unsafe_fixes
        self.fixed = fixed
        self.failures: list[tuple[str, str]] = failures if failures is not None else []

    def counts(self) -> dict[str, int]:
        """``{"files", "errors", "warnings", "infos"}``."""
        out = {"files": 0, "errors": 0, "warnings": 0, "infos": 0}
        for s in self.stores:
            out["files"] += s.files
            for d in s.diagnostics:
                out[{"error": "errors", "warning": "warnings", "info": "infos"}[d.severity]] += 1
        return out

    def __repr__(self) -> str:
        return f"CheckResult(stores={self.stores!r}, fixed={self.fixed!r}, failures={self.failures!r})"


def display_path(root: str, span: Any, cwd: str | None = None) -> str:
    """A diagnostic's path (``span.path`` below ``root``) relative to
    ``cwd``, with ``/`` separators."""
    cwd = cwd or os.getcwd()
    full = os.path.join(root, span.path)
    try:
        rel = os.path.relpath(full, cwd)
    except ValueError:  # another drive on Windows
        rel = full
    return rel.replace(os.sep, "/")


def display_paths(root: str, cwd: str | None = None) -> Any:
    """A function ``path -> display_path(root, Span(path), cwd)`` for the
    store-relative paths of one store: on POSIX, a plain path (one that
    ``posixpath.normpath`` leaves as it is: no empty, ``.`` or ``..`` part,
    not absolute) is joined to the store's display root as text, one string
    concatenation instead of a ``relpath`` (20,000 files: ~0.1 s); other
    paths, Windows, and a ``cwd`` inside the store (where ``relpath`` may
    cancel the path's first parts; told from the root's own ``relpath``,
    which also reads ``//x`` as ``/x``) take :func:`display_path` itself."""
    cwd = cwd or os.getcwd()
    if os.sep != "/" or os.altsep is not None:
        return lambda path: display_path(root, _At(path), cwd)
    prefix = os.path.relpath(os.path.abspath(root), cwd)  # abspath: a root of "" is the current folder
    if prefix != "." and all(part == ".." for part in prefix.split("/")):  # cwd inside the store
        return lambda path: display_path(root, _At(path), cwd)
    lead = "" if prefix == "." else prefix + "/"

    def show(path: str) -> str:
        if (path and "//" not in path and "/./" not in path and "/../" not in path and path not in (".", "..")
                and not path.startswith(("/", "./", "../")) and not path.endswith(("/", "/.", "/.."))):
            return lead + path
        return display_path(root, _At(path), cwd)

    return show


class _At:
    """A stand-in for a span, holding only ``path`` (what
    :func:`display_path` reads)."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path
