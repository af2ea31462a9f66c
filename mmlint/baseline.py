"""Baselines: record today's findings, then report only new ones.

A baseline is a JSON file (``mmlint.baseline/1``)::

    {"format": "mmlint.baseline/1",
     "tool": {"name": "mmlint", "version": "0.1.0"},
     "stores": [{"store": "memory",
                 "findings": [{"rule": "P101", "path": "MEMORY.md",
                               "fingerprint": "3f0c9a1be2d47e55"}]}]}

``store`` is the store folder relative to the baseline file's folder (POSIX),
``path`` is store-relative; stores and findings are sorted, so writing the
same findings twice gives the same bytes.

A fingerprint is 16 hex digits of SHA-256 over the rule code, the
store-relative path, the offending line's text with runs of whitespace
collapsed (or the rule's anchor for findings whose line is incidental, such
as a cap crossed at line 201), and an occurrence counter among findings with
those same three values. Line numbers are not part of it, so inserting or
deleting unrelated lines hides nothing new and reveals nothing old.
"""

from __future__ import annotations

import json
import os
from typing import Any

from mmlint import __version__
from mmlint.digest import sha256_hex
from mmlint.errors import CheckError
from mmlint.textutil import FileLines

FORMAT = "mmlint.baseline/1"
#: Largest baseline file read, in bytes.
MAX_BYTES = 64 * 1024 * 1024


def fingerprints(store: Any, diagnostics: list[Any]) -> list[str]:
    """The fingerprint of each diagnostic of ``store`` (same order).

    The occurrence counter counts in report order
    (:meth:`~mmlint.diagnostic.Diagnostic.sort_key`); its key holds the
    path, so only the current file's counts are kept."""
    from mmlint.diagnostic import sort_diagnostics

    lines = FileLines()
    order = list(range(len(diagnostics)))
    sort_diagnostics(order, of=diagnostics.__getitem__)  # no key tuple per diagnostic
    seen: dict[tuple[str, str], int] = {}
    path = None
    out = [""] * len(diagnostics)
    for i in order:
        d = diagnostics[i]
        if d.span.path != path:
            path, seen = d.span.path, {}
        text = d.anchor if d.anchor is not None else " ".join(lines.line(store, path, d.span.line).split())
        key = (d.code, text)
        n = seen.get(key, 0)
        seen[key] = n + 1
        raw = "\0".join((d.code, path, text, str(n))).encode("utf-8", "surrogateescape")
        out[i] = sha256_hex(raw)[:16]
    return out


def store_key(root: str, baseline_path: str) -> str:
    """The store folder as the baseline names it: relative to the baseline
    file's folder, POSIX (absolute when on another drive)."""
    base = os.path.dirname(os.path.abspath(baseline_path))
    try:
        rel = os.path.relpath(os.path.abspath(root), base)
    except ValueError:
        rel = os.path.abspath(root)
    return rel.replace(os.sep, "/")


def _stores(results: list[Any], baseline_path: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """``(store key, findings)`` of each checked store, sorted by key; the
    findings as ``(path, rule, fingerprint)``, sorted (a tuple each, not the
    document's dict: 20,000 findings as dicts took ~6 MiB more)."""
    stores = []
    for res in results:
        rows = sorted(zip((d.span.path for d in res.diagnostics), (d.code for d in res.diagnostics),
                          fingerprints(res.store, res.diagnostics)))
        stores.append((store_key(res.found.path, baseline_path), rows))
    stores.sort(key=lambda s: s[0])
    return stores


def document(results: list[Any], baseline_path: str) -> dict[str, Any]:
    """The baseline document for checked stores (:class:`mmlint.api.StoreResult`)."""
    return {"format": FORMAT, "tool": {"name": "mmlint", "version": __version__},
            "stores": [{"store": key, "findings": [{"rule": rule, "path": path, "fingerprint": f} for path, rule, f in rows]}
                       for key, rows in _stores(results, baseline_path)]}


def _pieces(stores: list[tuple[str, list[tuple[str, str, str]]]]) -> Any:
    """The text of ``dumps(document(...), indent=2)`` for ``stores``
    (:func:`_stores`) as consecutive strings, a finding at a time."""
    from mmlint.reporters.json import array_pieces, indented_at

    text = indented_at({"format": FORMAT, "tool": {"name": "mmlint", "version": __version__}, "stores": []}, "")
    if not stores:
        yield text
        return
    yield text[: -len("[]\n}")]
    lead = "[\n    "
    for key, rows in stores:
        yield lead
        lead = ",\n    "
        findings = ({"rule": rule, "path": path, "fingerprint": f} for path, rule, f in rows)
        yield from array_pieces(indented_at({"store": key, "findings": []}, "    "), "\n    }", findings, "        ")
    yield "\n  ]\n}"


def write(baseline_path: str, results: list[Any]) -> int:
    """Record every diagnostic of ``results`` in ``baseline_path`` (written
    atomically, as it is made: the text of ``dumps(document(...),
    indent=2)`` and a newline); returns how many were recorded.

    Raises:
        CheckError: the file cannot be written.
    """
    from mmlint.atomic import text_writer, write_output

    stores = _stores(results, baseline_path)

    def fill(stream: Any) -> None:
        for part in _pieces(stores):  # names that are not UTF-8 are escapes already
            stream.write(part)
        stream.write("\n")

    try:
        write_output(os.path.abspath(baseline_path), text_writer(fill))
    except OSError as exc:
        raise CheckError(f"{baseline_path}: cannot write the baseline: {exc.strerror or exc}") from None
    return sum(len(rows) for _, rows in stores)


def read(baseline_path: str) -> dict[str, Fingerprints]:
    """Store key -> recorded fingerprints (:class:`Fingerprints`).

    Raises:
        CheckError: missing, unreadable, not JSON, or not ``mmlint.baseline/1``.
    """
    try:
        with open(baseline_path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size  # read() of MAX_BYTES + 1 allocated that much first (64 MiB)
            data = fh.read((size if 0 < size <= MAX_BYTES else MAX_BYTES) + 1)
            if size < len(data) <= MAX_BYTES:  # grown since, or not a regular file: on to the limit
                data += fh.read(MAX_BYTES + 1 - len(data))
    except OSError as exc:
        raise CheckError(f"{baseline_path}: cannot read the baseline: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise CheckError(f"{baseline_path}: baseline is over {MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8")
        del data  # the text alone while it is parsed
        doc = json.loads(text, object_hook=_compact)
        del text
    except (UnicodeDecodeError, ValueError) as exc:
        raise CheckError(f"{baseline_path}: not a JSON baseline ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("stores"), list):
        raise CheckError(f"{baseline_path}: not an {FORMAT} file; write one with --write-baseline")
    found: dict[str, list[str]] = {}
    for s in doc["stores"]:
        ok = isinstance(s, dict) and isinstance(s.get("store"), str) and isinstance(s.get("findings"), list) \
            and all(f.__class__ is _Recorded or (isinstance(f, dict) and isinstance(f.get("fingerprint"), str))
                    for f in s["findings"])
        if not ok:
            raise CheckError(f"{baseline_path}: malformed store record; write it again with --write-baseline")
        found.setdefault(s["store"], []).extend(f if f.__class__ is _Recorded else f["fingerprint"] for f in s["findings"])
    del doc
    return {key: Fingerprints(prints) for key, prints in found.items()}


class Fingerprints:
    """The fingerprints a baseline records for one store, for ``f in it``.

    Those of 16 lowercase hex digits (every one :func:`fingerprints`
    makes) are kept as 64-bit numbers in one sorted array, 8 bytes each (a
    set of 20,000 such strings took ~2.5 MiB at the peak of a check); any
    other string a file holds, in a set. Iterating gives them all back as
    text; equal to a ``set`` of the same strings."""

    __slots__ = ("_numbers", "_other")

    def __init__(self, prints: Any) -> None:
        from array import array

        numbers, other = [], set()
        for f in prints:
            n = _number(f)
            if n is None:
                other.add(str(f))
            else:
                numbers.append(n)
        numbers.sort()
        self._numbers, self._other = array("Q", numbers), other

    def __contains__(self, f: str) -> bool:
        n = _number(f)
        if n is None:
            return f in self._other
        from bisect import bisect_left

        at = bisect_left(self._numbers, n)
        return at < len(self._numbers) and self._numbers[at] == n

    def __iter__(self) -> Any:
        seen = None
        for n in self._numbers:
            if n != seen:
                seen = n
                yield f"{n:016x}"
        yield from self._other

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, (set, frozenset, Fingerprints)):
            return set(self) == set(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - compared by value, not hashable


def _number(f: str) -> int | None:
    """``f`` as a number when it is 16 lowercase hex digits, else ``None``
    (``int(f, 16)`` alone would also take ``0x``, ``_``, spaces and capitals)."""
    if len(f) != 16 or not f.isascii() or not f.isalnum() or f != f.lower():
        return None
    try:
        return int.from_bytes(bytes.fromhex(f), "big")
    except ValueError:
        return None


class _Recorded(str):
    """A finding record of a baseline file, as parsed: its fingerprint
    alone (:func:`_compact`)."""

    __slots__ = ()


def _compact(record: dict[str, Any]) -> Any:
    """``json.loads``'s ``object_hook``: a JSON object with a string
    ``fingerprint`` and none of the keys of a store record or of the
    document (``findings``, ``stores``, ``format``) is a finding, kept as its
    fingerprint: :func:`read` uses nothing else, and 20,000 findings as
    dicts with their rule and path took ~8 MiB while the file was read.
    Any other object stays a dict, so a malformed file is refused as
    before."""
    fingerprint = record.get("fingerprint")
    if fingerprint.__class__ is str and "findings" not in record and "stores" not in record and "format" not in record:
        return _Recorded(fingerprint)
    return record


def hide(results: list[Any], baseline_path: str) -> int:
    """Drop the diagnostics recorded in ``baseline_path`` from each result;
    returns how many were hidden. Raises :class:`CheckError` (see :func:`read`)."""
    recorded = read(baseline_path)
    hidden = 0
    for res in results:
        known = recorded.get(store_key(res.found.path, baseline_path), set())
        prints = fingerprints(res.store, res.diagnostics)
        kept = [d for d, f in zip(res.diagnostics, prints) if f not in known]
        hidden += len(res.diagnostics) - len(kept)
        res.diagnostics = kept
    return hidden
