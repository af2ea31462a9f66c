"""Deterministic text similarity for the hygiene rules: shingles, a MinHash
sketch (one-permutation hashing with densification) and LSH banding.

Everything here is a pure function of the text: the same store gives the
same pairs and the same numbers on every machine and run (no ``hash()`` of
text, whose value changes with ``PYTHONHASHSEED``; shingles are hashed with
CRC-32, and only ints and tuples of ints go through ``hash()``).

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
  quadratic). Before any sketch is made, an exact join with prefix
  filtering checks whether any pair reaches the threshold at all; most
  stores have none, and then no sketch is needed (the answer is the same).
* :func:`sketch` is the definition of the one-permutation sketch;
  :func:`band_keys` computes its band keys without building it.
"""

from __future__ import annotations

import math
import zlib
from array import array
from itertools import chain, combinations

from mmlint.textutil import lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Collection, Iterable, Sequence

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
_TOKEN_RE = lazy_re(f"[{_CJK}]|[^\\W_{_CJK}]+")
_MASK = 0xFFFFFFFF
_SPREAD = 0x9E3779B1  # spreads CRC bits before binning
_BIN_BITS = 7  # BINS == 1 << _BIN_BITS
_BIN_MASK = BINS - 1


def tokens(text: str) -> list[str]:
    """Words of ``text`` (see the module docs); ``[]`` for text without any."""
    import unicodedata  # non-ASCII text only (shingles); a shared library to load

    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


# ASCII text: a token is a run of [a-z0-9] after lower-casing (what _TOKEN_RE
# finds there, since NFKC and casefold keep ASCII ASCII); every other byte splits.
_ASCII_SPLIT = bytes(c if chr(c).isascii() and chr(c).isalnum() and not chr(c).isupper() else 32 for c in range(256))


def shingles(text: str) -> set[int]:
    """The set of hashed 3-token shingles of ``text`` (empty for no tokens):
    each token is hashed once (CRC-32 of its UTF-8), a shingle's hash mixes
    its three token hashes with odd multipliers (32 bits). ASCII text is
    split with bytes methods rather than the token regex, to the same tokens."""
    if text.isascii():
        th = list(map(zlib.crc32, text.lower().encode("ascii").translate(_ASCII_SPLIT).split()))
    else:
        th = [zlib.crc32(t.encode("utf-8", "surrogatepass")) for t in tokens(text)]
    if not th:
        return set()
    if len(th) < K:
        th += [0] * (K - len(th))
    return {(a * 0x01000193 ^ b * 0x9E3779B1 ^ c) & _MASK for a, b, c in zip(th, th[1:], th[2:])}


_NONWORD_RE = lazy_re(r"[\W_]+")


def char_grams(text: str, n: int = 3) -> set[str]:
    """Character ``n``-grams of ``text`` after NFKC, casefolding and turning
    every run of non-word characters into one space (any script, no word
    splitting needed); a shorter text gives itself as its only gram."""
    import unicodedata

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
        h = (h * _SPREAD) & _MASK  # spread CRC bits before binning
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


def band_keys(sh: set[int]) -> list[int]:
    """The :data:`BANDS` LSH keys of a non-empty shingle set: band ``b``'s key
    stands for the :data:`ROWS` values ``sketch(sh)[b * ROWS : (b + 1) * ROWS]``,
    and two sets get the same key for a band exactly when those values agree
    (up to a 64-bit hash collision, which only adds a candidate).

    Computed without building the sketch. Each filled bin is packed as
    ``bin << 25 | minimum`` (32 bits; minima are below 2**25). A band's
    values are determined by its filled bins and, when its last bin is
    empty, the next filled bin to its right (circularly), since an empty
    bin holds that bin's minimum plus its distance to it times 2**32. So a
    band holding a filled bin is keyed by ``hash`` of the tuple of its
    packed bins (plus the next one when its last bin is empty), and a band
    of empty bins only by the packed next filled bin itself (an int below
    2**32, which is its own hash). Returns a list of :data:`BANDS` ints;
    ``sh`` must not be empty.
    """
    # bin -> its packed minimum: sorted descending, so the smallest of a bin is written last
    spread = [((x := (h * _SPREAD) & _MASK) >> _BIN_BITS) | ((x & _BIN_MASK) << 25) for h in sh]
    spread.sort(reverse=True)
    mins = {p >> 25: p for p in spread}
    packed = sorted(mins.values())
    keys = [0] * BANDS
    nxt = packed[0]  # the filled bin after the last one, circularly
    hi = BANDS  # bands >= hi have their keys
    j = len(packed)
    while j:
        last = packed[j - 1]
        band = last >> 27
        lo = band << 27
        i = j - 1
        while i and packed[i - 1] >= lo:
            i -= 1
        if band + 1 < hi:
            keys[band + 1 : hi] = [nxt] * (hi - band - 1)
        keys[band] = hash(tuple(packed[i:j]) if (last >> 25) & 3 == 3 else (*packed[i:j], nxt))
        nxt = packed[i]
        hi = band
        j = i
    if hi:
        keys[:hi] = [nxt] * hi
    return keys


def compact(sh: Collection[int]) -> array:
    """A shingle set as a sorted ``array('I')`` (4 bytes a shingle instead of
    a set's ~50): the form :func:`near_duplicates` keeps for many notes."""
    return array("I", sorted(sh))


def dump_compact(arr: array) -> str:
    """:func:`compact`'s array as text (hex of its machine-order bytes, 8
    digits a shingle; no import, unlike base64), for a cache of per-note
    facts; :func:`load_compact` reverses it."""
    return arr.tobytes().hex()


def load_compact(text: str) -> array:
    """The array :func:`dump_compact` wrote. Raises :class:`ValueError` or
    :class:`TypeError` for text it did not write (not hex, a length that is
    not a whole number of shingles, not text); the shingles are not checked
    to be sorted and distinct."""
    if not isinstance(text, str):
        raise TypeError("a compact shingle array is text")
    return array("I", bytes.fromhex(text))


def _inter(a: Collection[int], b: Collection[int]) -> int:
    """``|a ∩ b|`` of two collections of distinct ints (sets or arrays)."""
    if isinstance(a, (set, frozenset)):
        return len(a.intersection(b))
    if isinstance(b, (set, frozenset)):
        return len(b.intersection(a))
    return len(set(a).intersection(b))


def near_duplicates(items: Sequence[tuple[str, Collection[int]]], threshold: float) -> list[tuple[str, str, float]]:
    """Every pair ``(a, b, similarity)`` (``a < b`` by key, sorted) whose
    shingle sets have an exact Jaccard similarity of at least ``threshold``.

    ``items`` are ``(key, shingles)``: a set of ints, or any collection of
    distinct ints such as :func:`compact`'s array (the same answer); empty
    ones never pair.

    Candidates are the pairs that share a band key (:func:`band_keys`) in
    some band; a bucket of more than :data:`MAX_BUCKET` items contributes the
    pairs adjacent in item order only. A candidate is reported when its
    exact Jaccard similarity reaches the threshold (pairs whose sizes alone
    rule that out are not intersected: ``J <= min/max``).

    First an exact all-pairs join (:func:`_no_pair_reaches`) looks for any
    pair at or over the threshold; when there is none the answer is empty
    whatever LSH would propose, and the sketches are never computed.

    Memory: beyond ``items``, the join's count table and prefix index (a few
    bytes a shingle), then one 64-bit key per band and item, and the buckets
    of one band at a time; sets are built only for the candidates checked.
    """
    return near_duplicates_proved(items, threshold)[0]


def near_duplicates_proved(items: Sequence[tuple[str, Collection[int]]],
                           threshold: float) -> tuple[list[tuple[str, str, float]], bool]:
    """``(near_duplicates(items, threshold), proved)``: ``proved`` is true
    when the exact join proved that no pair reaches the threshold (the pairs
    are then ``[]``), false when candidates were searched."""
    if _no_pair_reaches([sh for _, sh in items], threshold):
        return [], True
    return _lsh_pairs(items, threshold), False


def any_pair_with_encoded(fresh: Sequence[tuple[str, Collection[int]]], known: Iterable[dict[str, str]],
                          threshold: float) -> bool:
    """Whether a pair holding one of the ``fresh`` items (``(key, shingles)``)
    has an exact Jaccard similarity of at least ``threshold``, with another
    fresh item or with one of ``known``: an iterable of mappings (key ->
    :func:`dump_compact` text), taken one at a time and not held once
    compared (the chunks of a facts file, read as they come); a key of
    both counts as fresh. Stops at the first such pair, without taking the
    rest of ``known``. Empty sets never pair. A known set is decoded only
    when its size, read from its text's length, does not rule the pair out
    (``J <= min/max``). With a proof that no two of the known sets reach
    the threshold (:func:`near_duplicates_proved` on an earlier store
    holding them), ``False`` means :func:`near_duplicates` gives ``[]``,
    since every pair it reports reaches the threshold. Time:
    O(len(fresh) * number of sets) plus the sets decoded.

    Raises:
        ValueError, TypeError: a known text :func:`load_compact` refuses.
    """
    ratio = threshold * (1 - 1e-9)
    fresh_keys = {k for k, _ in fresh}
    own = [a if isinstance(a, (set, frozenset)) else set(a) for _, a in fresh if a]

    def far(la: int, lb: int) -> bool:  # the sizes alone rule the pair out
        return not lb or (la if la < lb else lb) < ratio * (lb if la < lb else la)

    def pairs(a: set, b: Collection[int]) -> bool:
        inter = _inter(a, b)
        return inter / (len(a) + len(b) - inter) >= threshold

    for k, a in enumerate(own):
        if any(not far(len(a), len(b)) and pairs(a, b) for b in own[k + 1:]):
            return True
    width = 2 * array("I").itemsize  # hex digits a shingle
    for chunk in known:
        for key, text in chunk.items():
            if not isinstance(text, str):
                raise TypeError("a compact shingle array is text")
            if key in fresh_keys:
                continue
            lb, b = len(text) // width, None
            for a in own:
                if far(len(a), lb):
                    continue
                if b is None:
                    b = load_compact(text)
                    lb = len(b)
                    if far(len(a), lb):
                        continue
                if pairs(a, b):
                    return True
    return False


def _lsh_pairs(items: Sequence[tuple[str, Collection[int]]], threshold: float) -> list[tuple[str, str, float]]:
    """The pairs of :func:`near_duplicates` among the candidates LSH proposes."""
    pos_of: list[int] = []
    flat = array("q")  # item-major: BANDS keys per non-empty item
    for pos, (_, sh) in enumerate(items):
        if not sh:
            continue
        pos_of.append(pos)
        flat.extend(band_keys(sh))
    # candidate pairs (i < j, positions in items), from every band's buckets
    cands: set[tuple[int, int]] = set()
    for band in range(BANDS):
        col = flat[band::BANDS]
        first: dict[int, int] = {}
        buckets: dict[int, list[int]] = {}
        for pos, k in zip(pos_of, col):
            f = first.setdefault(k, pos)
            if f != pos:
                b = buckets.get(k)
                if b is None:
                    buckets[k] = [f, pos]
                else:
                    b.append(pos)
        for members in buckets.values():  # each in increasing position order
            cands.update(zip(members, members[1:]) if len(members) > MAX_BUCKET else combinations(members, 2))
    del flat, pos_of
    # J <= min/max: a pair whose sizes are further apart cannot reach the
    # threshold (the margin keeps float rounding on the side of computing)
    ratio = threshold * (1 - 1e-9)
    sets = [sh for _, sh in items]
    out: list[tuple[str, str, float]] = []
    for i, j in cands:
        a, b = sets[i], sets[j]
        la, lb = len(a), len(b)
        if (la if la < lb else lb) < ratio * (lb if la < lb else la):
            continue
        inter = _inter(a, b)
        s = inter / (la + lb - inter)
        if s >= threshold:
            ka, kb = sorted((items[i][0], items[j][0]))
            out.append((ka, kb, s))
    out.sort()
    return out


#: Work (posting-list entries visited per item, on average) the exact join
#: of :func:`_no_pair_reaches` may spend before it gives up.
JOIN_BUDGET = 8


def _no_pair_reaches(sets: Sequence[Collection[int]], threshold: float) -> bool:
    """Whether provably no two non-empty sets of ``sets`` have a Jaccard
    similarity (:func:`jaccard`) of at least ``threshold``; ``sets`` are
    sets of ints or collections of distinct ints (:func:`compact`).

    An exact all-pairs join with prefix filtering: shingles are ranked
    rarest first (ties by value, one total order for all sets); two sets
    with ``|A ∩ B| >= ceil(t * |A|)`` share a shingle among the first
    ``|A| - ceil(t * |A|) + 1`` of ``A`` and the first
    ``|B| - ceil(t * |B|) + 1`` of ``B``, and ``J >= t`` implies both
    overlaps. Only those prefixes are indexed, so pairs sharing nothing but
    common shingles are never looked at. The frequency of a shingle is
    counted in a table of at least as many cells as there are shingles,
    indexed by its low bits, so colliding shingles add up: the rank is
    still one fixed total order (which is all the proof needs) and the table
    takes 4 bytes a shingle instead of a dict entry; a shingle counted once
    is held by one set only, so it is not indexed (most shingles of most
    stores). ``t`` is taken a hair
    below the threshold, so float rounding only lengthens prefixes. Returns
    ``False`` (not proven) when a pair reaches the threshold, when the
    threshold is not above 0, or when the join would visit more than about
    :data:`JOIN_BUDGET` posting entries per set (stores of near-identical
    boilerplate), so its cost stays linear.
    """
    if not threshold > 0:
        return False
    total = sum(map(len, sets))
    mask = (1 << max(10, total.bit_length())) - 1
    count = array("I", [0]) * (mask + 1)
    for h in chain.from_iterable(sets):
        count[h & mask] += 1

    def by_rank(h: int) -> int:
        return count[h & mask] << 32 | h

    t = threshold * (1 - 1e-9)
    budget = JOIN_BUDGET * len(sets) + 1000
    # shingle -> the one set whose prefix holds it so far, or a list of them
    index: dict[int, int | list[int]] = {}
    at = count.__getitem__
    low = mask.__and__
    for x, sh in enumerate(sets):
        if not sh:
            continue
        m = len(sh)
        p = m - math.ceil(t * m) + 1  # the prefix: the set's p rarest shingles
        if list(map(at, map(low, sh))).count(1) >= p:
            continue  # its prefix is all shingles counted once: none indexed, no candidate (see below)
        cand: set[int] = set()
        for h in sorted(sh, key=by_rank)[:p]:
            if count[h & mask] < 2:
                continue  # no other set holds it (counts only add up): never a shared prefix shingle
            lst = index.get(h)
            if lst is None:
                index[h] = x
            elif lst.__class__ is int:
                budget -= 1
                cand.add(lst)
                index[h] = [lst, x]
            else:
                budget -= len(lst)
                cand.update(lst)
                lst.append(x)
        if budget < 0:
            return False
        if cand:
            own = sh if isinstance(sh, (set, frozenset)) else set(sh)
            for y in cand:
                b = sets[y]
                lb = len(b)
                if (m if m < lb else lb) >= t * (lb if m < lb else m):
                    inter = len(own.intersection(b))
                    if inter / (m + lb - inter) >= threshold:
                        return False
    return True
