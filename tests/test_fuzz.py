"""Fuzzed hostile stores (``strategies.py``) through every reader, the
rules, every reporter, ``--fix`` and every writer (``fuzzing.py``).

Bounded by the hypothesis profile ``mmlint-ci`` (a few seconds); set
``MMLINT_FUZZ_PROFILE=mmlint-long`` for thousands of examples, and see
``scripts/fuzz.py`` for the campaign."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzzing  # noqa: E402
import strategies  # noqa: E402

settings.register_profile("mmlint-ci", max_examples=8, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                                 HealthCheck.data_too_large])
settings.register_profile("mmlint-long", parent=settings.get_profile("mmlint-ci"), max_examples=3000)
PROFILE = settings.get_profile(os.environ.get("MMLINT_FUZZ_PROFILE", "mmlint-ci"))


@settings(PROFILE)
@given(strategies.ANY_STORE)
# A YAML escape of a surrogate pair under a bad carrier key: ruamel gives two
# lone surrogates, which the mm writer could not encode (found by this test).
@example({"user_0.md": b"\xef\xbb\xbf", "a.md": b"\xef\xbb\xbf", "user_1.md": b"\xef\xbb\xbf",
          "user_00.md": b"\xef\xbb\xbf", "sub/n.md": b'\xef\xbb\xbf---\nmmlint-slug: [{"\\ud800\\udc00": null}]\n',
          ".engramory-ledger.jsonl": b'{"a": 1}\n'})
def test_every_path_on_fuzzed_stores(files):
    assert fuzzing.check_store(files) == []


@settings(PROFILE, max_examples=max(3, PROFILE.max_examples // 3))
@given(strategies.ANY_STORE)
def test_check_command_on_fuzzed_stores_on_disk(tmp_path_factory, files):
    """Detection, configuration discovery, the text and github formats and
    ``--fix --unsafe-fixes`` through the command line, on real files."""
    assert fuzzing.check_on_disk(files, str(tmp_path_factory.mktemp("fz"))) == []


@settings(PROFILE)
@given(strategies.mm_store())
def test_mm_stores(files):
    assert fuzzing.check_store(files, deep=False) == []


@settings(PROFILE)
@given(strategies.workspace_store())
def test_workspace_stores(files):
    assert fuzzing.check_store(files, deep=False) == []


def test_strategies_reach_every_hazard():
    """The strategies do make what they promise: carriers of every type,
    CR line ends, NULs, invalid UTF-8, bracket runs and odd names."""
    seen: set[str] = set()

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategies.ANY_STORE)
    def collect(files):
        blob = b"".join(files.values())
        names = "".join(files)
        for tag, hit in (("carrier", b"mmlint-" in blob), ("cr", b"\r" in blob.replace(b"\r\n", b"")), ("nul", b"\x00" in blob),
                         ("bad-utf8", _bad_utf8(blob)), ("brackets", b"](" * 5 in blob or b"[" * 50 in blob),
                         ("odd-name", any(c in names for c in "\n\x1b\u202e "))):
            if hit:
                seen.add(tag)

    collect()
    assert seen == {"carrier", "cr", "nul", "bad-utf8", "brackets", "odd-name"}


def _bad_utf8(blob: bytes) -> bool:
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def test_yaml_escapes_of_surrogates_are_joined_or_refused():
    """An escaped surrogate pair is one character, as a JavaScript YAML reader
    holds it; a lone one is F104 and the value stays as written."""
    from mmlint import frontmatter

    fm = frontmatter.parse('---\nk: ["\\ud83d\\ude00", {"\\ud800\\udc00": 1}]\n---\n')
    assert fm.items[0].value == ["\U0001F600", {"\U00010000": 1}] and not fm.problems
    fm = frontmatter.parse('---\nk: ["\\ud800"]\n---\n')
    assert [p.code for p in fm.problems] == ["F104"] and "U+D800" in fm.problems[0].message
    assert fm.items[0].value == '["\\ud800"]'
