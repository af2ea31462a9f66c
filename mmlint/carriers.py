"""Lossless carriers: how a dialect holds a model field it has no slot for.

A carried field is written as an extra key named ``mmlint-<field>`` (an mm
entry line ``- **mmlint-type:** feedback`` or a frontmatter line
``mmlint-budget: 145/4000``). An unknown key that would collide with one of
the target's own keys, or whose value is not a plain one-line string, is
written as ``mmlint-extra-<key>``. Readers of every dialect turn these keys
back into fields (and they look under ``metadata:`` too, where Claude Code
moves unknown keys when it rewrites a note).

Values are written plainly when they are one-line strings that do not start
with ``"``, ``[`` or ``{`` and have no edge spaces; everything else (lists,
mappings, multi-line text) is written as compact JSON, which
:func:`decode_value` recognises. Two files carry what is not a note field:
:data:`INDEX_LINES_FILE` (index lines) and :data:`AUX_DIR` (auxiliary files
parked away from paths the target reads). ``docs/convert.md`` lists, per
writer, which field goes where.
"""

from __future__ import annotations

import re

from mmlint.model import NOTE_FIELDS
from mmlint.textutil import BOM_BYTES, lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Callable

PREFIX = "mmlint-"
#: File that carries index lines a regenerated index cannot hold (workspace,
#: whose index is a projection; mm, when its header cannot hold them), one
#: line per line, in order.
INDEX_LINES_FILE = ".mmlint-index-lines.txt"
#: Folder that parks an auxiliary file whose path the target dialect would
#: read as part of the store (a ``README.md`` in an engramory or workspace
#: store, a recall-v1 ``-history.md`` archive in another profile): the file
#: ``<path>`` is written verbatim at ``.mmlint-aux/<path>``. Every reader
#: treats this folder as auxiliary; a writer whose dialect does not claim
#: ``<path>`` puts the file back there.
AUX_DIR = ".mmlint-aux"
EXTRA_PREFIX = "mmlint-extra-"

#: Field -> carrier key (``category`` is carried as ``a/b`` text; ``slug`` holds
#: the original slug when the target had to map it, see :func:`ascii_slug`).
FIELD_KEYS = {f: PREFIX + f.replace("_", "-") for f in NOTE_FIELDS + ("category", "slug")}
KEY_FIELDS = {v: k for k, v in FIELD_KEYS.items()}


def encode_value(value: Any) -> str:
    """One line of text that :func:`decode_value` turns back into ``value``."""
    if isinstance(value, str) and "\n" not in value and "\r" not in value and value[:1] not in ('"', "[", "{") \
            and value == value.strip():
        return value
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def frontmatter_safe(text: str) -> str:
    """Make an encoded carrier value writable as a quoted frontmatter value:
    inside JSON text a ``'`` may be spelled ``\\u0027``, which lets the value
    be single-quoted whatever else it holds."""
    if text[:1] in ('"', "[", "{") and "'" in text:
        return text.replace("'", "\\u0027")
    return text


def decode_value(text: str) -> Any:
    """Inverse of :func:`encode_value` (plain text stays text)."""
    if text[:1] in ('"', "[", "{"):
        import json

        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def extra_key(key: str, value: Any, native: set[str]) -> tuple[str, str]:
    """``(key to write, encoded value)`` for an unknown key ``key``.

    The key is kept when it is not in ``native`` (the keys the target
    reserves) and the value is a plain string; otherwise it becomes
    ``mmlint-extra-<key>`` with the value as :func:`encode_value` writes it.
    """
    if key in native or key.startswith(PREFIX) or not isinstance(value, str) or encode_value(value) != value:
        return EXTRA_PREFIX + key, encode_value(value)
    return key, value


def restore(key: str, value: Any) -> tuple[str, str, Any] | None:
    """Map a carrier key back: ``("field", name, value)`` or
    ``("extra", key, value)``; ``None`` when ``key`` is not a carrier."""
    if not key.startswith(PREFIX):
        return None
    if key.startswith(EXTRA_PREFIX):
        return "extra", key[len(EXTRA_PREFIX):], decode_value(value) if isinstance(value, str) else value
    field = KEY_FIELDS.get(key)
    if field is None:
        return None
    return "field", field, decode_value(value) if isinstance(value, str) else value


#: Carried model fields whose value is a list of strings; every other field
#: (``category`` and ``slug`` included) is one string.
LIST_FIELDS = ("tags", "aliases")


def _bad_text(text: str) -> str | None:
    """Why ``text`` cannot be held as store text: a surrogate that is not an
    undecodable byte (``\\udc80``-``\\udcff``, see
    :func:`mmlint.textutil.decode`), which no file can hold."""
    from mmlint.textutil import lone_surrogate

    ch = lone_surrogate(text)
    return f"holds a lone surrogate U+{ord(ch):04X}" if ch is not None else None


def _bad_data(value: Any, depth: int = 0) -> str | None:
    if depth > 100:
        return "is nested too deeply"
    if isinstance(value, str):
        return _bad_text(value)
    if isinstance(value, dict):
        for k, v in value.items():
            why = (_bad_text(k) if isinstance(k, str) else None) or _bad_data(v, depth + 1)
            if why:
                return why
        return None
    if isinstance(value, list):
        return next((w for v in value if (w := _bad_data(v, depth + 1))), None)
    return None


def invalid(kind: str, name: str, value: Any) -> str | None:
    """Why a value read back by :func:`restore` as ``(kind, name, value)``
    cannot be used, or ``None`` when it can.

    A carried field must have its model type: ``tags`` and ``aliases`` a
    list of strings (:data:`LIST_FIELDS`), every other field (``slug`` and
    ``category`` included) a string; no string may hold a surrogate other
    than an undecodable byte. A carried unknown key (``kind == "extra"``)
    may hold any JSON value within those string limits. Readers call this
    where they read a carrier and report a wrong value as a finding (X112)
    with its line, keeping the line as an unknown key; they never raise.
    """
    if kind == "extra":
        return _bad_data(value)
    if name in LIST_FIELDS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"must be a list of strings, got {_type_name(value)}"
        return next((w for v in value if (w := _bad_text(v))), None)
    if not isinstance(value, str):
        return f"must be a string, got {_type_name(value)}"
    return _bad_text(value)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        other = next((v for v in value if not isinstance(v, str)), None)
        return "a list" if other is None else f"a list holding {_type_name(other)}"
    return "a string" if isinstance(value, str) else type(value).__name__


def ascii_slug(slug: str) -> str:
    """A deterministic, reversible ASCII form of ``slug`` for dialects whose
    keys are ASCII (mm topics): ASCII slugs are kept; others become
    ``xn--`` + Punycode (RFC 3492) of the NFC form, e.g. ``代码评审清单`` ->
    ``xn--mnq31ibwicztdnlj12a``, ``Café-notes`` -> ``xn--Caf-notes-d4a``."""
    import unicodedata

    if slug.isascii():
        return slug
    return "xn--" + unicodedata.normalize("NFC", slug).encode("punycode").decode("ascii")


def lines_file(lines: list[str]) -> bytes:
    """The bytes of :data:`INDEX_LINES_FILE` for ``lines``: each line and a ``\\n``."""
    return "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")


def read_lines_file(data: bytes) -> list[str]:
    """Inverse of :func:`lines_file` (a last line without ``\\n`` is kept)."""
    text = data.decode("utf-8", "surrogateescape")
    return (text[:-1] if text.endswith("\n") else text).split("\n") if text else []


def unpark(path: str) -> str:
    """The original path of an auxiliary file (``.mmlint-aux/a/b`` -> ``a/b``)."""
    return path[len(AUX_DIR) + 1:] if path.startswith(AUX_DIR + "/") else path


def is_parked(path: str) -> bool:
    """True for a path inside :data:`AUX_DIR`."""
    return path.startswith(AUX_DIR + "/")


def aux_home(path: str, owns: Callable[[str], bool]) -> str:
    """Where a writer puts the auxiliary file read at ``path``: its original
    path, or that path parked under :data:`AUX_DIR` when ``owns(original)``
    says the target's reader would take it for a note, the index or a carrier."""
    origin = unpark(path)
    return f"{AUX_DIR}/{origin}" if owns(origin) else origin


def with_inner_blanks(loose: list[tuple[int, str]], lines: list[str]) -> list[tuple[int, str]]:
    """Index lines a conversion carries (``(1-based line, text)``, sorted),
    with the blank lines that stand between two of them and nothing else
    (so paragraphs, tables and code blocks keep their shape). ``lines`` is
    the index text split on ``\\n``; blank means whitespace only, kept as written."""
    out: list[tuple[int, str]] = []
    for line, text in loose:
        if out:
            gap = range(out[-1][0] + 1, line)
            if all(not lines[i - 1].strip() for i in gap):
                out.extend((i, lines[i - 1].rstrip("\r")) for i in gap)
        out.append((line, text))
    return out


_MM_CARRIER_RE = lazy_re(r"^-\s*\*\*(mmlint-[A-Za-z0-9_.-]+):\*\*")


def used(files: dict[str, bytes]) -> list[tuple[str, str]]:
    """Every carrier in a writer's output ``files`` (POSIX path -> bytes):
    ``(path, key)`` for each ``mmlint-*`` key in a note's frontmatter (at top
    level or under ``metadata:``) or in an mm index entry line, and
    ``(path, "file")`` for :data:`INDEX_LINES_FILE` and each file parked in
    :data:`AUX_DIR`. In file order, one item per occurrence; each key is one
    string object, however many files hold it.
    """
    import sys

    from mmlint import frontmatter

    out: list[tuple[str, str]] = []
    for path, data in files.items():
        if is_parked(path) or path in (INDEX_LINES_FILE, ORIGIN_FILE):
            out.append((path, "file"))
        elif path == "MEMORY.md":
            text = data.decode("utf-8", "surrogateescape")
            out += [(path, sys.intern(m.group(1))) for line in text.split("\n") if (m := _MM_CARRIER_RE.match(line))]
        elif path.lower().endswith(".md") and PREFIX.encode("ascii") in data:  # no key can start with it otherwise
            text = (data[3:] if data.startswith(BOM_BYTES) else data).decode("utf-8", "surrogateescape")  # as readers read it
            block = frontmatter.plain_block(text)
            if block is not None:  # plain key: value lines (what writers make): the keys parse would give, no Item made
                out += [(path, sys.intern(f[0])) for f in block[2] if f[0].startswith(PREFIX)]
                continue
            fm = frontmatter.parse(text)
            if fm is not None:
                out += [(path, sys.intern(it.key)) for it in fm.items if it.key.startswith(PREFIX)]
    return out


# ---------------------------------------------------------------- target forms of a value (issue 8 item 3)

_ISO_DATETIME_RE = lazy_re(r"^([0-9]{4}-[0-9]{2}-[0-9]{2})T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z\Z")
_DATE_RE = lazy_re(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def _real_date(text: str) -> bool:
    import datetime

    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def to_form(value: Any, form: str | None) -> Any:
    """``value`` in a target's own form: ``"date"`` turns an ISO date-time in
    UTC (``2026-10-08T08:31:24.000Z``) into its date (``2026-10-08``, the
    engramory ``YYYY-MM-DD``); ``"datetime"`` turns a calendar date into
    midnight UTC (``2026-03-20T00:00:00.000Z``, mm's ``toISOString`` form and
    the workspace plugin's); anything else, or ``form`` ``None``, is returned
    as it is. The writer keeps the original in the field's carrier."""
    if not isinstance(value, str) or form is None:
        return value
    if form == "date":
        m = _ISO_DATETIME_RE.match(value)
        return m.group(1) if m is not None and _real_date(m.group(1)) else value
    if form == "datetime" and _DATE_RE.match(value) and _real_date(value):
        return value + "T00:00:00.000Z"
    return value


# ---------------------------------------------------------------- the source layout (issue 8 item 4)

#: File that carries the source store's layout through a conversion so that
#: converting back gives the source byte for byte: for each note its file
#: name and the exact text around its body (frontmatter with its key order,
#: nesting, quoting, escapes, comments, blank lines, line endings; an mm
#: detail header), and the source ``MEMORY.md``. Each record holds a
#: signature of the note's values: a writer of the source dialect uses a
#: record only while the note still has those values, so an edit made in
#: between is never undone (the note is then written by the writer's own
#: rules). No owning tool reads it (not a ``.md`` file).
ORIGIN_FILE = ".mmlint-origin.json"
ORIGIN_FORMAT = "mmlint.origin/1"


def signature(note: Any, drop: tuple[str, ...] = ()) -> str:
    """A digest of ``note``'s values (:data:`NOTE_FIELDS` present, extra keys,
    body, category, slug), leaving out the fields in ``drop``: equal values,
    equal signatures, whatever dialect the note was read from."""
    import json

    from mmlint.digest import sha256_hex

    d = {k: getattr(note, k) for k in NOTE_FIELDS if k not in drop and getattr(note, k) is not None}
    d.update(extra=note.extra, body=note.body, category=list(note.category), slug=note.slug)
    text = json.dumps(d, sort_keys=True, ensure_ascii=True, default=str)
    return sha256_hex(text.encode("utf-8", "surrogateescape"))[:32]


def _index_signature(notes: list[Any], lines: list[str], sigs: dict[int, str] | None = None) -> str:
    """A digest of the notes' signatures and the index lines; ``sigs``: the
    signatures already computed, by ``id`` of the note."""
    import json

    from mmlint.digest import sha256_hex

    have = sigs or {}
    text = json.dumps([sorted(have.get(id(n)) or signature(n) for n in notes), lines], ensure_ascii=True)
    return sha256_hex(text.encode("utf-8", "surrogateescape"))[:32]


def rebuild(rec: dict[str, Any], body: str) -> bytes:
    """A note file from its origin record and its body (LF text): the
    record's ``data`` when it has one, else ``head`` + the body in the
    record's line-ending style, after a blank line when ``lead``."""
    from mmlint.textutil import apply_newline, encode

    if "data" in rec:
        return rec["data"].encode("utf-8", "surrogateescape")
    return encode(rec["head"] + apply_newline(("\n" if rec["lead"] else "") + body, rec["nl"]), rec["bom"])


def make_origin(source: Any, model: Any, layouts: dict[str, tuple[str, bool, str, bool]], index_ok: bool = True) -> dict[str, Any]:
    """The origin record of ``source`` (a store as read) for a conversion
    whose working copy is ``model`` (same notes, same order; its values are
    what the source tool sees, before fills).

    ``layouts`` maps a note path to ``(head, lead, newline, bom)``: the text
    before the body, whether one blank line opens the body, the line-ending
    style, the BOM (the source dialect knows them, see each dialect's
    ``origin_layouts``; a note changed in memory since it was read has none).
    A note whose file :func:`rebuild` cannot give back from them keeps its
    whole text (``data``). ``index_ok``: the index still shows what its file
    holds (else no index record).

    Returns ``{"format", "dialect", "profile", "notes": {slug: {"path",
    "sig", "filled", head/lead/nl/bom or data}}, "index": {"data", "sig"} or
    None}``, JSON-safe (lone surrogates stand for bytes that are not UTF-8).
    """
    notes: dict[str, Any] = {}
    sigs: dict[int, str] = {}
    for n, m in zip(source.notes, model.notes):
        rec_file = source.files.get(n.path)
        if n.path not in layouts or rec_file is None or rec_file.data is None:
            continue
        head, lead, nl, bom = layouts[n.path]
        sigs[id(m)] = signature(m)
        rec: dict[str, Any] = {"path": n.path, "sig": sigs[id(m)], "filled": [], "head": head, "lead": lead, "nl": nl, "bom": bom}
        if rebuild(rec, n.body) != rec_file.data:
            rec = {"path": n.path, "sig": rec["sig"], "filled": [], "data": rec_file.data.decode("utf-8", "surrogateescape")}
        notes[n.slug] = rec
    index = None
    idx_file = source.files.get("MEMORY.md")
    if index_ok and idx_file is not None and idx_file.data is not None and source.index is not None:
        index = {"data": idx_file.data.decode("utf-8", "surrogateescape"),
                 "sig": _index_signature(model.notes, [t for _, t in model.index.loose] if model.index else [], sigs)}
    return {"format": ORIGIN_FORMAT, "dialect": source.dialect, "profile": source.profile, "notes": notes, "index": index}


def written_as(origin: dict[str, Any], dialect: str, profile: str | None) -> dict[str, Any]:
    """``origin`` (a record, left as it is) with ``"as"``: the dialect and
    profile of the store it is written into, ``[dialect, profile]``. Its
    key sorts first, so :func:`origin_written_as` reads it from the file's
    first bytes: detection takes the profile a store was converted to from
    there (an engramory store converted to ``upstream`` from Claude Code
    keeps Claude Code's ``metadata:`` blocks, which alone would read as
    ``claude-code``)."""
    return {**origin, "as": [dialect, profile]}


def origin_written_as(head: str) -> tuple[str, str | None] | None:
    """``(dialect, profile)`` from the ``"as"`` item at the start of an
    :data:`ORIGIN_FILE`'s text ``head`` (its first bytes are enough, see
    :func:`written_as`); ``None`` when the text does not open with one."""
    import json

    prefix = '{"as":['
    if not head.startswith(prefix) or f',"format":"{ORIGIN_FORMAT}",' not in head:
        return None  # the keys are sorted: "as", "dialect", "format" come first
    end = head.find("]", len(prefix))
    if end < 0 or end > 200:
        return None
    try:
        got = json.loads(head[len(prefix) - 1:end + 1])
    except ValueError:
        return None
    if len(got) != 2 or not isinstance(got[0], str) or not isinstance(got[1], (str, type(None))):
        return None
    return got[0], got[1]


def origin_file(origin: dict[str, Any]) -> bytes:
    """The bytes of :data:`ORIGIN_FILE` (deterministic: the same record
    always gives the same bytes, so a store holding one converts to its own
    dialect byte for byte)."""
    import json

    return (json.dumps(origin, sort_keys=True, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")


def read_origin(data: bytes | None) -> dict[str, Any] | None:
    """Inverse of :func:`origin_file`; ``None`` for anything that is not a
    well-formed record (the file is untrusted: every value is type-checked,
    a bad one discards the whole record, which only costs byte-exactness)."""
    import json

    try:
        origin = json.loads((data or b"").decode("ascii"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(origin, dict) or origin.get("format") != ORIGIN_FORMAT or not isinstance(origin.get("dialect"), str) \
            or not isinstance(origin.get("profile"), (str, type(None))) or not isinstance(origin.get("notes"), dict):
        return None
    for slug, rec in origin["notes"].items():
        if not isinstance(rec, dict) or not isinstance(rec.get("path"), str) or not isinstance(rec.get("sig"), str) \
                or not isinstance(rec.get("filled"), list) or not all(f in NOTE_FIELDS for f in rec["filled"]):
            return None
        if "data" in rec:
            if not isinstance(rec["data"], str):
                return None
        elif not (isinstance(rec.get("head"), str) and isinstance(rec.get("lead"), bool)
                  and rec.get("nl") in ("\n", "\r\n", "\r", "mixed", "") and isinstance(rec.get("bom"), bool)):
            return None
    index = origin.get("index")
    if index is not None and not (isinstance(index, dict) and isinstance(index.get("data"), str) and isinstance(index.get("sig"), str)):
        return None
    written = origin.get("as")
    if written is not None and not (isinstance(written, list) and len(written) == 2 and isinstance(written[0], str)
                                    and isinstance(written[1], (str, type(None)))):
        return None
    return origin


def origin_for(store: Any, dialect: str, profile: str | None) -> dict[str, Any] | None:
    """The store's origin record when it was made by ``dialect``/``profile``
    (the writer converting back to where the store came from), else ``None``."""
    origin = getattr(store, "origin", None)
    if origin is None or origin.get("dialect") != dialect or origin.get("profile") != profile:
        return None
    return origin


def origin_note(origin: dict[str, Any] | None, note: Any) -> dict[str, Any] | None:
    """The origin record of ``note`` when its values (without the fields the
    first conversion filled in) are still the ones recorded, else ``None``."""
    if origin is None:
        return None
    rec = origin["notes"].get(note.slug)
    if rec is None or signature(note, tuple(rec["filled"])) != rec["sig"]:
        return None
    return rec


def origin_index(origin: dict[str, Any] | None, store: Any) -> bytes | None:
    """The source ``MEMORY.md`` when every note and index line is as
    recorded (call after the notes' fills were taken back), else ``None``."""
    if origin is None or origin.get("index") is None:
        return None
    lines = [t for _, t in store.index.loose] if store.index is not None else []
    if _index_signature(store.notes, lines) != origin["index"]["sig"]:
        return None
    return origin["index"]["data"].encode("utf-8", "surrogateescape")


def unfill(note: Any, rec: dict[str, Any]) -> None:
    """Take back the fields the first conversion filled in (``rec["filled"]``):
    the source never had them."""
    for f in rec["filled"]:
        setattr(note, f, None)
