""":class:`Options`, the check options: configuration files
(:mod:`mmlint.config`) with the command line layered on top.

Kept apart from the rule engine (:mod:`mmlint.rules`, which re-exports it)
and free of :mod:`dataclasses`, so that the command line can build its
options without importing the rules.
"""

from __future__ import annotations


TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterable


class Options:
    """Check options.

    Attributes:
        select: rule codes, names or code prefixes to run (empty: all that apply).
        ignore: rule codes, names or code prefixes to skip.
        severity: code or name -> severity override.
        caps: cap overrides, e.g. ``{"index_lines": 150}``.
        per_path_ignores: :class:`mmlint.config.PathIgnore` objects: rules
            to skip in the files a glob matches.
        hygiene: settings of the hygiene rules (``[tool.mmlint.hygiene]``,
            :data:`mmlint.rules.hygiene.DEFAULTS`); absent keys take the default.
        jobs: processes the rules may run on (``--jobs``, ``jobs``): 1
            serial, and so is ``None`` (the default); 0 automatic
            (:func:`mmlint.parallel.jobs_for`).
            It changes how fast, never what is found: the result cache
            ignores it.

    Every argument is optional (empty by default); two options are equal
    when every attribute is.
    """

    __slots__ = ("select", "ignore", "severity", "caps", "per_path_ignores", "hygiene", "jobs")
    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __init__(self, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
                 severity: dict[str, str] | None = None, caps: dict[str, int] | None = None,
                 per_path_ignores: list[Any] | None = None, hygiene: dict[str, Any] | None = None,
                 jobs: int | None = None):
        self.select: set[str] = set(select) if select is not None else set()
        self.ignore: set[str] = set(ignore) if ignore is not None else set()
        self.severity: dict[str, str] = severity if severity is not None else {}
        self.caps: dict[str, int] = caps if caps is not None else {}
        self.per_path_ignores: list[Any] = per_path_ignores if per_path_ignores is not None else []
        self.hygiene: dict[str, Any] = hygiene if hygiene is not None else {}
        self.jobs: int | None = jobs

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, a) == getattr(other, a) for a in self.__slots__)

    def __repr__(self) -> str:
        return "Options(" + ", ".join(f"{a}={getattr(self, a)!r}" for a in self.__slots__) + ")"
