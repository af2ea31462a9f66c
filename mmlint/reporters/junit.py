"""``--format junit``: JUnit XML for Jenkins, GitLab and test-report actions.

Shape (counts always match the children)::

    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites name="mmlint" tests="6" failures="3" errors="0">
      <testsuite name="memory" tests="4" failures="2" errors="0" skipped="0">
        <properties><property name="dialect" value="engramory"/>...</properties>
        <testcase classname="memory" name="memory/MEMORY.md" file="memory/MEMORY.md">
          <failure type="P101" message="no note at 'gone.md'">memory/MEMORY.md:3:10: P101 error ...
    hint: ...</failure>
        </testcase>
        <testcase classname="memory" name="memory/clean.md" file="memory/clean.md"/>
      </testsuite>
    </testsuites>

One ``<testsuite>`` per store (named by its folder), one ``<testcase>`` per
checked file (the index, every note, and any other file a diagnostic names),
sorted by path; a file without diagnostics is a passing testcase. Each
error or warning is a ``<failure>`` of its file, in report order; info
findings go to the testcase's ``<system-out>`` so that they never turn a
build red. ``failures`` counts failing testcases. Paths are relative to the current
directory and shown as the text format shows them
(:func:`mmlint.textutil.safe_path_text`: a newline in a file name reads
``\\n``). Characters XML 1.0 cannot hold (controls, lone surrogates, U+FFFE,
U+FFFF) are written as ``\\xNN``/``\\uNNNN`` text; ElementTree escapes the rest.
"""

from __future__ import annotations

import re

from mmlint.reporters import Reporter, escape_chars, located, store_path
from mmlint.textutil import safe_path_text

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterator, TextIO

_XML_ILLEGAL = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids written as backslash
    text (:func:`mmlint.reporters.escape_chars`)."""
    return escape_chars(text, _XML_ILLEGAL)


#: The stand-in for a suite's test cases in the document's skeleton (as
#: ElementTree writes it: an attribute value never holds a raw ``<``).
_CASES = "mmlint-testcases"


def pieces(result: Any, cwd: str) -> Iterator[str]:
    """The ``<testsuites>`` document for a :class:`mmlint.api.CheckResult`
    (indented as :func:`xml.etree.ElementTree.indent` does; paths relative
    to ``cwd``), as consecutive strings: the suites' heads and ends, then
    one test case at a time, each made when it is asked for. At 20,000
    findings in 20,000 files the whole tree and its text took ~28 MB.

    Two passes over each store's files (:func:`_files`; the diagnostics
    are grouped by store once, unless one store has them all): the first counts
    them and the failing ones (a suite's attributes come before its
    cases), the second writes the cases. The skeleton (suites, properties,
    counts) is written by ElementTree with a stand-in element where the
    cases go, and each case by ElementTree too, so every value is escaped
    as ElementTree escapes it.
    """
    import xml.etree.ElementTree as ET

    from mmlint.results import display_paths

    items = located(result, cwd)
    full = {id(res) for res in result.stores if res.diagnostics}
    if len(full) > 1:  # each store's own, in order: not all of them for each store
        mine: dict[int, Any] = {}
        for x in items:
            mine.setdefault(id(x.store), []).append(x)
    else:  # one store has them all (located() may give them one at a time)
        mine = {k: items for k in full}
    checked: dict[int, list[str]] = {}  # store -> its files' display paths, sorted
    counts: dict[int, tuple[int, int]] = {}  # store -> (files, failing files)
    for res in result.stores:
        show = display_paths(res.found.path, cwd)
        paths = {show(n.path) for n in res.store.notes}
        if res.store.index is not None:
            paths.add(show(res.store.index.path))
        checked[id(res)] = sorted(paths)
        files = bad = 0
        for _, found in _files(checked[id(res)], mine.get(id(res), ())):
            files += 1
            bad += any(x.diagnostic.severity != "info" for x in found)
        counts[id(res)] = files, bad
    root = ET.Element("testsuites", name="mmlint")
    tests = failing = 0
    for res in result.stores:
        files, bad = counts[id(res)]
        suite = ET.SubElement(root, "testsuite", name=xml_text(safe_path_text(store_path(res, cwd))))
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="dialect", value=res.dialect)
        if res.profile:
            ET.SubElement(props, "property", name="profile", value=res.profile)
        if files:
            ET.SubElement(suite, _CASES)
        suite.attrib.update(tests=str(files), failures=str(bad), errors="0", skipped="0")
        tests, failing = tests + files, failing + bad
    root.attrib.update(tests=str(tests), failures=str(failing), errors="0")
    ET.indent(root)
    skeleton = ET.tostring(root, encoding="unicode").split(f"<{_CASES} />")
    yield skeleton[0]
    at = 1
    for res in result.stores:
        left = counts[id(res)][0]
        if not left:
            continue
        where = xml_text(safe_path_text(store_path(res, cwd)))
        for path, found in _files(checked[id(res)], mine.get(id(res), ())):
            shown = xml_text(safe_path_text(path))
            case = ET.Element("testcase", classname=where, name=shown, file=shown)
            notes = []
            for x in found:
                d = x.diagnostic
                body = f"{shown}:{d.span.line}:{d.span.column}: {d.code} {d.severity} {xml_text(d.message)}"
                if d.hint:
                    body += f"\nhint: {xml_text(d.hint)}"
                if d.severity == "info":
                    notes.append(body)
                else:
                    ET.SubElement(case, "failure", type=d.code, message=xml_text(d.message)).text = body
            if notes:
                ET.SubElement(case, "system-out").text = "\n".join(notes)
            if len(case):  # ET.indent(case, level=2), which leaves a reference cycle a call (the collector is off)
                case.text = "\n      "
                for child in case:
                    child.tail = "\n      "
                child.tail = "\n    "
            left -= 1
            case.tail = "\n    " if left else None  # the last one's is the stand-in's
            yield ET.tostring(case, encoding="unicode")
        yield skeleton[at]
        at += 1


def _files(checked: list[str], items: Any) -> Iterator[tuple[str, list[Any]]]:
    """``(display path, its diagnostics)`` for every file of one store,
    sorted by path: the files it checked (``checked``, sorted) and every
    other file one of its diagnostics names. ``items``: its
    :func:`~mmlint.reporters.located` items, sorted by path."""
    ahead = iter(checked)
    have = next(ahead, None)
    path, found = None, []
    for x in items:
        if x.path != path:
            if path is not None:
                yield path, found
            while have is not None and have < x.path:
                yield have, []
                have = next(ahead, None)
            if have == x.path:
                have = next(ahead, None)
            path, found = x.path, []
        found.append(x)
    if path is not None:
        yield path, found
    while have is not None:
        yield have, []
        have = next(ahead, None)


class JunitReporter(Reporter):
    """Writes :func:`pieces` after an XML declaration."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the JUnit XML for ``result`` and a final newline to ``stream``."""
        stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        for part in pieces(result, cwd):
            stream.write(part)
        stream.write("\n")
