"""``--format json``: one ``mmlint.diagnostics/1`` object (../shared/DESIGN.md).

Shape::

    {"format": "mmlint.diagnostics/1",
     "tool": {"name": "mmlint", "version": "0.1.0"},
     "summary": {"files": 3, "errors": 1, "warnings": 0, "infos": 2},
     "diagnostics": [{"rule": {"id": "P101", "name": "dangling-pointer"},
                      "severity": "error", "path": "store/MEMORY.md",
                      "range": {"start": {"line": 3, "column": 12},
                                "end": {"line": 3, "column": 24}},
                      "message": "...", "hint": "..." | null, "fix": null}]}

``hint`` (what to do about it, or ``null``) was added to the DESIGN shape;
consumers that ignore unknown keys read it unchanged. Paths are POSIX and
relative to the current directory; diagnostics are sorted by path, then
line, then column, then rule id. Lines and columns are 1-based,
columns count code points. The text is UTF-8 (see :func:`dumps` for the few
characters written as ``\\u`` escapes).
"""

from __future__ import annotations

from mmlint import __version__
from mmlint.reporters import Located, Reporter, located
from mmlint.textutil import lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator, TextIO

FORMAT_ID = "mmlint.diagnostics/1"

#: Characters ``json.dumps(ensure_ascii=False)`` leaves raw but a consumer may
#: choke on: NEL and U+2028/U+2029 (line breaks to ``str.splitlines`` and to
#: JavaScript before ES2019) and lone surrogates (a file-name byte that is not
#: UTF-8, see :func:`mmlint.textutil.decode`), which no UTF-8 encoder accepts.
#: Every one is outside ASCII: compiled for the first non-ASCII text (~0.9 ms).
_RAW_UNSAFE = lazy_re("[\x85\u2028\u2029\ud800-\udfff]")


def dumps(obj: Any, indent: int | None = None) -> str:
    """``obj`` as JSON text that encodes to UTF-8 and holds no line break
    besides the ``\\n`` of ``indent``.

    Non-ASCII text stays readable, as with ``ensure_ascii=False``, except the
    characters of :data:`_RAW_UNSAFE`, which are written as ``\\uXXXX``
    escapes; :func:`json.loads` gives back the exact original strings.
    """
    text = None
    if indent is not None and type(indent) is int:
        try:
            text = indented(obj, indent)
        except (_Unusual, RecursionError):
            text = None
    if text is None:
        import json

        text = json.dumps(obj, ensure_ascii=False, indent=indent)
    return _safe(text)


def _safe(text: str) -> str:
    """``text`` with the characters of :data:`_RAW_UNSAFE` as ``\\uXXXX`` escapes
    (each one alone, so a text may be escaped in pieces)."""
    if text.isascii():  # holds none of them
        return text
    return _RAW_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _Unusual(Exception):
    """A value :func:`indented` leaves to :func:`json.dumps`."""


def indented(obj: Any, indent: int) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=indent)``, the same text,
    for trees of dicts with ``str`` keys, lists, ``str``, ``int``, ``bool``
    and ``None``: one recursive pass appending to a list (the standard
    library's indenting encoder is pure Python generators, several times
    slower on a report of thousands of diagnostics). Anything else (floats,
    other keys or types) raises :class:`_Unusual`."""
    out: list[str] = []
    _put(obj, out, "\n", " " * indent)
    return "".join(out)


def _put(o: Any, out: list[str], nl: str, step: str) -> None:
    t = type(o)
    if t is str:
        out.append(_encode_str(o))
    elif o is None:
        out.append("null")
    elif t is bool:
        out.append("true" if o else "false")
    elif t is int:
        out.append(int.__repr__(o))
    elif t is dict:
        if not o:
            out.append("{}")
            return
        inner = nl + step
        first = True
        for k, v in o.items():
            if type(k) is not str:
                raise _Unusual
            out.append(("{" if first else ",") + inner)
            first = False
            out.append(_encode_str(k))
            out.append(": ")
            _put(v, out, inner, step)
        out.append(nl + "}")
    elif t is list:
        if not o:
            out.append("[]")
            return
        inner = nl + step
        first = True
        for v in o:
            out.append(("[" if first else ",") + inner)
            first = False
            _put(v, out, inner, step)
        out.append(nl + "]")
    else:
        raise _Unusual


try:  # json.encoder.encode_basestring, what json.dumps(ensure_ascii=False) uses, without importing json
    from _json import encode_basestring as _encode_str  # (its decoder, ~1.5 ms): the C function, as json.encoder
except ImportError:  # pragma: no cover - an interpreter without the accelerator
    from json.encoder import encode_basestring as _encode_str


def diagnostic_dict(item: Located) -> dict[str, Any]:
    """One diagnostic as the JSON object of the format (see module docs); a
    span without an end ends where it starts."""
    d, s = item.diagnostic, item.diagnostic.span
    end_line = s.end_line if s.end_line is not None else s.line
    end_col = s.end_column if s.end_column is not None else s.column
    return {
        "rule": {"id": d.code, "name": d.name},
        "severity": d.severity,
        "path": item.path,
        "range": {"start": {"line": s.line, "column": s.column}, "end": {"line": end_line, "column": end_col}},
        "message": d.message,
        "hint": d.hint,
        "fix": d.fix,
    }


def document(result: Any, cwd: str) -> dict[str, Any]:
    """The whole JSON document for a :class:`mmlint.api.CheckResult`."""
    return {"format": FORMAT_ID, "tool": {"name": "mmlint", "version": __version__}, "summary": result.counts(),
            "diagnostics": [diagnostic_dict(x) for x in located(result, cwd)]}


class JsonReporter(Reporter):
    """Writes :func:`document` as indented JSON (:func:`dumps`)."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the document for ``result`` and a final newline to ``stream``:
        ``dumps(document(result, cwd), indent=2)``, the same text, written a
        piece at a time as it is made (:func:`pieces`)."""
        for part in pieces(result, cwd):
            stream.write(part)
        stream.write("\n")


def pieces(result: Any, cwd: str) -> Iterator[str]:
    """The text of ``dumps(document(result, cwd), indent=2)`` as consecutive
    strings (the head, one per diagnostic, the tail), each made when it is
    asked for from one diagnostic's dict: at 20,000 diagnostics the report
    is ~9 MB of text, which the reporter never holds whole (``--output``
    collects it to write the file at once), nor their dicts and the
    indenter's fragments (~90 MB). A value :func:`indented` leaves to
    :func:`json.dumps` (a float, a key that is not text) has its piece made
    by :func:`dumps`, indented as it is within the document: the same text."""
    head = {"format": FORMAT_ID, "tool": {"name": "mmlint", "version": __version__}, "summary": result.counts(),
            "diagnostics": []}
    yield from array_pieces(indented_at(head, ""), "\n}", (diagnostic_dict(x) for x in located(result, cwd)), "    ")


def array_pieces(text: str, tail: str, objs: Iterable[Any], margin: str) -> Iterator[str]:
    """``text`` (a document as :func:`dumps` writes it with ``indent=2``,
    ending with an empty list, ``[]``, then ``tail``) with ``objs`` in that
    list, as consecutive strings: the head, one per object (each made when
    it is asked for, at the indentation ``margin`` of the list's items),
    the end. The same text as dumping the document with the objects in it."""
    head = text[: -len("[]" + tail)]
    lead = "[\n" + margin
    for obj in objs:
        if head:
            yield head
            head = ""
        yield lead + indented_at(obj, margin)
        lead = ",\n" + margin
    yield text if head else "\n" + margin[:-2] + "]" + tail


def indented_at(obj: Any, margin: str) -> str:
    """``obj`` as :func:`dumps` (``indent=2``) writes it at an indentation of
    ``margin`` within a larger document (every line but the first starts
    with ``margin``)."""
    try:
        buf: list[str] = []
        _put(obj, buf, "\n" + margin, "  ")
        return _safe("".join(buf))
    except (_Unusual, RecursionError):
        import json

        return _safe(json.dumps(obj, ensure_ascii=False, indent=2)).replace("\n", "\n" + margin)
