"""Dialect and profile detection, and the detect command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import CORPUS, FIXTURES, needs_corpus
from mmlint import api


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("case,dialect,profile", [
    ("mm/basic", "mm", None),
    ("engramory/recall-v1", "engramory", "recall-v1"),
    ("engramory/upstream", "engramory", "upstream"),
    ("engramory/claude-code", "engramory", "claude-code"),
    ("workspace/basic", "workspace", None),
    ("workspace/plain-notes", "workspace", None),
])
def test_fixtures_are_detected(case, dialect, profile):
    name, prof, ev = api.choose(str(FIXTURES / case / "store"))
    assert (name, prof) == (dialect, profile)
    assert ev is not None and ev.reasons


@needs_corpus
def test_real_stores_detect_as_their_format():
    for root in sorted(CORPUS.glob("real/a-claude/*")):
        if (root / "MEMORY.md").exists():
            assert api.choose(str(root))[0] == "engramory", root
    assert api.choose(str(CORPUS / "real/b-mm/memory-standard-example"))[0] == "mm"


def test_detect_prints_dialect_profile_and_evidence():
    proc = run("detect", str(FIXTURES / "engramory/recall-v1/store"))
    assert proc.returncode == 0
    assert "engramory (profile recall-v1)" in proc.stdout
    assert "ledger .engramory-recall.jsonl" in proc.stdout


def test_detect_json():
    proc = run("detect", str(FIXTURES / "mm/basic/store"), "--format", "json")
    doc = json.loads(proc.stdout)
    assert doc["dialect"] == "mm" and doc["profile"] is None and doc["evidence"]


def test_unknown_store_exits_2(store):
    root = store({"notes.txt": "hello"})
    proc = run("detect", str(root))
    assert proc.returncode == 2
    assert "not a recognisable memory store" in proc.stderr
    assert "--dialect" in proc.stderr


def test_ambiguous_store_exits_2(store):
    # Equal evidence for mm (header lines) and workspace (projection title).
    root = store({"MEMORY.md": "# 记忆索引\n\n> mm-kind: index\n"})
    proc = run("detect", str(root))
    assert proc.returncode == 2
    assert "ambiguous" in proc.stderr and "mm" in proc.stderr and "workspace" in proc.stderr


def test_dialect_and_profile_override_detection():
    proc = run("detect", str(FIXTURES / "engramory/claude-code/store"), "--dialect", "engramory", "--profile", "upstream")
    assert proc.returncode == 0 and "profile upstream" in proc.stdout
    proc = run("check", str(FIXTURES / "engramory/claude-code/store"), "--profile", "upstream", "--format", "json")
    ids = {d["rule"]["id"] for d in json.loads(proc.stdout)["diagnostics"]}
    assert "F111" in ids  # upstream requires created/updated, which claude-code notes lack


def test_unknown_dialect_or_profile_is_a_usage_error():
    proc = run("detect", str(FIXTURES / "mm/basic/store"), "--dialect", "nope")
    assert proc.returncode == 2 and "known dialects: mm, engramory, workspace" in proc.stderr
    proc = run("check", str(FIXTURES / "mm/basic/store"), "--dialect", "engramory", "--profile", "nope")
    assert proc.returncode == 2 and "recall-v1, upstream, claude-code" in proc.stderr


# Third-party dialects: the entry-point group mmlint.dialects. Package
# metadata costs ~50 ms to scan, so it is read only when a distribution on
# sys.path declares a dialect outside the built-ins (issue 9: 12 of the 29
# real stores detect inconclusively and paid for the scan on every check).

PLUGIN = '''
from mmlint.dialects import Evidence
NAME = "plug"
PROFILES = ()
DEFAULT_PROFILE = None
INDEX_CAPS = {}
def detect(root):
    import os
    if os.path.exists(os.path.join(root, "PLUG")):
        return Evidence("plug", None, 50, ["PLUG marks a plug store"])
    return None
'''


def _plugin_path(root, entry_points: str):
    """A folder for sys.path holding one distribution (``plug-1.0.dist-info``
    with ``entry_points`` as its entry_points.txt) and the module it names."""
    dist = root / "plug-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plug\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(entry_points)
    (root / "plugdialect.py").write_text(PLUGIN)
    return root


def _in_child(code: str, path=None) -> str:
    import os

    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def _small_store(root):
    from conftest import make_store

    return make_store(root, {"MEMORY.md": "# Memory Index\n\n## user\n- [A](user-a.md) - h\n",
                             "user-a.md": "---\nname: a\ndescription: d\ntype: user\n---\n\nA fact.\n"})


def test_an_inconclusive_store_reads_no_package_metadata_when_no_plugin_is_installed(tmp_path):
    store = _small_store(tmp_path / "s")
    code = ("import sys, mmlint.dialects as D\n"
            f"ev = D.detect({str(store)!r})\n"
            "assert ev and ev[0].score < D.CONCLUSIVE, ev  # the scan would have run\n"
            "print(ev[0].dialect, 'importlib.metadata' in sys.modules, D.names())")
    assert _in_child(code) == "engramory False ['mm', 'engramory', 'workspace']"


def test_a_third_party_dialect_declared_in_a_dist_info_is_found_and_detected(tmp_path):
    path = _plugin_path(tmp_path / "site", "[console_scripts]\nplug = x:y\n\n[mmlint.dialects]\nplug = plugdialect\n")
    store = _small_store(tmp_path / "s")
    (store / "PLUG").write_text("")
    code = ("import mmlint.dialects as D\n"
            f"print(D.names()[-1], D.detect({str(store)!r})[0].dialect)")
    assert _in_child(code, path) == "plug plug"


@pytest.mark.parametrize("text,other", [
    ("[mmlint.dialects]\nmm = mmlint.dialects.mm\nengramory = mmlint.dialects.engramory\n", False),
    ("[console_scripts]\nplug = plugdialect\n", False),  # another group
    ("[mmlint.dialectsx]\nplug = plugdialect\n", False),
    ("[mmlint.dialects]\n# plug = plugdialect\n", False),
    ("[mmlint.dialects]\nplug=plugdialect\n", True),
    ("[console_scripts]\na = b:c\n[mmlint.dialects]\n  plug = plugdialect\n[other]\n", True),
    # as importlib.metadata's own parser reads them (found by review)
    ("[[mmlint.dialects]]\nplug = plugdialect\n", True),  # the brackets are stripped, all of them
    ("[mmlint.dialects]\n;plug = plugdialect\n", True),  # only '#' opens a comment: a dialect named ';plug'
    ("[mmlint.dialects]\n[not a header\nplug = plugdialect\n", True),  # no closing ']': an entry, not a section
    ("[ mmlint.dialects ]\nplug = plugdialect\n", False),  # a group named ' mmlint.dialects '
    ("\ufeff[mmlint.dialects]\nplug = plugdialect\n", False),  # read as UTF-8 text: the BOM stays, no header
])
def test_an_entry_points_file_declares_another_dialect_only_under_the_group(tmp_path, text, other):
    from mmlint import dialects

    (tmp_path / "entry_points.txt").write_text(text)
    assert dialects._declares_other(str(tmp_path / "entry_points.txt")) is other
    assert dialects._declares_other(str(tmp_path / "absent.txt")) is False


def test_what_the_metadata_scan_cannot_see_still_asks_importlib_metadata(tmp_path, monkeypatch):
    from mmlint import dialects

    monkeypatch.setattr(sys, "path", [str(tmp_path / "none")])
    assert dialects._declared_elsewhere() is False
    for entry in ("lib.zip", "thing-1.0.egg"):
        (tmp_path / entry).write_bytes(b"PK")
        monkeypatch.setattr(sys, "path", [str(tmp_path / entry)])
        assert dialects._declared_elsewhere() is True, entry
    monkeypatch.setattr(sys, "path", [str(_plugin_path(tmp_path / "site", "[mmlint.dialects]\nplug = plugdialect\n"))])
    assert dialects._declared_elsewhere() is True

    # names are matched case-insensitively, as importlib.metadata matches them
    monkeypatch.setattr(sys, "path", [str(_plugin_path(tmp_path / "upper", "[mmlint.dialects]\nplug = plugdialect\n"))])
    (tmp_path / "upper" / "plug-1.0.dist-info").rename(tmp_path / "upper" / "Plug-1.0.DIST-INFO")
    assert dialects._declared_elsewhere() is True
    # an entry that is not a str (a pathlib.Path; importlib.metadata takes it): no crash, importlib decides
    monkeypatch.setattr(sys, "path", [tmp_path / "none"])
    assert dialects._declared_elsewhere() is True
    dialects._entry_points.cache_clear()
    try:
        assert dialects.names()[:3] == ["mm", "engramory", "workspace"]
    finally:
        dialects._entry_points.cache_clear()

    class Finder:
        @staticmethod
        def find_distributions(*args, **kwargs):
            return iter(())

    monkeypatch.setattr(sys, "path", [])
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    assert dialects._declared_elsewhere() is True
