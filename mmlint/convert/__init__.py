"""Migrating a store between dialects without loss.

``Store -> check DST -> writer(target) -> budget check -> read the rendered
files back in memory and compare -> (not in a dry run) temp tree, sync,
one rename into place -> read DST back byte for byte``.

A conversion either writes everything or nothing (DESIGN "The loss policy"):

* a value the target cannot hold (:class:`~mmlint.dialects.Unrepresentable`)
  is a refusal naming the note and the field;
* a budget overflow in the target is a refusal carrying the mm spec's usage
  metrics, reported in the spec's priority order (write budget, detail file
  cap, index caps);
* the rendered files are read back with the target's own reader (in
  memory, before anything is written) and compared with the source model;
  any field that changed or vanished is a loss. ``--allow-loss FIELD`` accepts the loss of
  that field (listing every dropped value); fields the target fills in (e.g.
  an engramory ``name`` taken from the slug) are listed, not refused.

Converting a store to its own dialect reproduces it byte for byte.

The package, one reason to change per module:

* :mod:`mmlint.convert.plan` — the :class:`Plan` data the CLI prints;
* :mod:`mmlint.convert.policy` — plan, value comparison, loss (no I/O);
* :mod:`mmlint.convert.dest` — what DST may be (``--force`` safety);
* :mod:`mmlint.convert.transaction` — temp tree, sync, exchange, sweep, backup;
* :mod:`mmlint.convert.pipeline` — :func:`plan_conversion`, the steps in order;
* :mod:`mmlint.convert.roundtrip` — A->B->A (:func:`round_trip`);
* the budget metrics and :class:`~mmlint.usage.Refusal` live in
  :mod:`mmlint.usage`, beside the model, because dialects report them: no
  dialect imports ``convert``.
"""

from __future__ import annotations

from mmlint.convert.pipeline import plan_conversion
from mmlint.convert.plan import Plan, PlannedFile
from mmlint.convert.roundtrip import RoundTrip, round_trip
from mmlint.convert.transaction import CannotConvert, sweep_leftovers, write_tree
from mmlint.usage import Refusal

__all__ = ["CannotConvert", "Plan", "PlannedFile", "Refusal", "RoundTrip", "plan_conversion", "round_trip", "sweep_leftovers",
           "write_tree"]


# ``mmlint.convert(src, dst, to=...)`` is the public function (mmlint.public.convert).
from mmlint._callable import make_callable  # noqa: E402

make_callable(__name__, "mmlint.public.convert")
