"""Errors shared by the library and the command line.

Kept apart from :mod:`mmlint.api` so that modules the API uses
(:mod:`mmlint.config`, :mod:`mmlint.baseline`) can raise them without
importing the API back.
"""

from __future__ import annotations


class CheckError(Exception):
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
