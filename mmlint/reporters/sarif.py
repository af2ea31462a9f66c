"""``--format sarif``: a SARIF 2.1.0 log as GitHub code scanning accepts it.

One run. ``tool.driver`` names mmlint and its version (plus
``informationUri`` when the project declares a home page: :data:`HOMEPAGE`) and
lists, sorted by code, every rule that produced a result: ``id`` (the code),
``name``, ``shortDescription`` (the doc's first paragraph),
``fullDescription`` and ``help.text`` (the whole doc as plain text, no RST
markup), each at most 1,024 characters, ``help.markdown`` (the doc as
markdown, as ``docs/rules.md`` shows it), ``helpUri`` (the rule's section of
``docs/rules.md``: under the declared home page when there is one, else
relative to the repository) and ``defaultConfiguration.level`` from the
rule's default severity. Severities map error -> ``error``, warning -> ``warning``, info ->
``note``; a result's ``level`` is its stamped severity.

Each result has ``ruleId``, ``ruleIndex`` (into ``driver.rules``), ``level``,
``message.text`` (the message, then ``hint: ...`` on a second line when the
rule gave one; ``properties.hint`` holds the hint alone) and one location: the path relative to the current directory
as a percent-encoded relative URI, and a region with 1-based ``startLine``
and ``startColumn``, plus ``endLine``/``endColumn`` (end column exclusive)
when the rule gave them; without them SARIF readers take the region to run to
the end of the line, rather than an empty region at the start. Columns count
code points (``run.columnKind`` is ``unicodeCodePoints``).

``partialFingerprints.primaryLocationLineHash`` is ``<16 hex digits>:<n>``:
a SHA-256 of the rule code, the path, the offending line's text with its
whitespace collapsed, and the message with every run of digits read as one
``0``; never the line number, so an alert survives edits elsewhere in the file
(some messages cite other lines or counts: "already pointed at on line 6",
"index has 249 lines"). ``n`` counts results with the same hash
in report order, which keeps repeated identical lines apart. The line text is
taken from the bytes the store was read from, not re-read from disk.
"""

from __future__ import annotations

import re

from mmlint import __version__
from mmlint.digest import sha256_hex
from mmlint.reporters import Located, Reporter, located
from mmlint.reporters.json import array_pieces, indented_at

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterator, TextIO

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
#: GitHub's cap on each description text, in characters.
TEXT_MAX = 1024
_DIGITS = re.compile(r"[0-9]+")


def _bounded(text: str) -> str:
    return text if len(text) <= TEXT_MAX else text[:TEXT_MAX - 3] + "..."


#: Where the rule docs live in the repository.
RULES_DOC = "docs/rules.md"


def help_uri(rule: Any, homepage: str | None = None) -> str:
    """The URI of ``rule``'s section of ``docs/rules.md``."""
    from mmlint.ruledocs import anchor

    base = f"{homepage.rstrip('/')}/blob/main/{RULES_DOC}" if homepage else RULES_DOC
    return f"{base}#{anchor(rule)}"


def rule_descriptor(rule: Any, homepage: str | None = None) -> dict[str, Any]:
    """The SARIF ``reportingDescriptor`` for a :class:`mmlint.rules.Rule`
    (``homepage``: the package's declared home page, for ``helpUri``)."""
    from mmlint.ruledocs import explain, plain, to_markdown

    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _bounded(plain(rule.summary))},
        "fullDescription": {"text": _bounded(explain(rule).rstrip("\n"))},
        "help": {"text": _bounded(explain(rule).rstrip("\n")), "markdown": explain(rule, to_markdown).rstrip("\n")},
        "helpUri": help_uri(rule, homepage),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }


#: The project's home page: the log's ``informationUri`` and the base of
#: each rule's ``helpUri``. ``[project.urls] Homepage`` of pyproject.toml,
#: which a test holds equal to it; ``None`` while the project declares none.
#: (Asking the installed package's metadata, with :mod:`importlib.metadata`,
#: took ~40 ms and 7 MiB of every SARIF report.)
HOMEPAGE: str | None = None


#: The bytes a URI path keeps as they are: RFC 3986's unreserved set and ``/``.
_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")


def _uri(path: str) -> str:
    """A display path as a relative URI reference: every byte of its UTF-8
    (undecodable bytes as they were read) outside the unreserved set and
    ``/`` percent-encoded as ``%XX`` (``urllib.parse.quote(..., safe="/")``;
    :mod:`urllib.parse` imports :mod:`ipaddress`, ~2.5 ms of a report)."""
    data = path.encode("utf-8", "surrogateescape")
    if _URI_SAFE.issuperset(data):
        return path
    return "".join(chr(b) if b in _URI_SAFE else f"%{b:02X}" for b in data)


def fingerprint(code: str, path: str, line_text: str, message: str) -> str:
    """16 hex digits of SHA-256 over the code, the path, the line text with
    whitespace collapsed and the message with digit runs masked (see module
    docs)."""
    key = "\0".join((code, path, " ".join(line_text.split()), _DIGITS.sub("0", message)))
    return sha256_hex(key.encode("utf-8", "surrogateescape"))[:16]


def document(result: Any, cwd: str) -> dict[str, Any]:
    """The SARIF log for a :class:`mmlint.api.CheckResult` as a dict.

    Raises:
        KeyError: a diagnostic whose code is not a registered rule.
    """
    items = located(result, cwd)
    codes = sorted({x.diagnostic.code for x in items})
    head = _head(codes)
    head["runs"][0]["results"] = list(_results(items, codes))
    return head


def _head(codes: list[str]) -> dict[str, Any]:
    """The log without results (``"results": []``, its last key): the
    driver lists the rules of ``codes`` (sorted)."""
    from mmlint import rules

    registry = rules.load()
    driver: dict[str, Any] = {"name": "mmlint", "version": __version__}
    homepage = HOMEPAGE  # read when a log is made: tests set it
    if homepage:
        driver["informationUri"] = homepage
    driver["rules"] = [rule_descriptor(registry[code], homepage) for code in codes]
    return {"$schema": SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": []}]}


def _results(items: list[Located], codes: list[str]) -> Iterator[dict[str, Any]]:
    """The result object of each of ``items``, in order, each made when it
    is asked for (``ruleIndex`` into ``codes``, the driver's rules)."""
    index = {code: i for i, code in enumerate(codes)}
    from mmlint.textutil import FileLines

    lines = FileLines()
    # how many results so far have each fingerprint: a fingerprint holds
    # the path and the items come file by file, so only this file's count
    # (20,000 results in 20,000 files kept ~3 MiB of counts)
    seen: dict[str, int] = {}
    path = None
    for item in items:
        if item.path != path:
            path, seen = item.path, {}
        d, s = item.diagnostic, item.diagnostic.span
        region = {"startLine": s.line, "startColumn": s.column}
        if s.end_line is not None:
            region["endLine"] = s.end_line
        if s.end_column is not None:
            region["endColumn"] = s.end_column
        fp = fingerprint(d.code, item.path, lines.line(item.store.store, item.diagnostic.span.path, item.diagnostic.span.line), d.message)
        seen[fp] = seen.get(fp, 0) + 1
        entry: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": LEVELS[d.severity],
            "message": {"text": d.message + (f"\nhint: {d.hint}" if d.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(item.path)},
                "region": region,
            }}],
            "partialFingerprints": {"primaryLocationLineHash": f"{fp}:{seen[fp]}"},
        }
        if d.hint:
            entry["properties"] = {"hint": d.hint}
        yield entry


#: How the log ends after its results (``indent=2``): the run, the runs, the log.
_TAIL = "\n    }\n  ]\n}"


class SarifReporter(Reporter):
    """Writes :func:`document` as indented JSON."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the SARIF log for ``result`` and a final newline to
        ``stream``: :func:`mmlint.reporters.json.dumps` of
        ``document(result, cwd)`` (``indent=2``), the same text, written a
        result at a time as each is made (20,000 results took ~190 MB as
        one document)."""
        items = located(result, cwd)
        codes = sorted({x.diagnostic.code for x in items})
        for part in array_pieces(indented_at(_head(codes), ""), _TAIL, _results(items, codes), "        "):
            stream.write(part)
        stream.write("\n")
