"""The exceptions mmlint raises: one hierarchy, rooted at :class:`MmlintError`.

::

    MmlintError                      anything mmlint raises on purpose
    ├── CheckError                   a usage error, or a store that cannot be read or checked
    │   └── mmlint.config.ConfigError   an unreadable or invalid configuration file
    └── Refused                      a conversion or a merge refused (nothing written);
                                     ``.plan`` holds the refusals and their metrics

The CLI turns :class:`CheckError` into exit status 2 and a refusal into exit
status 1. Kept apart from :mod:`mmlint.api` so that modules the API uses
(:mod:`mmlint.config`, :mod:`mmlint.baseline`) can raise them without
importing the API back. ``OSError`` from the file system is not wrapped.
"""

from __future__ import annotations


TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any


class MmlintError(Exception):
    """Base of every exception mmlint raises on purpose."""


class CheckError(MmlintError):
    """A usage error or a store that cannot be checked (exit status 2).

    The message is meant for the user: the CLI prints :meth:`shown` after
    ``mmlint: `` and exits 2.
    """

    def shown(self) -> str:
        """The message for a terminal: each line escaped with
        :func:`mmlint.textutil.printable` (a message may quote paths and
        names from a store), the line breaks between them kept."""
        from mmlint.textutil import printable

        return "\n".join(printable(line) for line in str(self).split("\n"))


class Refused(MmlintError):
    """A conversion or merge that was refused: nothing was written.

    Attributes:
        plan: the :class:`mmlint.convert.Plan` or
            :class:`mmlint.merging.stores.StoreMerge`; ``plan.refusals`` lists
            each :class:`mmlint.convert.Refusal` (code, path, message, usage
            metrics).
    """

    def __init__(self, plan: Any):
        first = plan.refusals[0] if plan.refusals else None
        field = f" [{first.field}]" if first is not None and getattr(first, "field", None) else ""
        what = f"{first.code} {first.path}{field}: {first.message}" if first is not None else "refused"
        more = f" (and {len(plan.refusals) - 1} more)" if len(plan.refusals) > 1 else ""
        super().__init__(what + more)
        self.plan = plan
