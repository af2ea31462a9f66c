"""``--format junit``: JUnit XML as Jenkins and GitLab read it.

One ``<testsuite>`` per store, one ``<testcase>`` per checked file (the index,
every note, and any other file a diagnostic names), one ``<failure>`` per
diagnostic with ``type`` = rule code and ``message`` = the message. The counts
on ``<testsuites>`` and ``<testsuite>`` must match the children, and hostile
text must leave the XML well formed.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import fixed_result

from mmlint import reporters
from mmlint.api import CheckResult


def render(result=None) -> str:
    buf = io.StringIO()
    reporters.get("junit").report(result or fixed_result.build(), buf, fixed_result.CWD)
    return buf.getvalue()


def assert_counts(root: ET.Element) -> None:
    assert root.tag == "testsuites"
    total = {"tests": 0, "failures": 0}
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        failing = [c for c in cases if c.find("failure") is not None]
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == len(failing)
        assert int(suite.get("errors")) == 0 and int(suite.get("skipped")) == 0
        total["tests"] += len(cases)
        total["failures"] += len(failing)
    assert int(root.get("tests")) == total["tests"]
    assert int(root.get("failures")) == total["failures"]
    assert int(root.get("errors")) == 0


def test_structure_and_counts():
    out = render()
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.encode("utf-8")
    root = ET.fromstring(out.encode("utf-8"))
    assert_counts(root)
    result = fixed_result.build()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["memory", "docs/mm-store"]
    assert [int(s.get("tests")) for s in suites] == [res.files for res in result.stores]
    failures = root.findall("testsuite/testcase/failure")
    items = reporters.located(result, fixed_result.CWD)
    failing = [x for x in items if x.diagnostic.severity != "info"]
    assert len(failures) == len(failing) and len(failing) < len(items)
    assert sorted((f.get("type"), f.get("message")) for f in failures) == \
        sorted((x.diagnostic.code, x.diagnostic.message) for x in failing)
    outs = "\n".join(o.text for o in root.iter("system-out"))
    assert all(x.diagnostic.message in outs for x in items if x.diagnostic.severity == "info")


def test_clean_file_is_a_passing_testcase():
    root = ET.fromstring(render().encode("utf-8"))
    case = [c for c in root.iter("testcase") if c.get("name") == "memory/clean.md"][0]
    assert list(case) == []
    assert case.get("classname") == "memory" and case.get("file") == "memory/clean.md"


def test_failure_carries_location_severity_and_hint():
    root = ET.fromstring(render().encode("utf-8"))
    case = [c for c in root.iter("testcase") if c.get("name") == "memory/MEMORY.md"][0]
    first = case.find("failure")
    assert first.get("type") == "P101"
    assert first.text == ("memory/MEMORY.md:3:10: P101 error no note at 'gone.md'\n"
                          "hint: create the note or remove the entry")
    assert [f.get("type") for f in case.findall("failure")] == ["P101"]
    assert "I105 info" in case.find("system-out").text  # info findings never fail the build


def test_hostile_name_is_escaped_and_well_formed():
    out = render()
    root = ET.fromstring(out.encode("utf-8"))
    case = [c for c in root.iter("testcase") if "forged" in c.get("name")][0]
    assert case.get("name") == "memory/100%: a,b\\nP101 error forged &<>\"'\\u2028\\xff.md"  # as --format text shows it
    assert len(case.findall("failure")) + len(case.findall("system-out")) >= 2
    assert "&lt;" in out and "&amp;" in out and "&quot;" in out


def test_xml_illegal_characters_in_messages_are_replaced():
    result = fixed_result.build()
    result.stores[0].diagnostics[0].message = "bell\x07 nul\x00 surrogate\udcfe nonchar\ufffe ok\u00e9"
    root = ET.fromstring(render(result).encode("utf-8"))
    msgs = [f.get("message") for f in root.iter("failure")]
    assert "bell\\x07 nul\\x00 surrogate\\xfe nonchar\\ufffe ok\u00e9" in msgs


def test_no_store_is_an_empty_report():
    root = ET.fromstring(render(CheckResult([])).encode("utf-8"))
    assert_counts(root)
    assert root.get("tests") == "0" and list(root) == []


def test_cli_hostile_names_on_disk_parse(store, tmp_path):
    names = ["100%: a,b\nforged.md", "&<>\"'.md", "tab\there\x01.md"]
    root = store({"MEMORY.md": "# Memory Index\n", **{n: "---\nname: x\n---\n" for n in names}})
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", "junit"],
                          capture_output=True, cwd=tmp_path, env=dict(os.environ, NO_COLOR="1"))
    assert proc.returncode == 1
    xml = ET.fromstring(proc.stdout)
    assert_counts(xml)
    assert int(xml.get("tests")) == 4 and int(xml.get("failures")) >= 1
