"""Pausing Python's cyclic garbage collector around bulk work.

Reading, linting and converting a store build hundreds of thousands of small
objects (notes, spans, frontmatter items) that live until the command ends
and hold no cycles worth collecting; reference counting frees the rest. The
cyclic collector would walk every live object again and again and free
nothing: about a quarter of a 20,000-note check and a third of a 20,000-note
conversion on the benchmark (issue 9, ``scripts/bench.py``).
"""

from __future__ import annotations

import gc


class gc_paused:  # noqa: N801 - used as a function: ``with gc_paused():``
    """``with gc_paused():`` runs the block with the cyclic garbage collector
    off; afterwards it is enabled again if it was enabled before (nesting is
    safe). Raises nothing of its own; an exception of the block goes on. A
    class rather than a :func:`contextlib.contextmanager`: a check run from
    the console script imports no :mod:`contextlib`."""

    __slots__ = ("_was",)

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was:
            gc.enable()
