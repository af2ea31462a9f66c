"""Slug and file-name mapping between dialects: deterministic, reversible
through the ``mmlint-slug`` carrier, and refused on collisions (including
names that differ only by case or Unicode normalisation)."""

from __future__ import annotations

import unicodedata

import pytest

from conftest import FIXTURES, tree_bytes
from mmlint import convert, dialects
from mmlint.dialects import mm as mm_dialect
from mmlint.model import semantic

CC_DEFAULTS = {"type": "reference", "summary": "imported"}


def _read(root, dialect, profile=None):
    return dialects.get(dialect).read(str(root), profile)


def _ws(store, files):
    return _read(store({"MEMORY.md": "# 记忆索引\n", **files}), "workspace")


def _round_trip(src, tmp_path, dialect, profile=None, defaults=None):
    """Convert ``src`` to ``dialect`` and back; return (plan there, plan back, store back)."""
    there = convert.plan_conversion(src, tmp_path / "b", dialect, profile, defaults)
    assert there.ok, [r.message for r in there.refusals]
    mid = _read(tmp_path / "b", dialect, profile)
    back = convert.plan_conversion(mid, tmp_path / "a", src.dialect, src.profile)
    assert back.ok, [r.message for r in back.refusals]
    return there, back, _read(tmp_path / "a", src.dialect, src.profile)


@pytest.mark.parametrize("slug", ["Deploy.Notes_v2", "a", "x" * 64])
def test_valid_mm_topics_are_kept(slug):
    assert mm_dialect.map_topic(slug) == slug


@pytest.mark.parametrize("slug,topic", [
    ("代码评审清单", "xn--mnq31ibwicztdnlj12a"),
    ("Café-notes", "xn--Caf-notes-d4a"),
    ("user role", "user-role"),
    ("notes-(v2)", "notes-v2"),
    ("_private", "private"),
])
def test_mm_topic_mapping_is_deterministic(slug, topic):
    assert mm_dialect.map_topic(slug) == topic
    assert mm_dialect.valid_topic(mm_dialect.map_topic(slug))


def test_long_mm_topic_gets_a_hash_suffix_not_a_silent_cut():
    long = "長" * 40
    topic = mm_dialect.map_topic(long)
    assert mm_dialect.valid_topic(topic) and len(topic) <= 64
    assert topic != mm_dialect.map_topic(long + "x")
    assert topic == mm_dialect.map_topic(unicodedata.normalize("NFD", long))


def test_unicode_and_odd_slugs_reach_mm_and_come_back(store, tmp_path):
    src = _ws(store, {"用户 偏好.md": "---\ntitle: 用户 偏好\n---\n\nA\n", "notes-(v2).md": "B\n",
                      "长" * 60 + ".md": "C\n"})
    there, _, back = _round_trip(src, tmp_path, "mm")
    index = (tmp_path / "b" / "MEMORY.md").read_text()
    assert "- **mmlint-slug:** 用户 偏好" in index and "## notes-v2" in index
    assert semantic(back) == semantic(src)
    assert sorted(n.path for n in back.notes) == sorted(n.path for n in src.notes)
    assert ("MEMORY.md", "mmlint-slug") in there.carriers


def test_recall_v1_file_names_are_type_prefixed_and_reversible(tmp_path):
    src = _read(FIXTURES / "mm/basic/store", "mm")
    there, _, back = _round_trip(src, tmp_path, "engramory", "recall-v1", {"type": "reference", "summary": "s"})
    names = sorted(p.name for p in (tmp_path / "b").glob("*.md"))
    assert names == ["MEMORY.md", "reference-alpha.md", "reference-deploy-notes-v2.md", "reference-zh-notes.md"]
    note = (tmp_path / "b" / "reference-deploy-notes-v2.md").read_text()
    assert "name: deploy-notes-v2\n" in note and "mmlint-slug: Deploy.Notes_v2\n" in note
    assert ("memories/Deploy.Notes_v2.md", "name", "deploy-notes-v2") in there.fills
    # back home, each note gets its own bytes again: the fills were the target's, not the source's
    assert semantic(back) == semantic(src)
    assert {p: r.data for p, r in back.files.items()} == {p: r.data for p, r in src.files.items()}


def test_claude_code_names_become_recall_v1_names_and_come_back_byte_exact(tmp_path):
    src = _read(FIXTURES / "engramory/claude-code/store", "engramory", "claude-code")
    _, _, back = _round_trip(src, tmp_path, "engramory", "recall-v1")
    assert sorted(p.name for p in (tmp_path / "b").glob("*.md")) == [
        "MEMORY.md", "feedback-testing.md", "project-release-train.md", "user-role.md"]
    assert semantic(back) == semantic(src)
    notes = {k: v for k, v in tree_bytes(tmp_path / "a").items() if k != "MEMORY.md"}
    assert notes == {k: v for k, v in tree_bytes(FIXTURES / "engramory/claude-code/store").items() if k != "MEMORY.md"}


def test_recall_v1_refuses_a_type_that_cannot_prefix_a_file_name(store, tmp_path):
    src = _ws(store, {"a.md": "A\n"})
    plan = convert.plan_conversion(src, tmp_path / "o", "engramory", "recall-v1", {"type": "Ref Notes", "summary": "s"})
    r = plan.refusals[0]
    assert (r.code, r.path, r.field) == ("E_UNREPRESENTABLE", "a.md", "type") and "'Ref Notes'" in r.message
    assert not (tmp_path / "o").exists()


def test_recall_v1_refuses_a_name_read_back_as_an_archive(store, tmp_path):
    src = _ws(store, {"deploy-history.md": "A\n"})
    plan = convert.plan_conversion(src, tmp_path / "o", "engramory", "recall-v1", CC_DEFAULTS)
    r = plan.refusals[0]
    assert (r.code, r.path, r.field) == ("E_UNREPRESENTABLE", "deploy-history.md", "slug") and "-history.md" in r.message


@pytest.mark.parametrize("target,profile", [("mm", None), ("engramory", "recall-v1")])
def test_two_slugs_mapping_to_one_name_are_refused_naming_both(store, tmp_path, target, profile):
    src = _read(store({"MEMORY.md": "# Memory Index\n- [A](deploy.notes.md)\n- [B](deploy_notes.md)\n",
                       "deploy.notes.md": "---\nname: a\ndescription: d\ntype: project\n---\nA\n",
                       "deploy_notes.md": "---\nname: b\ndescription: d\ntype: project\n---\nB\n"}), "engramory", "claude-code")
    if target == "mm":
        src.notes[0].slug, src.notes[1].slug = "Deploy Notes", "Deploy(Notes)"
    plan = convert.plan_conversion(src, tmp_path / "o", target, profile)
    assert not plan.ok and not (tmp_path / "o").exists()
    r = plan.refusals[0]
    assert r.code == "E_UNREPRESENTABLE" and r.field == "slug"
    assert "'deploy.notes.md'" in r.message and "'deploy_notes.md'" in r.message


@pytest.mark.parametrize("target,profile", [("mm", None), ("engramory", "claude-code"), ("engramory", "recall-v1"), ("workspace", None)])
@pytest.mark.parametrize("other", ["CAFÉ.md", unicodedata.normalize("NFD", "Café.md")], ids=["case", "nfd"])
def test_names_differing_only_by_case_or_normalisation_are_refused(store, tmp_path, target, profile, other):
    nfc = unicodedata.normalize("NFC", "Café.md")
    src = _read(store({"MEMORY.md": "# MEMORY.md\n\n> mm-kind: index\n",
                       "memories/" + nfc: "# x\n\none\n", "memories/" + other: "# y\n\ntwo\n"}), "mm")
    assert len(src.notes) == 2
    plan = convert.plan_conversion(src, tmp_path / "o", target, profile, CC_DEFAULTS if target == "engramory" else None)
    if profile == "recall-v1" and other == "CAFÉ.md":
        # recall-v1 names are Punycode of the NFC slug, lower-cased: 'É' and 'é' stay distinct
        assert plan.ok and sorted(p.name for p in (tmp_path / "o").iterdir()) == [
            ".mmlint-origin.json", "MEMORY.md", "reference-xn--caf-dma.md", "reference-xn--caf-pia.md"]
        return
    refusal = next(r for r in plan.refusals if r.code == "E_UNREPRESENTABLE")
    assert refusal.field == "slug"
    assert repr("memories/" + nfc) in refusal.message and repr("memories/" + other) in refusal.message
    assert not (tmp_path / "o").exists()


def test_path_claims_fold_case_and_normalisation():
    from mmlint.dialects import PathClaims, Unrepresentable

    claims = PathClaims()
    claims.claim("a/Café.md", "one")
    for clash in ("A/CAFÉ.md", unicodedata.normalize("NFD", "a/Café.md"), "a/café.md"):
        with pytest.raises(Unrepresentable) as exc:
            claims.claim(clash, "two")
        assert "'one'" in exc.value.reason and "'two'" in exc.value.reason
    assert claims.claim("a/Cafe.md", "three") == "a/Cafe.md"


def test_upstream_requires_dates_unless_defaulted(tmp_path):
    src = _read(FIXTURES / "mm/basic/store", "mm")
    plan = convert.plan_conversion(src, tmp_path / "o", "engramory", "upstream", {"type": "project"})
    assert sorted({(r.field, r.code) for r in plan.refusals}) == [("created", "E_REQUIRED")]
    assert "--default created=VALUE" in plan.refusals[0].message and plan.refusals[0].path == "memories/Deploy.Notes_v2.md"
    plan = convert.plan_conversion(src, tmp_path / "o", "engramory", "upstream",
                                   {"type": "project", "created": "2026-01-01", "updated": "2026-01-02"})
    assert plan.ok, [r.message for r in plan.refusals]
    # mm's own `updated` is kept: a default fills only the notes that lack the field
    assert ("memories/alpha.md", "created", "2026-01-01") in plan.fills
    assert not [f for f in plan.fills if f[1] == "updated"]


@pytest.mark.parametrize("target,profile", [("engramory", "claude-code"), ("engramory", "upstream"), ("workspace", None)])
def test_a_carried_category_never_leads_out_of_dst(store, tmp_path, target, profile):
    root = store({"MEMORY.md": "# MEMORY.md\n\n> mm-kind: index\n## a\n- **summary:** s\n- **mmlint-category:** ../../evil\n"
                               "- **file:** memories/a.md\n", "memories/a.md": "# a\n\n> mm-topic: a\n\nbody\n"})
    src = _read(root, "mm")
    assert src.notes[0].category == ("..", "..", "evil")
    plan = convert.plan_conversion(src, tmp_path / "deep" / "o", target, profile, {**CC_DEFAULTS, "created": "x", "updated": "y"})
    assert [(r.code, r.path, r.field) for r in plan.refusals] == [("E_UNREPRESENTABLE", "memories/a.md", "category")]
    assert [p.name for p in tmp_path.iterdir()] == ["store1"] and not list(tmp_path.rglob("evil"))


def test_no_writer_output_leaves_dst():
    from mmlint.convert.policy import unsafe_path as _unsafe

    for bad in ("", "/x.md", "a/../../x.md", "..", "a//b.md", "./a.md", "C:x.md", "a\\b.md"):
        assert _unsafe(bad), bad
    assert not _unsafe(".mmlint-aux/README.md") and not _unsafe("项目约定/提交.md")


def test_a_slug_that_needs_json_comes_back_from_mm(store, tmp_path):
    src = _ws(store, {"[draft] {v2}.md": "---\ntitle: x\n---\nbody\n"})
    _, _, back = _round_trip(src, tmp_path, "mm")
    assert [n.slug for n in back.notes] == ["[draft] {v2}"]
    assert '- **mmlint-slug:** "[draft] {v2}"' in (tmp_path / "b" / "MEMORY.md").read_text()


@pytest.mark.parametrize("name,field,why", [
    ("a:b", "slug", "':'"), ("CON", "slug", "reserved Windows device name"), ("trailing.", "slug", "ends with a dot"),
    ("x" * 65, "slug", "65 characters"),
])
def test_workspace_file_names_obey_the_segment_rules(store, tmp_path, name, field, why):
    root = store({"MEMORY.md": "# Memory Index\n", f"{name}.md": "---\nname: n\ndescription: d\ntype: user\n---\nbody\n"})
    plan = convert.plan_conversion(_read(root, "engramory", "claude-code"), tmp_path / "o", "workspace")
    r = plan.refusals[0]
    assert (r.code, r.path, r.field) == ("E_UNREPRESENTABLE", f"{name}.md", field) and why in r.message
    assert not (tmp_path / "o").exists()


def test_workspace_refuses_a_category_deeper_than_three(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n", "a/b/c/d/n.md": "---\nname: n\ndescription: d\ntype: user\n---\nbody\n"})
    plan = convert.plan_conversion(_read(root, "engramory", "claude-code"), tmp_path / "o", "workspace")
    r = plan.refusals[0]
    assert (r.code, r.path, r.field) == ("E_UNREPRESENTABLE", "a/b/c/d/n.md", "category") and "4 folders deep" in r.message


def test_a_dot_dot_note_name_is_refused_once_in_plain_words(tmp_path):
    # '...md' has the slug '..': the refusal said "slug: name '..' '..' is not a name"
    from conftest import make_store

    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n- [A](...md) — h\n",
                                       "...md": "---\nname: a\ndescription: d\ntype: user\n---\n\nx\n"})
    plan = convert.plan_conversion(dialects.get("engramory").read(str(root), "claude-code"), str(tmp_path / "d"), "workspace")
    assert [(r.code, r.field, r.message) for r in plan.refusals] == [
        ("E_UNREPRESENTABLE", "slug", "name '..' is a path step ('.' or '..'), not a name")]
