"""Tool reading of an mm store: what the mm reference implementation
(``dsh-memory-standard``) sees, exactly as ``research/mm-reference.md``
describes its code (see :mod:`mmlint.dialects._reading`).

* index (§1.3): split on ``\\n`` only; the header runs to the first line
  matching ``^##\\s+\\S``; an entry heading must match ``^##\\s+(\\S.*)$``
  with JavaScript's ``.`` (no ``\\r``), so a CRLF index has no entries;
  a heading that is not a topic slug makes the whole load fail (``E_PARSE``);
  ``- **key:** value`` lines with a known key (``summary, tags, file,
  updated, budget``; ``\\w`` is ASCII) are meta, the last one wins, every
  other line is entry body, joined and trimmed;
* ``file`` defaults to ``memories/<topic>.md`` and must be a safe relative
  path (§3.1), else the load fails;
* tags (§1.7) are split on ``, ， ; ；``, trimmed, inner whitespace runs made
  ``-``, lower-cased, empty and repeated ones dropped;
* budget (§1.8): ``^(\\d+)/(\\d+)`` or ``0/0``;
* detail files (§1.6): the ``pre``/``head``/``body`` state machine; a title
  that is not a topic slug makes the load fail (``E_INVALID``); the body
  has its leading and trailing ``\\n`` runs removed; a missing file or one
  that trims to nothing has the body ``""``.

Notes are the entries (an orphan detail file is not a note to it), keyed by
their ``file``; the fields are ``topic, summary, tags, file, updated,
budget, entryBody``. Whitespace follows JavaScript (:func:`js_trim`).
"""

from __future__ import annotations

import re

from mmlint.dialects._reading import JS_WHITESPACE, NoteView, Reading, js_trim

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_NWS = "[^" + re.escape(JS_WHITESPACE) + "]"
_DOT = "[^\n\r\u2028\u2029]"
_HEADINGISH = re.compile(rf"^##{_WS}+{_NWS}")
_HEADING = re.compile(rf"^##{_WS}+({_NWS}{_DOT}*)\Z")
_META_KEY = re.compile(rf"^-{_WS}*\*\*([A-Za-z0-9_]+):\*\*")
_NOTE_META_KEY = re.compile(rf"^>{_WS}*(mm-[A-Za-z0-9_-]+):")
_TERMINATORS = frozenset("\n\r\u2028\u2029")


class _Found:
    """What ``re.Match.group`` gives for the patterns below."""

    def __init__(self, *groups: str) -> None:
        self.groups = groups

    def group(self, i: int) -> str:
        return self.groups[i - 1]


def _tail(rest: str, one: bool = False) -> str | None:
    """The reference's ``{WS}*({DOT}*)$`` (``{WS}+({DOT}+)$`` when ``one``)
    on ``rest``, JavaScript semantics (``.`` stops at line terminators),
    without a backtracking regex: the group is ``rest`` after its leading
    whitespace when no line terminator follows that; for ``one`` on
    all-whitespace text, its last character (where the regex ends up after
    backtracking), if that is not a terminator."""
    if one and (not rest or rest[0] not in JS_WHITESPACE):
        return None
    body = rest.lstrip(JS_WHITESPACE)
    if body:
        return None if any(c in _TERMINATORS for c in body) else body
    if not one:
        return ""
    return rest[-1] if len(rest) >= 2 and rest[-1] not in _TERMINATORS else None


def _meta(line: str) -> _Found | None:
    """``^-{WS}*\\*\\*([A-Za-z0-9_]+):\\*\\*{WS}*({DOT}*)$``, linear."""
    m = _META_KEY.match(line)
    value = _tail(line[m.end():]) if m else None
    return _Found(m.group(1), value) if m and value is not None else None


def _title(line: str) -> _Found | None:
    """``^#{WS}+({DOT}+)$``, linear."""
    value = _tail(line[1:], one=True) if line.startswith("#") else None
    return _Found(value) if value is not None else None


def _note_meta(line: str) -> _Found | None:
    """``^>{WS}*(mm-[A-Za-z0-9_-]+):{WS}*({DOT}*)$``, linear."""
    m = _NOTE_META_KEY.match(line)
    value = _tail(line[m.end():]) if m else None
    return _Found(m.group(1), value) if m and value is not None else None


_TOPIC = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")
_TAG_SPLIT = re.compile(r"[,，;；]")
_BUDGET = re.compile(r"^([0-9]+)/([0-9]+)")
KNOWN = ("summary", "tags", "file", "updated", "budget")


class LoadError(Exception):
    """The reference refuses to open the store (``E_PARSE`` / ``E_INVALID``)."""


def valid_topic(topic: str) -> bool:
    """``validateTopic`` (§1.2): 1..64 characters of the slug pattern."""
    return 0 < len(topic) <= 64 and _TOPIC.match(topic) is not None


def parse_tags(value: str) -> list[str]:
    """``parseTags`` (§1.7): ``"A, b ,a；Foo Bar,,;  x"`` -> ``[a, b, foo-bar, x]``."""
    out: list[str] = []
    for part in _TAG_SPLIT.split(value):
        tag = re.sub(f"{_WS}+", "-", js_trim(part)).lower()
        if tag and tag not in out:
            out.append(tag)
    return out


def safe_rel_path(rel: str) -> None:
    """``assertSafeRelPath`` (§3.1). Raises :class:`LoadError`."""
    if not rel:
        raise LoadError("E_PARSE: file path must be a non-empty relative path")
    if "\\" in rel or rel.startswith("/") or re.match(r"^[A-Za-z]:", rel) or ".." in rel.split("/"):
        raise LoadError(f"E_PARSE: unsafe file path {rel[:80]!r}")


def parse_index(text: str) -> list[dict[str, str]]:
    """``parseIndex`` (§1.3): entries in file order as ``{topic, summary,
    tags, file, updated, budget, entryBody}`` (tags joined by ``, ``,
    budget ``<bodyChars>/<writeBudget>``). Raises :class:`LoadError`."""
    if js_trim(text) == "":
        return []
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not _HEADINGISH.match(lines[i]):
        i += 1
    entries = []
    cur = None
    for n in range(i, len(lines)):
        line = lines[n]
        if _HEADINGISH.match(line):
            m = _HEADING.match(line)
            if m is None:
                cur = None
                continue
            topic = js_trim(m.group(1))
            if not valid_topic(topic):
                raise LoadError(f"E_PARSE: index line {n + 1}: heading {topic[:80]!r} is not a valid topic slug")
            cur = {"topic": topic, "meta": {}, "body": []}
            entries.append(cur)
            continue
        if cur is None:
            continue
        m = _meta(line)
        if m is not None and m.group(1) in KNOWN:
            cur["meta"][m.group(1)] = js_trim(m.group(2))
        else:
            cur["body"].append(line)
    out = []
    for ent in entries:
        meta = ent["meta"]
        file = meta.get("file", f"memories/{ent['topic']}.md")
        safe_rel_path(file)
        b = _BUDGET.match(meta.get("budget", "0/0"))
        out.append({"topic": ent["topic"], "summary": meta.get("summary", ""),
                    "tags": ", ".join(parse_tags(meta.get("tags", ""))), "file": file,
                    "updated": meta.get("updated", ""),
                    "budget": f"{int(b.group(1))}/{int(b.group(2))}" if b else "0/0",
                    "entryBody": js_trim("\n".join(ent["body"]))})
    return out


def parse_note(text: str) -> tuple[str, str]:
    """``parseNoteText`` (§1.6): ``(topic, body)``. Raises :class:`LoadError`
    for a title or ``mm-topic`` that is not a topic slug."""
    lines = text.split("\n")
    phase, saw_meta, start, topic = "pre", False, None, ""
    for n, line in enumerate(lines):
        title = _title(line)
        meta = _note_meta(line)
        if phase == "pre":
            if title and not line.startswith("##"):
                topic = js_trim(title.group(1))
                if not valid_topic(topic):
                    raise LoadError(f"E_INVALID: note title {topic[:80]!r} is not a valid topic slug")
                phase = "head"
            elif meta:
                topic = _apply_meta(meta, topic)
                saw_meta, phase = True, "head"
            elif js_trim(line) == "":
                continue
            else:
                start = n
                break
        else:
            if meta:
                topic = _apply_meta(meta, topic)
                saw_meta = True
            elif js_trim(line) == "":
                if saw_meta:
                    start = n + 1
                    break
            else:
                start = n
                break
    body = "\n".join(lines[start:]) if start is not None else ""
    return topic, body.strip("\n")


def _apply_meta(meta: _Found, topic: str) -> str:
    if meta.group(1) == "mm-topic":
        value = js_trim(meta.group(2))
        if not valid_topic(value):
            raise LoadError(f"E_INVALID: mm-topic {value[:80]!r} is not a valid topic slug")
        return value
    return topic


def reference(files: dict[str, bytes], profile: str | None = None) -> Reading:
    """The store ``files`` (POSIX path -> bytes) as the mm reference's
    ``Memory.load`` sees it: one :class:`NoteView` per index entry, keyed by
    its ``file`` (a repeated file keeps the first entry, as ``readTopic``
    does), ``pointers`` the entries' files in index order; ``refused`` when
    the load throws."""
    out = Reading("the mm reference", values=values)
    try:
        entries = parse_index(files.get("MEMORY.md", b"").decode("utf-8", "surrogateescape"))
        for ent in entries:
            out.pointers.append(ent["file"])
            if ent["file"] in out.notes:
                continue
            data = files.get(ent["file"])
            text = data.decode("utf-8", "surrogateescape") if data is not None else ""  # a BOM stays U+FEFF (§1.10)
            _, body = parse_note(text) if js_trim(text) else ("", "")
            view = NoteView(ent["file"], {k: v for k, v in ent.items() if k != "file"} | {"file": ent["file"]}, body)
            view.fields["tags"] = [t for t in ent["tags"].split(", ") if t]
            out.notes[ent["file"]] = view
    except LoadError as exc:
        out.refused = str(exc)
        out.notes.clear()
    return out


KEYMAP = {"summary": "summary", "tags": "tags", "updated": "updated", "budget": "budget"}
_ENTRY_LINE = re.compile(r"^-[ \t]*\*\*([A-Za-z0-9_.-]+):\*\*[ \t]*(.*)\Z")


def values(view: NoteView) -> dict:
    """:func:`mmlint.dialects._reading.model_values` of one entry as the mm
    reference sees it: ``summary``, ``tags``, ``updated`` and ``budget``
    (``0/0``, the reference's value for a missing one, counts as absent);
    the entry body's ``- **key:** value`` lines (which the reference keeps as
    body text) as the keys they name, so carriers and unknown keys read back;
    the other body lines as ``entry_body``."""
    from mmlint.dialects._reading import model_values

    fields = {k: v for k, v in view.fields.items() if k in KEYMAP and not (k == "budget" and v == "0/0")}
    rest = []
    for line in view.fields.get("entryBody", "").split("\n"):
        m = _ENTRY_LINE.match(line)
        if m is not None and m.group(1) not in fields:
            fields[m.group(1)] = js_trim(m.group(2))
        else:
            rest.append(line)
    body = js_trim("\n".join(rest))
    if body:
        fields["entry_body"] = body
    out = model_values(NoteView(view.path, fields, view.body), KEYMAP | {"entry_body": "entry_body"})
    return out
