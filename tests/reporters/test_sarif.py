"""``--format sarif``: the shape GitHub code scanning requires, checked by hand.

GitHub's rules (see ../shared/research/linter-anchors.md §2.1): SARIF
``version`` 2.1.0 with a ``$schema``, one run per tool, ``tool.driver.name``,
every rule a result names listed in ``driver.rules`` with ``id`` and the
description texts (non-empty, at most 1,024 characters), ``ruleIndex`` pointing
at that rule, ``level`` one of error/warning/note, at least one location with
a relative URI and a region whose lines start at 1, and ``partialFingerprints``
so alerts are matched across runs.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote_to_bytes

import fixed_result
import pytest
from conftest import CORPUS, needs_corpus
from hypothesis import given
from hypothesis import strategies as st

from mmlint import __version__, reporters, rules
from mmlint.api import CheckResult
from mmlint.reporters import sarif
from mmlint.reporters.sarif import rule_descriptor
from mmlint.ruledocs import plain

LEVELS = {"error": "error", "warning": "warning", "info": "note"}
#: RFC 3986 characters a relative-path reference may hold once percent-encoded.
URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$")


FIXTURE = Path(__file__).resolve().parents[2] / "mmlint" / "example" / "store"


def render(result=None) -> dict:
    buf = io.StringIO()
    reporters.get("sarif").report(result or fixed_result.build(), buf, fixed_result.CWD)
    return json.loads(buf.getvalue())


def assert_github_shape(log: dict) -> None:
    """Every property GitHub code scanning requires, with the constraints it states."""
    assert log["version"] == "2.1.0"
    assert log["$schema"].startswith("https://") and "sarif" in log["$schema"]
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "mmlint"
    assert driver["version"] == __version__
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids))
    for r in driver["rules"]:
        for key in ("shortDescription", "fullDescription", "help"):
            assert 0 < len(r[key]["text"]) <= 1024, (r["id"], key)
        assert 0 < len(r["name"]) <= 255
        assert r["defaultConfiguration"]["level"] in {"error", "warning", "note"}
    assert isinstance(run["results"], list)
    for res in run["results"]:
        assert res["ruleId"] in ids
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in {"error", "warning", "note"}
        assert res["message"]["text"]
        loc = res["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        assert URI_CHARS.match(uri) and not uri.startswith("/") and "\\" not in uri, uri
        region = loc["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert region.get("endLine", region["startLine"]) >= region["startLine"] and region.get("endColumn", 1) >= 1
        fps = res["partialFingerprints"]
        assert fps and all(isinstance(v, str) and v for v in fps.values())


def test_fixed_result_has_the_github_shape():
    assert_github_shape(render())


def test_rules_listed_are_exactly_those_that_fired_with_their_defaults():
    log = render()
    driver = log["runs"][0]["tool"]["driver"]
    registry = rules.load()
    fired = sorted({d.code for res in fixed_result.build().stores for d in res.diagnostics})
    assert [r["id"] for r in driver["rules"]] == fired
    for r in driver["rules"]:
        rule = registry[r["id"]]
        assert r["name"] == rule.name
        assert r["defaultConfiguration"]["level"] == LEVELS[rule.severity]
        assert r["shortDescription"]["text"].startswith(plain(rule.summary))
        assert "``" not in r["help"]["text"] and "``" not in r["fullDescription"]["text"]  # plain text, no RST
        assert r["help"]["markdown"].startswith(f"{rule.code} {rule.name}")
        assert r["helpUri"].endswith(f"docs/rules.md#{rule.code.lower()}-{rule.name}")


def test_results_follow_the_diagnostics():
    results = render()["runs"][0]["results"]
    items = reporters.located(fixed_result.build(), fixed_result.CWD)
    assert len(results) == len(items)
    for res, item in zip(results, items):
        d = item.diagnostic
        assert res["ruleId"] == d.code
        assert res["message"]["text"] == d.message + (f"\nhint: {d.hint}" if d.hint else "")
        assert res.get("properties", {}).get("hint") == d.hint
        assert res["level"] == LEVELS[d.severity]  # the stamped severity, not the rule default
        loc = res["locations"][0]["physicalLocation"]
        assert unquote_to_bytes(loc["artifactLocation"]["uri"]) == item.path.encode("utf-8", "surrogateescape")
        region = loc["region"]
        assert (region["startLine"], region["startColumn"]) == (d.span.line, d.span.column)
        assert (region.get("endLine"), region.get("endColumn")) == (d.span.end_line, d.span.end_column)
    assert render()["runs"][0]["columnKind"] == "unicodeCodePoints"


def test_severity_override_keeps_the_rule_default():
    log = render()
    p109 = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "P109"][0]
    assert p109["defaultConfiguration"]["level"] == "note"
    assert [r["level"] for r in log["runs"][0]["results"] if r["ruleId"] == "P109"] == ["warning"]


def test_fingerprints_are_unique_and_count_repeated_lines():
    results = render()["runs"][0]["results"]
    fps = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results]
    assert len(set(fps)) == len(fps)
    i105 = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results if r["ruleId"] == "I105"]
    # "see the wiki" and "see   the wiki" normalise to the same text: same hash, occurrences 1 and 2
    assert [fp.split(":")[0] for fp in i105] == [i105[0].split(":")[0]] * 2
    assert [fp.split(":")[1] for fp in i105] == ["1", "2"]


def test_information_uri_is_the_declared_homepage(monkeypatch):
    assert "informationUri" not in render()["runs"][0]["tool"]["driver"]  # this checkout declares none
    monkeypatch.setattr(sarif, "HOMEPAGE", "https://example.org/mmlint")
    driver = render()["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.org/mmlint"
    assert all(r["helpUri"].startswith("https://example.org/mmlint/blob/main/docs/rules.md#") for r in driver["rules"])


def test_homepage_is_the_one_pyproject_declares():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later

    with open(Path(__file__).resolve().parents[2] / "pyproject.toml", "rb") as fh:
        project = tomllib.load(fh)["project"]
    urls = {k.lower(): v for k, v in project.get("urls", {}).items()}
    assert sarif.HOMEPAGE == urls.get("homepage")


def test_a_report_loads_neither_openssl_nor_package_metadata(tmp_path):
    """hashlib (libcrypto: +3.8 MiB), importlib.metadata (~40 ms, +7 MiB)
    and urllib.parse (ipaddress: ~2.5 ms) were each imported by every SARIF
    report."""
    import subprocess
    import sys

    names = ("hashlib", "_hashlib", "importlib.metadata", "email", "urllib.parse")
    code = (f"import io, sys; names = {names!r}; had = {{m for m in names if m in sys.modules}}; "  # an editable install's finder imports some at start-up
            "from mmlint import api; from mmlint.reporters import sarif; "
            f"sarif.SarifReporter().report(api.check([{str(FIXTURE)!r}]), io.StringIO(), '/'); "
            "print(sorted(m for m in names if m in sys.modules and m not in had))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_diagnostics_is_still_a_valid_log():
    log = render(CheckResult([]))
    assert_github_shape(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_long_rule_doc_is_bounded():
    rule = rules.Rule("X999", "long-doc", "info", None, None, "test", None, "Summary line.\n\n" + "word " * 1000)
    d = rule_descriptor(rule)
    for key in ("shortDescription", "fullDescription", "help"):
        assert len(d[key]["text"]) <= 1024
    assert d["fullDescription"]["text"].endswith("...")
    assert d["shortDescription"]["text"] == "Summary line."


def test_rule_summary_spanning_two_doc_lines_is_kept_whole():
    d = rule_descriptor(rules.load()["N103"])
    assert d["shortDescription"]["text"] == ("A note's 'name:' differs from its file name beyond the tolerated "
                                             "differences (case, '_' vs '-', a type prefix matching 'type').")
    assert "`_` vs `-`" in d["help"]["markdown"]


def sarif_check(root, cwd) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", "sarif"],
                          capture_output=True, text=True, cwd=cwd, env=dict(os.environ, NO_COLOR="1"))
    assert proc.returncode in (0, 1), proc.stderr
    log = json.loads(proc.stdout)
    assert_github_shape(log)
    return log["runs"][0]["results"]


@needs_corpus
def test_fingerprints_survive_a_blank_line_inserted_above_the_findings(tmp_path):
    root = tmp_path / "js2-ts2wasm"
    shutil.copytree(CORPUS / "real" / "a-claude" / "js2-ts2wasm", root)
    before = sarif_check(root, tmp_path)
    index = root / "MEMORY.md"
    first = min(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in before
                if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("MEMORY.md"))
    lines = index.read_bytes().split(b"\n")
    index.write_bytes(b"\n".join(lines[:first - 1] + [b""] + lines[first - 1:]))
    after = sarif_check(root, tmp_path)

    def key(r):  # messages may cite line numbers ("already pointed at on line 6"): not part of the key
        return r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]

    def line(r):
        return r["locations"][0]["physicalLocation"]["region"]["startLine"]

    assert len(before) == len(after) and any(key(r)[1].endswith("MEMORY.md") for r in before)
    assert any(re.search("line [0-9]", r["message"]["text"]) for r in before)  # the hard case is covered
    for b, a in zip(before, after):
        assert key(b) == key(a)
        assert a["partialFingerprints"] == b["partialFingerprints"]
        assert line(a) == line(b) + (1 if key(b)[1].endswith("MEMORY.md") else 0)


@needs_corpus
def test_real_store_has_the_github_shape(tmp_path):
    results = sarif_check(CORPUS / "real" / "a-claude" / "testbench-gb300", tmp_path)
    assert {r["ruleId"] for r in results} == {"P106", "P109", "H105"}  # H105: two hooks drifted from their descriptions
    assert {r["level"] for r in results} == {"error", "note"}


def test_hostile_file_names_on_disk(store, tmp_path):
    name = "100%: a,b\nP101 forged &<>\"'.md"
    root = store({"MEMORY.md": "# Memory Index\n", name: "---\nname: x\n---\n"})
    results = sarif_check(root, tmp_path)
    uris = {unquote_to_bytes(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results}
    assert f"{root.name}/{name}".encode() in uris


def test_the_log_is_written_a_result_at_a_time(tmp_path):
    """The log is the one :func:`sarif.document` dumps, written as each
    result is made: 4,000 results to a stream that keeps nothing allocate
    less than half their text (the whole document was built first: ~190 MB
    for 20,000 results), and each file's lines are split once and not kept."""
    import tracemalloc

    from many import Sink, many_diagnostics

    from mmlint.reporters import sarif
    from mmlint.reporters.json import dumps

    big = many_diagnostics(tmp_path, notes=40)
    whole = Sink(keep=True)
    sarif.SarifReporter().report(big, whole, str(tmp_path))
    assert "".join(whole.parts) == dumps(sarif.document(big, str(tmp_path)), indent=2) + "\n"
    tracemalloc.start()
    try:
        sarif.SarifReporter().report(big, Sink(), str(tmp_path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < whole.size / 2, (peak, whole.size)


@given(st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")))
def test_uri_is_urllib_quote(path):
    from urllib.parse import quote

    assert sarif._uri(path) == quote(path.encode("utf-8", "surrogateescape"), safe="/")
