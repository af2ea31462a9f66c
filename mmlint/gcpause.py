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
from contextlib import contextmanager

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off; afterwards it is
    enabled again if it was enabled before (nesting is safe). Raises
    nothing of its own."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
