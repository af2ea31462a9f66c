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

from mmlint.reporters import Located, Reporter, escape_chars, located, store_path
from mmlint.textutil import safe_path_text

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

_XML_ILLEGAL = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids written as backslash
    text (:func:`mmlint.reporters.escape_chars`)."""
    return escape_chars(text, _XML_ILLEGAL)


def tree(result: Any, cwd: str) -> Any:
    """The ``<testsuites>`` element (:mod:`xml.etree.ElementTree`, indented)
    for a :class:`mmlint.api.CheckResult`; paths relative to ``cwd``."""
    import xml.etree.ElementTree as ET

    from mmlint.api import display_path
    from mmlint.model import Span

    files: dict[int, dict[str, list[Located]]] = {id(res): {} for res in result.stores}
    for x in located(result, cwd):
        files[id(x.store)].setdefault(x.path, []).append(x)
    root = ET.Element("testsuites", name="mmlint")
    tests = failing = 0
    for res in result.stores:
        found = files[id(res)]
        checked = [n.path for n in res.store.notes] + ([res.store.index.path] if res.store.index is not None else [])
        for p in checked:
            found.setdefault(display_path(res.found.path, Span(p), cwd), [])
        where = xml_text(safe_path_text(store_path(res, cwd)))
        suite = ET.SubElement(root, "testsuite", name=where)
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="dialect", value=res.dialect)
        if res.profile:
            ET.SubElement(props, "property", name="profile", value=res.profile)
        for path in sorted(found):
            shown = xml_text(safe_path_text(path))
            case = ET.SubElement(suite, "testcase", classname=where, name=shown, file=shown)
            notes = []
            for x in found[path]:
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
        bad = sum(1 for p in found if any(x.diagnostic.severity != "info" for x in found[p]))
        suite.attrib.update(tests=str(len(found)), failures=str(bad), errors="0", skipped="0")
        tests, failing = tests + len(found), failing + bad
    root.attrib.update(tests=str(tests), failures=str(failing), errors="0")
    ET.indent(root)
    return root


class JunitReporter(Reporter):
    """Writes :func:`tree` with an XML declaration."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the JUnit XML for ``result`` and a final newline to ``stream``."""
        import xml.etree.ElementTree as ET

        stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        stream.write(ET.tostring(tree(result, cwd), encoding="unicode"))
        stream.write("\n")
