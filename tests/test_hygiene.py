"""Hygiene rules (H101-H106) beyond their rule cases: what they name, their
settings, the drift fix, the project root behind stale paths, linear time."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CORPUS, make_store, needs_corpus
from mmlint import dialects, personal, projects, rules, similarity
from mmlint.api import CheckError

N = "---\nname: {0}\ndescription: {1}\ntype: reference\n---\n\n{2}\n"
TEXT = ("The release train leaves every second Tuesday; freeze the branch the Friday before, run the full "
        "integration suite on staging, and write the notes from the merged pull requests.")


def run(root: Path, profile: str = "claude-code", select: frozenset = frozenset({"H"}), **hygiene) -> list:
    mod = dialects.get("engramory")
    return rules.run(mod.read(str(root), profile), mod, rules.Options(select=set(select), hygiene=hygiene))


def by(code: str, ds: list) -> list:
    return [d for d in ds if d.code == code]


def test_near_duplicates_name_the_pair_and_similarity(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — x\n- [B](b.md) — y\n- [C](c.md) — z\n",
                          "a.md": N.format("a", "release", TEXT), "b.md": N.format("b", "release", TEXT + " Ping QA."),
                          "c.md": N.format("c", "other", "Completely unrelated words about gardening tomatoes in pots.")})
    found = by("H101", run(tmp_path))
    assert len(found) == 1
    assert found[0].span.path == "b.md" and "'a.md'" in found[0].message
    sim = float(found[0].message.split("similarity ")[1].split(" ")[0])
    assert 0.8 <= sim < 1.0
    # the threshold is the configuration's
    assert by("H101", run(tmp_path, **{"duplicate-threshold": 0.99})) == []


def test_near_duplicates_are_deterministic_across_hash_seeds(tmp_path):
    import subprocess
    import sys

    make_store(tmp_path, {"MEMORY.md": "", **{f"n{i}.md": N.format(f"n{i}", "d", TEXT + f" Variant {i % 3}.") for i in range(6)}})
    code = ("import sys; from mmlint import dialects, rules; m = dialects.get('engramory'); "
            "s = m.read(sys.argv[1], 'claude-code'); "
            "print([d.message for d in rules.run(s, m, rules.Options(select={'H101'}))])")
    outs = {subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1 and "similarity" in outs.pop()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcde fg", min_size=0, max_size=60), min_size=2, max_size=8), st.floats(0.3, 1.0))
def test_lsh_pairs_are_exactly_the_pairs_over_threshold_it_reports(texts, threshold):
    items = [(f"k{i}", similarity.shingles(t)) for i, t in enumerate(texts)]
    got = similarity.near_duplicates(items, threshold)
    for a, b, s in got:
        assert s == similarity.jaccard(dict(items)[a], dict(items)[b]) >= threshold
    # identical non-empty sets always pair (every band agrees)
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if items[i][1] and items[i][1] == items[j][1]:
                assert (items[i][0], items[j][0], 1.0) in got


def test_tokens_split_cjk_characters_and_space_separated_words():
    assert similarity.tokens("Hello, World 你好世界") == ["hello", "world", "你", "好", "世", "界"]


def test_near_duplicates_fast_on_1000_notes():
    items = [(f"n{i:05}", similarity.shingles(f"note {i} about topic {i % 97} with words {i * 7} and {i * 13} more")) for i in range(1000)]
    t0 = time.perf_counter()
    similarity.near_duplicates(items, 0.8)
    t_small = time.perf_counter() - t0
    assert t_small < 5


def test_stale_path_uses_the_decoded_claude_code_project(tmp_path):
    proj = tmp_path / "work" / "my.app"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "app.py").write_text("x")
    name = projects.encode(str(proj))
    store = tmp_path / "home" / ".claude" / "projects" / name / "memory"
    make_store(store, {"MEMORY.md": "- [A](a.md) — a\n",
                       "a.md": N.format("a", "a", "Entry in `src/app.py`; old code in `src/old.py`; branch `feature/x`.")})
    assert projects.project_root(str(store)) == str(proj)
    found = by("H102", run(store))
    assert [d.message.split("'")[1] for d in found] == ["src/old.py"]
    assert found[0].span.line == 7


def test_stale_path_skips_stores_without_a_project(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — a\n", "a.md": N.format("a", "a", "see `src/gone.py`")})
    if projects.repo_root(str(tmp_path)) is not None:
        pytest.skip("the temporary folder lies inside a git checkout")
    assert by("H102", run(tmp_path)) == []
    (tmp_path / ".git").mkdir()
    assert len(by("H102", run(tmp_path))) == 1


def test_decode_project_is_verified_and_lossy(tmp_path):
    (tmp_path / "a-b").mkdir()
    (tmp_path / "a" / "b").mkdir(parents=True)
    name = projects.encode(str(tmp_path / "a-b"))
    assert name == projects.encode(str(tmp_path / "a" / "b"))
    assert projects.decode_project(name) == sorted([str(tmp_path / "a" / "b"), str(tmp_path / "a-b")])
    assert projects.decode_project(projects.encode(str(tmp_path / "gone"))) == []


def test_drift_fix_rewrites_only_drifted_lines(tmp_path):
    index = ("# Memory\r\n\r\nHand-written line, kept.\r\n- [A](a.md) — Jenkins nightly job  \r\n"
             "- [B](b.md) — release notes from merged PRs\r\n")
    make_store(tmp_path, {"MEMORY.md": index, "a.md": N.format("a", "Deploys run on GitHub Actions since March", "x"),
                          "b.md": N.format("b", "Release notes come from merged PRs", "y")})
    found = by("H105", run(tmp_path))
    assert [d.span.line for d in found] == [4]
    assert found[0].fix["applicability"] == "unsafe"  # it replaces words someone wrote, on a heuristic
    new = found[0].edits["MEMORY.md"]
    want = index.replace("Jenkins nightly job", "Deploys run on GitHub Actions since March").encode()
    assert new == want
    # applied, the store has nothing left to fix
    (tmp_path / "MEMORY.md").write_bytes(new)
    assert by("H105", run(tmp_path)) == []


def test_drift_fix_refuses_markdown_in_the_description(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — Jenkins nightly job\n",
                          "a.md": N.format("a", "'Deploys: see [runbook](b.md)'", "x")})
    found = by("H105", run(tmp_path))
    assert len(found) == 1 and found[0].fix is None


def test_drift_threshold_is_configurable(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — Deploys run on Jenkins\n",
                          "a.md": N.format("a", "Deploys run on GitHub Actions since March", "x")})
    assert by("H105", run(tmp_path)) == []
    assert len(by("H105", run(tmp_path, **{"drift-threshold": 0.9}))) == 1


def test_personal_data_never_echoes_the_value(tmp_path):
    values = ["alicia.martinez@hess-auto.fr", "+33 6 12 34 56 78", "123-45-6789", "900101-1234567", "11010519491231002X"]
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — a\n", "a.md": N.format("a", "a", "\n".join(values))})
    found = by("H106", run(tmp_path))
    assert len(found) == len(values)
    for d in found:
        assert all(v not in d.message and v not in (d.anchor or "") for v in values)
    assert {d.severity for d in found} == {"info"}
    only_mail = by("H106", run(tmp_path, **{"personal-data": ["email"]}))
    assert [d.message.split()[0] for d in only_mail] == ["e-mail"]


@pytest.mark.parametrize("hostile", ["1" * 200_000, "1 " * 100_000, "a@" * 100_000, ("a" * 60 + "@") * 3000, "(1" * 100_000])
def test_personal_scan_is_linear_on_hostile_text(hostile):
    t0 = time.perf_counter()
    list(personal.find(hostile))
    assert time.perf_counter() - t0 < 2


def test_hygiene_settings_are_validated(tmp_path):
    from mmlint import config

    (tmp_path / "mmlint.toml").write_text("[hygiene]\nduplicate-threshold = 2\n")
    with pytest.raises(CheckError, match="hygiene.duplicate-threshold"):
        config.load(str(tmp_path / "mmlint.toml"))
    (tmp_path / "mmlint.toml").write_text("[hygiene]\nstale-days = 30\npersonal-data = [\"email\"]\n")
    opts = config.load(str(tmp_path / "mmlint.toml")).options()
    assert opts.hygiene == {"stale-days": 30, "personal-data": ["email"]}


@needs_corpus
def test_corpus_findings_are_bounded():
    """On the real stores the hygiene rules name a handful of things, not
    every entry: a drift threshold that fired on most hooks would be noise."""
    total = drift = 0
    for root in sorted((CORPUS / "real" / "a-claude").iterdir()):
        if not (root / "MEMORY.md").is_file():
            continue
        mod = dialects.get("engramory")
        store = mod.read(str(root), "claude-code")
        total += len(store.index.entries)
        drift += len(rules.run(store, mod, rules.Options(select={"H105"})))
    assert 0 < drift < total * 0.15


def test_drift_in_a_cr_only_index_offers_no_fix(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "# Memory\r- [A](a.md) — Jenkins nightly job\r",
                          "a.md": N.format("a", "Deploys run on GitHub Actions since March", "x")})
    assert all(d.fix is None for d in by("H105", run(tmp_path)))


def test_not_updated_falls_back_to_the_file_time(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — a\n", "a.md": N.format("a", "a", "x")})
    old = time.time() - 400 * 86400
    os.utime(tmp_path / "a.md", (old, old))
    found = by("H104", run(tmp_path, **{"stale-days": 365}))
    assert len(found) == 1 and found[0].span.path == "a.md" and "not updated for 4" in found[0].message
    assert by("H104", run(tmp_path)) == []  # off by default


def test_drift_fix_waits_for_unsafe_fixes_and_keeps_a_reworded_cjk_hook(tmp_path):
    # a hook that says the description in other words shares no character trigram with it (seen on
    # testbench-gb300): H105 may report it, but a plain --fix must not replace what a person wrote
    import subprocess
    import sys

    hook = "改动前先给方案；分批 review 草稿；用户用 ! 前缀执行本地命令"
    index = f"# Memory\n\n- [Prefs](a.md) — {hook}\n"
    make_store(tmp_path, {"MEMORY.md": index, "a.md": N.format("a", "用户对沟通节奏、草稿审批、命令呈现方式的偏好。", "x")})
    assert [d.code for d in by("H105", run(tmp_path))] == ["H105"]
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(tmp_path), "--isolated", "--fix",
                           "--profile", "claude-code"], capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stderr
    assert (tmp_path / "MEMORY.md").read_text(encoding="utf-8") == index


def test_the_drift_fix_goes_only_with_the_lines_it_rewrites(tmp_path):
    # found by a newcomer run: a description the fix cannot put on a line (here a backslash) left that
    # line as it was, yet its finding carried the fix, so --fix said "Fixed 2 findings" and one stayed
    index = "# Memory\n\n- [A](a.md) — Jenkins nightly job\n- [B](b.md) — old words about releases\n"
    make_store(tmp_path, {"MEMORY.md": index, "a.md": N.format("a", "Deploys run on GitHub Actions since March", "x"),
                          "b.md": N.format("b", "Builds use C:\\\\tools\\\\make on the runner", "y")})
    found = by("H105", run(tmp_path))
    assert [(d.span.line, d.fix is not None) for d in found] == [(3, True), (4, False)]
    assert found[0].fix["message"] == "rewrite 1 drifted pointer hook(s) to the notes' descriptions"
