"""The fast paths of :mod:`mmlint.similarity` held to the slow definitions:
band keys to the sketch they stand for, the prefix-filter join to all
pairs, the ASCII tokeniser to the token regex, and ``near_duplicates`` to
the plain LSH it replaced (sketch, banding, buckets, exact check)."""

from __future__ import annotations

import zlib
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import corpus_stores, needs_corpus
from mmlint import api, dialects, similarity
from mmlint.errors import CheckError
from mmlint.rules.hygiene import MIN_SHINGLES


def reference_shingles(text: str) -> set[int]:
    """Shingles from the token regex (the definition)."""
    th = [zlib.crc32(t.encode("utf-8", "surrogatepass")) for t in similarity.tokens(text)]
    if not th:
        return set()
    th += [0] * max(0, similarity.K - len(th))
    return {(a * 0x01000193 ^ b * 0x9E3779B1 ^ c) & 0xFFFFFFFF for a, b, c in zip(th, th[1:], th[2:])}


def reference_near_duplicates(items, threshold):
    """The LSH as first written: the full sketch, one hashed tuple per band,
    buckets, pairs (adjacent ones only in a bucket over MAX_BUCKET), exact check."""
    r = similarity.ROWS
    keys = [None if not sh else [hash(tuple(sk[b * r:(b + 1) * r])) for b in range(similarity.BANDS)]
            for sh in (s for _, s in items) for sk in [similarity.sketch(sh) if sh else None]]
    seen, out = set(), []
    for band in range(similarity.BANDS):
        buckets: dict[int, list[int]] = {}
        for pos, k in enumerate(keys):
            if k is not None:
                buckets.setdefault(k[band], []).append(pos)
        for m in buckets.values():
            pairs = zip(m, m[1:]) if len(m) > similarity.MAX_BUCKET else combinations(m, 2)
            for i, j in pairs:
                if (i, j) not in seen:
                    seen.add((i, j))
                    s = similarity.jaccard(items[i][1], items[j][1])
                    if s >= threshold:
                        out.append((*sorted((items[i][0], items[j][0])), s))
    return sorted(out)


def brute_pairs(sets, threshold):
    return [(i, j) for i, j in combinations(range(len(sets)), 2)
            if sets[i] and sets[j] and similarity.jaccard(sets[i], sets[j]) >= threshold]


# shingle sets drawn from a small universe, so bands and buckets often agree
small_sets = st.lists(st.sets(st.integers(0, 40).map(lambda i: (i * 2654435761) & 0xFFFFFFFF), max_size=30),
                      min_size=2, max_size=12)


@settings(max_examples=150, deadline=None)
@given(small_sets)
def test_band_keys_agree_exactly_when_the_sketch_bands_agree(sets):
    sets = [s for s in sets if s]
    r = similarity.ROWS
    sks = [similarity.sketch(s) for s in sets]
    keys = [similarity.band_keys(s) for s in sets]
    for a, b in combinations(range(len(sets)), 2):
        for band in range(similarity.BANDS):
            same_sketch = sks[a][band * r:(band + 1) * r] == sks[b][band * r:(band + 1) * r]
            assert same_sketch == (keys[a][band] == keys[b][band])


@settings(max_examples=150, deadline=None)
@given(small_sets, st.floats(0.0, 1.0))
def test_join_proves_no_pair_only_when_there_is_none(sets, threshold):
    if similarity._no_pair_reaches(sets, threshold):
        assert brute_pairs(sets, threshold) == []
    elif threshold > 0 and len(sets) * similarity.JOIN_BUDGET + 1000 > sum(map(len, sets)) ** 2:
        # within budget, "not proven" means a pair is there
        assert brute_pairs(sets, threshold) != []


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abcde fg", max_size=60), min_size=2, max_size=10), st.floats(0.0, 1.0))
def test_near_duplicates_equal_the_plain_lsh(texts, threshold):
    items = [(f"k{i}", similarity.shingles(t)) for i, t in enumerate(texts)]
    assert similarity.near_duplicates(items, threshold) == reference_near_duplicates(items, threshold)


def test_near_duplicates_equal_the_plain_lsh_over_the_join_budget():
    # 300 copies of one boilerplate with a word changed: every pair shares most shingles
    base = "run the integration tests before pushing and never mock the database in these tests".split()
    texts = [" ".join(base[:i % len(base)] + [f"w{i}"] + base[i % len(base) + 1:]) for i in range(300)]
    items = [(f"n{i:03}", similarity.shingles(t)) for i, t in enumerate(texts)]
    assert not similarity._no_pair_reaches([s for _, s in items], 0.7)
    got = similarity.near_duplicates(items, 0.7)
    assert got and got == reference_near_duplicates(items, 0.7)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([chr(c) for c in range(128)] + list("éÉßﬁİı你好")), max_size=80))
def test_shingles_ascii_path_equals_the_token_regex(text):
    assert similarity.shingles(text) == reference_shingles(text)


@needs_corpus
def test_near_duplicates_equal_the_plain_lsh_on_the_corpus():
    found = 0
    for root in corpus_stores():
        try:
            name, prof, _ = api.choose(str(root))
        except CheckError:
            continue
        store = dialects.get(name).read(str(root), prof)
        items = [(n.path, similarity.shingles((n.summary or "") + "\n" + n.body))
                 for n in sorted(store.notes, key=lambda n: n.path)]
        items = [(k, sh if len(sh) >= MIN_SHINGLES else set()) for k, sh in items]
        got = similarity.near_duplicates(items, 0.7)
        assert got == reference_near_duplicates(items, 0.7), root
        found += len(got)
    assert found >= 28  # workspace-dev-runaway alone has 28 pairs
