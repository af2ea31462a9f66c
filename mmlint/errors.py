"""Errors shared by the library and the command line.

Kept apart from :mod:`mmlint.api` so that modules the API uses
(:mod:`mmlint.config`, :mod:`mmlint.baseline`) can raise them without
importing the API back.
"""

from __future__ import annotations


class CheckError(Exception):
    """A usage error or a store that cannot be checked (exit status 2).

    The message is meant for the user, as it is: the CLI prints it after
    ``mmlint: `` and exits 2.
    """
