""""Did you mean" suggestions for names the user mistyped.

One helper for every place a name is looked up (rule codes and names,
dialects, profiles, command-line flags and choices, field names), built on
:class:`difflib.SequenceMatcher` (Ratcliff/Obershelp similarity, ratio
cutoff 0.6, as :func:`difflib.get_close_matches`; compared
case-insensitively; ties go to the candidate with more characters in the
same places). Only short names are compared, so
the cost is bounded by the candidate list.
"""

from __future__ import annotations

import difflib
from typing import Iterable

#: Lowest similarity ratio (0..1) a suggestion needs.
CUTOFF = 0.6
#: Longest typed name compared (code points); longer input gets no suggestion.
MAX_WORD = 64


def close(word: str, candidates: Iterable[str], n: int = 1) -> list[str]:
    """Up to ``n`` candidates most like ``word``, best first (``[]``: none
    is close enough). Case is ignored; candidates are returned as given."""
    if not word or len(word) > MAX_WORD:
        return []
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    key = word.lower()
    m = difflib.SequenceMatcher()
    m.set_seq2(key)
    scored = []
    for cand in by_lower:
        m.set_seq1(cand)
        if m.real_quick_ratio() >= CUTOFF and m.quick_ratio() >= CUTOFF and m.ratio() >= CUTOFF:
            # ties (P1O1 is as like P101 as P110) go to the most characters in the same place
            same_place = sum(a == b for a, b in zip(cand, key))
            scored.append((-m.ratio(), -same_place, cand))
    return [by_lower[c] for _, _, c in sorted(scored)[:n]]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``" (did you mean 'X'?)"`` for the closest candidate, or ``""``."""
    best = close(word, candidates)
    return f" (did you mean {best[0]!r}?)" if best else ""


def rule_names() -> list[str]:
    """Every rule code and name (what a rule selector may be)."""
    from mmlint import rules

    out = []
    for r in rules.load().values():
        out += [r.code, r.name]
    return out
