"""Inline suppressions: ``<!-- mmlint-disable ... -->`` comments in notes and
the index, and the Q rules that report unused, unknown and malformed ones."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import ENG, N, idx, with_  # noqa: E402

from mmlint import dialects, rules  # noqa: E402

DANGLING = idx("- [A](a.md) — hook", "- [Gone](gone.md) — x")


def found(store_dir: Path, options: rules.Options | None = None) -> list[tuple[str, str, int]]:
    mod = dialects.get("engramory")
    store = mod.read(str(store_dir), "upstream")
    return [(d.code, d.span.path, d.span.line) for d in rules.run(store, mod, options)]


def codes(store_dir: Path, options: rules.Options | None = None) -> set[str]:
    return {c for c, _, _ in found(store_dir, options)}


def test_disable_next_line_hides_the_finding_below(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P101 -->", "- [Gone](gone.md) — x")))
    assert "P101" not in codes(root)
    assert "Q101" not in codes(root)


def test_disable_line_takes_a_rule_name(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x <!-- mmlint-disable-line dangling-pointer -->")))
    assert codes(root) & {"P101", "Q101", "Q102"} == set()


def test_disable_file_in_a_note(store):
    root = store(with_(ENG, **{"b.md": N("b", body="text\n\n<!-- mmlint-disable-file P106 -->\n")}))
    assert codes(root) & {"P106", "Q101"} == set()


def test_range_ends_at_enable(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx(
        "- [A](a.md) — hook", "<!-- mmlint-disable P101 -->", "- [Gone](gone.md) — x", "<!-- mmlint-enable P101 -->",
        "- [Also](also.md) — y")))
    assert [(c, line) for c, _, line in found(root) if c == "P101"] == [("P101", 7)]


def test_disable_without_codes_hides_everything_until_enable(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx(
        "- [A](a.md) — hook", "<!-- mmlint-disable -->", "- [Gone](gone.md) — x", "- [Out](../out.md) — x",
        "<!-- mmlint-enable -->", "- [Also](also.md) — y")))
    got = [(c, line) for c, _, line in found(root)]
    assert ("P101", 8) in got
    assert not [x for x in got if x[1] in (5, 6)]


def test_enable_one_code_inside_disable_all(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx(
        "- [A](a.md) — hook", "<!-- mmlint-disable -->", "<!-- mmlint-enable P101 -->", "- [Gone](gone.md) — x",
        "- [Out](../out.md) — x")))
    got = {(c, line) for c, _, line in found(root)}
    assert ("P101", 6) in got and ("P102", 7) not in got


def test_unused_suppression_is_reported_where_it_is(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P101 -->", "- [B](a.md) — ok")))
    assert ("Q101", "MEMORY.md", 4) in found(root)


def test_only_the_unused_code_of_a_directive_is_reported(store):
    mod = dialects.get("engramory")
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P101, P102 -->", "- [Gone](gone.md) — x")))
    diags = [d for d in rules.run(mod.read(str(root), "upstream"), mod) if d.code == "Q101"]
    assert len(diags) == 1 and "P102" in diags[0].message and "P101" not in diags[0].message


def test_unused_is_not_judged_for_rules_that_did_not_run(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P106 -->", "- [B](a.md) — ok")))
    assert "Q101" not in codes(root, rules.Options(ignore={"P106"}))
    assert "Q101" in codes(root)


def test_unknown_code_is_reported_and_hides_nothing(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line Z999 -->", "- [Gone](gone.md) — x")))
    got = codes(root)
    assert "Q102" in got and "P101" in got


def test_malformed_directive_is_reported(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disabel P101 -->", "- [Gone](gone.md) — x")))
    assert {"Q103", "P101"} <= codes(root)


def test_comment_in_a_code_fence_is_not_a_suppression(store):
    body = "```markdown\n<!-- mmlint-disable-file P106 -->\n```\n"
    root = store(with_(ENG, **{"b.md": N("b", body=body)}))
    got = codes(root)
    assert "P106" in got and "Q101" not in got


def test_comment_in_frontmatter_is_not_a_suppression(store):
    root = store(with_(ENG, **{"b.md": N("b", desc="'<!-- mmlint-disable-file P106 -->'")}))
    assert "P106" in codes(root)


def test_suppression_findings_cannot_suppress_themselves(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line Z999 -->",
                                              "<!-- mmlint-disable-file Q102 -->")))
    assert "Q102" in codes(root)
    assert "Q102" not in codes(root, rules.Options(ignore={"Q102", "Q101"}))


def test_suppression_lines_in_a_crlf_note(store):
    note = N("b", body="text\n<!-- mmlint-disable-file P106 -->\n").replace("\n", "\r\n")
    root = store(with_(ENG, **{"b.md": note}))
    assert "P106" not in codes(root)


def test_ten_thousand_codes_in_one_comment(store):
    many = ",".join(f"Z{i:05d}" for i in range(10_000)) + ",P101"
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", f"<!-- mmlint-disable-next-line {many} -->", "- [Gone](gone.md) — x")))
    mod = dialects.get("engramory")
    t = time.perf_counter()
    diags = rules.run(mod.read(str(root), "upstream"), mod)
    assert time.perf_counter() - t < 2.0
    q102 = [d for d in diags if d.code == "Q102"]
    assert len(q102) == 1 and len(q102[0].message) < 300 and "9997 more" in q102[0].message
    assert "P101" not in {d.code for d in diags}


def test_many_directives_stay_fast(store):
    lines = ["- [A](a.md) — hook"]
    for i in range(2000):
        lines += ["<!-- mmlint-disable P101 -->", f"- [G{i}](gone{i}.md) — x", "<!-- mmlint-enable P101 -->"]
    root = store(with_(ENG, MEMORY_DOT_md=idx(*lines)))
    t = time.perf_counter()
    got = codes(root, rules.Options(ignore={"I102", "I103", "I104"}))
    assert time.perf_counter() - t < 5.0
    assert "P101" not in got and "Q101" not in got


def test_thousands_of_redundant_disables_and_stray_enables_stay_linear(store):
    lines = ["- [A](a.md) — hook"] + ["<!-- mmlint-disable P101 -->"] * 5000 + ["<!-- mmlint-enable P102 -->"] * 5000
    root = store(with_(ENG, MEMORY_DOT_md=idx(*lines, "- [Gone](gone.md) — x")))
    mod = dialects.get("engramory")
    t = time.perf_counter()
    diags = rules.run(mod.read(str(root), "upstream"), mod, rules.Options(ignore={"I102", "I103", "I104"}))
    assert time.perf_counter() - t < 5.0
    assert "P101" not in {d.code for d in diags}
    q101 = [d for d in diags if d.code == "Q101"]
    assert len(q101) == 4999 + 5000  # redundant disables and enables that end nothing


def test_a_code_prefix_suppresses_as_select_does(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P1 -->", "- [Gone](gone.md) — x")))
    assert codes(root) & {"P101", "Q101", "Q102"} == set()
    # a prefix that hides nothing is reported by the name written
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line N1 -->", "- [A2](a.md) — x")))
    mod = dialects.get("engramory")
    msgs = [d.message for d in rules.run(mod.read(str(root), "upstream"), mod) if d.code == "Q101"]
    assert msgs == ["mmlint-disable-next-line hides no N1 finding here"]


def test_unknown_suppression_code_gets_a_suggestion(store):
    root = store(with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "<!-- mmlint-disable-next-line P1O1 -->", "- [Gone](gone.md) — x")))
    mod = dialects.get("engramory")
    (msg,) = [d.message for d in rules.run(mod.read(str(root), "upstream"), mod) if d.code == "Q102"]
    assert msg == "suppression names no rule: 'P1O1' (did you mean 'P101'?)"


def test_prefix_selectors_cost_what_codes_cost():
    """A code prefix (``F1``) in a directive looked at every rule, and every
    lookup sorted the registry again: 200,000 directives took a minute.
    Thousands of prefix directives now cost about what exact codes cost."""
    from mmlint.rules import suppressions

    def took(codes: str) -> float:
        text = f"<!-- mmlint-disable {codes} -->\n" * 2000
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            suppressions.parse("a.md", text)
            best = min(best, time.perf_counter() - t0)
        return best

    exact = took("F111 P106 X104")
    assert took("F1 P1 X1") < 4 * exact + 0.05
    got, _ = suppressions.parse("a.md", "<!-- mmlint-disable P10 -->\n")
    assert "P106" in got[0].codes and not any(c.startswith("Q") for c in got[0].codes)


def test_suppressions_in_many_notes_cost_linear_time(tmp_path, monkeypatch):
    """Each file with a directive scanned every diagnostic of the store for
    its own: O(files × diagnostics). 4x the notes (each with a directive and
    two findings) must cost about 4x in ``apply_suppressions``."""
    from conftest import indexed_notes

    from mmlint.rules import suppressions

    spent = []
    real = suppressions.apply_suppressions

    def timed(ctx, diagnostics):
        t0 = time.perf_counter()
        out = real(ctx, diagnostics)
        spent.append(time.perf_counter() - t0)
        return out

    monkeypatch.setattr(suppressions, "apply_suppressions", timed)

    def cost(n: int) -> float:
        store = indexed_notes(tmp_path / str(n), n, lambda i: f"---\nname: n{i}\ndescription: d\ntype: user\n---\n\n"
                              f"<!-- mmlint-disable-next-line P109 -->\n[[gone-{i}]] and [[lost-{i}]]\n")
        spent.clear()
        for _ in range(3):
            got = found(store)
        assert not any(code == "P109" for code, _, _ in got)  # both links of the next line hidden
        return min(spent)

    small, large = cost(300), cost(1200)
    assert large < 8 * small + 0.05, (small, large)
