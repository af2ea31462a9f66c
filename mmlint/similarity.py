"""Deterministic text similarity for the hygiene rules: shingles, a MinHash
sketch (one-permutation hashing with densification) and LSH banding.

Everything here is a pure function of the text: the same store gives the
same pairs and the same numbers on every machine and run (no ``hash()``,
whose value changes with ``PYTHONHASHSEED``; shingles are hashed with CRC-32).

Shapes and units:

* :func:`tokens` splits text into words: runs of letters/digits for scripts
  that separate words with spaces, and one token per character for CJK
  ideographs and kana (which do not); text is NFKC-normalised and casefolded.
* :func:`shingles` is the set of 3 consecutive tokens, each shingle one
  32-bit hash mixed from its tokens' CRC-32s; a text shorter than 3 tokens
  gives one shingle of all its tokens.
* :func:`jaccard` is ``|A ∩ B| / |A ∪ B|`` (0.0 .. 1.0) of two shingle sets.
* :func:`near_duplicates` finds every pair whose exact Jaccard similarity is
  at least the threshold, among the candidates LSH proposes. With
  :data:`BANDS` bands of :data:`ROWS` rows a pair of similarity ``s`` is a
  candidate with probability ``1 - (1 - s**ROWS)**BANDS``: 0.87 at 0.5,
  0.9999 at 0.7. Candidates are verified exactly, so a reported pair is
  never a false positive; the work is linear in the total text plus the
  candidates (a bucket of more than :data:`MAX_BUCKET` notes is compared
  along its sorted order only, so identical boilerplate cannot make it
  quadratic).
"""

from __future__ import annotations

import re
from array import array
import unicodedata
import zlib
from typing import Iterable, Sequence

#: Shingle width in tokens.
K = 3
#: Bins of the one-permutation sketch (BANDS * ROWS).
BINS = 128
BANDS = 32
ROWS = 4
#: Largest LSH bucket compared pair by pair.
MAX_BUCKET = 64

_CJK = "\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Linear: two alternatives of single character classes, no nesting.
_TOKEN_RE = re.compile(f"[{_CJK}]|[^\\W_{_CJK}]+")
_MASK = 0xFFFFFFFF


def tokens(text: str) -> list[str]:
    """Words of ``text`` (see the module docs); ``[]`` for text without any."""
    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def shingles(text: str) -> set[int]:
    """The set of hashed 3-token shingles of ``text`` (empty for no tokens):
    each token is hashed once (CRC-32 of its UTF-8), a shingle's hash mixes
    its three token hashes with odd multipliers (32 bits)."""
    toks = tokens(text)
    if not toks:
        return set()
    th = [zlib.crc32(t.encode("utf-8", "surrogatepass")) for t in toks]
    if len(th) < K:
        th += [0] * (K - len(th))
    return {(a * 0x01000193 ^ b * 0x9E3779B1 ^ c) & _MASK for a, b, c in zip(th, th[1:], th[2:])}


_NONWORD_RE = re.compile(r"[\W_]+")


def char_grams(text: str, n: int = 3) -> set[str]:
    """Character ``n``-grams of ``text`` after NFKC, casefolding and turning
    every run of non-word characters into one space (any script, no word
    splitting needed); a shorter text gives itself as its only gram."""
    t = _NONWORD_RE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    if not t:
        return set()
    if len(t) <= n:
        return {t}
    return {t[i : i + n] for i in range(len(t) - n + 1)}


def jaccard(a: set[int], b: set[int]) -> float:
    """Jaccard similarity of two shingle sets; 0.0 when both are empty."""
    if not a or not b:
        return 0.0
    inter = len(a & b) if len(a) < len(b) else len(b & a)
    return inter / (len(a) + len(b) - inter)


def containment(part: set, whole: set) -> float:
    """The share of ``part``'s shingles that are in ``whole`` (0.0 .. 1.0)."""
    return len(part & whole) / len(part) if part else 0.0


def sketch(sh: set[int]) -> list[int]:
    """One-permutation MinHash of a shingle set: :data:`BINS` minima, empty
    bins filled from the next non-empty bin to the right (circularly) plus a
    per-distance offset, so two sets share a bin value exactly when their
    minima agree."""
    mins = [_MASK + 1] * BINS
    for h in sh:
        h = (h * 0x9E3779B1) & _MASK  # spread CRC bits before binning
        b = h % BINS
        v = h // BINS
        if v < mins[b]:
            mins[b] = v
    empty = _MASK + 1
    if empty not in mins:
        return mins
    if min(mins) == empty:
        return mins
    # one pass right to left (twice round, for the wrap): the next filled bin and its distance
    out = list(mins)
    nxt, dist = None, 0
    for i in range(2 * BINS - 1, -1, -1):
        k = i % BINS
        if mins[k] != empty:
            nxt, dist = mins[k], 0
        else:
            dist += 1
            if nxt is not None and i < BINS:
                out[k] = nxt + dist * empty
    return out


def near_duplicates(items: Sequence[tuple[str, set[int]]], threshold: float) -> list[tuple[str, str, float]]:
    """Every pair ``(a, b, similarity)`` (``a < b`` by key, sorted) whose
    shingle sets have an exact Jaccard similarity of at least ``threshold``.

    ``items`` are ``(key, shingle set)``; empty sets never pair.

    Memory: one 64-bit key per band and item (``hash`` of the band's
    :data:`ROWS` minima; ints hash the same in every process), and the
    buckets of one band at a time, so a 20,000-note store holds about
    5 MB of band keys instead of 640,000 bucket tuples. Two bands that
    collide on a key only add a candidate: every pair is checked by its exact
    Jaccard similarity.
    """
    band_keys: list[array | None] = []
    for _, sh in items:
        if not sh:
            band_keys.append(None)
            continue
        sk = sketch(sh)
        band_keys.append(array("q", (hash(tuple(sk[b * ROWS : (b + 1) * ROWS])) for b in range(BANDS))))
    seen: set[tuple[int, int]] = set()
    out: list[tuple[str, str, float]] = []
    for band in range(BANDS):
        buckets: dict[int, list[int]] = {}
        for pos, keys in enumerate(band_keys):
            if keys is not None:
                buckets.setdefault(keys[band], []).append(pos)
        for members in buckets.values():
            if len(members) < 2:
                continue
            for i, j in _pairs(members):
                if (i, j) in seen:
                    continue
                seen.add((i, j))
                s = jaccard(items[i][1], items[j][1])
                if s >= threshold:
                    a, b = sorted((items[i][0], items[j][0]))
                    out.append((a, b, s))
    out.sort()
    return out


def _pairs(members: list[int]) -> Iterable[tuple[int, int]]:
    members = sorted(set(members))
    if len(members) > MAX_BUCKET:
        return zip(members, members[1:])
    return ((members[i], members[j]) for i in range(len(members)) for j in range(i + 1, len(members)))
