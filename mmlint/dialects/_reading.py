"""Tool readings: the field values the tool that owns a store sees.

A *tool reading* re-reads a store the way its owning tool does (Claude Code,
the upstream Engramory doctor, the recall-v1 plugin, the workspace plugin,
the mm reference), with that tool's own grammar and none of mmlint's
leniency. It is the reference a conversion is verified against
(``../shared/DESIGN.md`` "The loss policy"): mmlint's readers may be wrong in
the same way as its writers, the owning tool's reading is what users get.

Each dialect owns its readings (``mmlint/dialects/<dialect>_reading.py``);
this module holds only the shapes they share and helpers with no dialect
knowledge. A reading takes the store's files (POSIX path -> raw bytes), does
no I/O and never raises on bad input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: JavaScript's ``\\s`` / ``String.prototype.trim`` whitespace set (ECMA-262
#: WhiteSpace + LineTerminator), which differs from Python's ``str.strip``:
#: it includes U+FEFF and excludes U+001C..U+001F and U+0085.
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
                "\u2028\u2029\u202f\u205f\u3000\ufeff"


def text_of(data: bytes) -> str:
    """File bytes as text: UTF-8, a leading BOM removed; bytes that are not
    UTF-8 kept as lone surrogates (``surrogateescape``), so two readings of
    the same bytes compare equal whatever replacement a tool would show."""
    text = data.decode("utf-8", "surrogateescape")
    return text[1:] if text.startswith("\ufeff") else text


def js_trim(text: str) -> str:
    """``text.trim()`` as JavaScript does it (see :data:`JS_WHITESPACE`)."""
    return text.strip(JS_WHITESPACE)


@dataclass
class NoteView:
    """One note as a tool sees it.

    Attributes:
        path: POSIX path of the note file, relative to the store root.
        fields: key -> value in the tool's own key names (``description``,
            ``summary``, ``metadata.type`` is reported as ``type`` when the
            tool reads nested keys), values as the tool holds them: ``str``
            or ``list[str]``; unknown keys included, in file order.
        body: the note text the tool takes for the body, ``\\n`` line ends as
            the tool keeps them (``None`` when the tool does not read it).
        readable: False when the tool sees no fields at all (invalid YAML for
            Claude Code, a header that makes the mm reference refuse).
        problem: why, when not readable (a short sentence), else ``""``.
        nested: keys whose value came from under ``metadata:``.
    """

    path: str
    fields: dict[str, Any] = field(default_factory=dict)
    body: str | None = None
    readable: bool = True
    problem: str = ""
    nested: set[str] = field(default_factory=set)


@dataclass
class Reading:
    """A store as one tool sees it.

    Attributes:
        tool: the tool's name as messages show it (``"Claude Code"``,
            ``"the upstream Engramory doctor"``, ...).
        notes: note path -> :class:`NoteView`, for every note the tool lists.
        pointers: index pointer targets (store-relative, POSIX) in index
            order, as the tool finds them; for Claude Code only those inside
            its load window.
        refused: non-empty when the tool refuses the whole store (the mm
            reference throws ``E_PARSE``/``E_INVALID`` on load): the message.
        values: ``(NoteView) -> dict``, the tool's key map applied
            (:func:`model_values`), set by the reading.
    """

    tool: str
    notes: dict[str, NoteView] = field(default_factory=dict)
    pointers: list[str] = field(default_factory=list)
    refused: str = ""
    values: Any = None

    def note_values(self, path: str) -> dict[str, Any] | None:
        """:func:`model_values` of the note at ``path`` through the tool's own
        key map (``values`` is set by each reading), ``None`` when the tool
        does not list that note or cannot read its fields."""
        view = self.notes.get(path)
        if view is None or not view.readable:
            return None
        return self.values(view)


def scalar_text(value: Any) -> Any:
    """A YAML value as comparable data: ``str`` unchanged; ``True``/``False``
    -> ``"true"``/``"false"``; ``None`` -> ``""``; numbers and dates -> their
    text (``2026-03-20``); lists -> lists of those; mappings stay mappings of
    those."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, list):
        return [scalar_text(v) for v in value]
    if isinstance(value, dict):
        return {str(k): scalar_text(v) for k, v in value.items()}
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


#: Model fields a tool comparison checks. ``title``, ``index_hook``,
#: ``index_section`` (what an index line shows), ``category`` and ``slug``
#: (what the path holds) mean different things to each tool; the round trip
#: and the carriers cover them, not this comparison.
COMPARED = ("name", "summary", "type", "tags", "created", "updated", "scope", "aliases", "confidence",
            "budget", "entry_body")
LIST_FIELDS = ("tags", "aliases")


def as_list(value: Any) -> list[str]:
    """A list field's value: a list stays; text ``a, b`` or ``[a, b]`` is split
    on commas (how a list written as one string reads as a list)."""
    if isinstance(value, list):
        return [str(v) for v in value]
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return [p.strip() for p in text.split(",") if p.strip()]


def model_values(view: NoteView, keymap: dict[str, str]) -> dict[str, Any]:
    """What a tool sees of one note, in model terms: ``{field: value}`` for
    the fields in :data:`COMPARED` (through ``keymap``: tool key -> model
    field), ``"extra:<key>"`` for every other key, ``"body"`` for the body
    (line ends made ``\\n``, leading and trailing blank lines dropped).

    ``mmlint-*`` keys are read back as the fields or keys they carry
    (:func:`mmlint.carriers.restore`); a carrier wins over the native key,
    whose own value the target's form check compares (see
    :func:`compare`). Empty values count as absent. Mappings (Claude Code's
    ``metadata:``) are not values: the reading already lifted their keys.
    """
    from mmlint import carriers

    out: dict[str, Any] = {}
    carried: dict[str, Any] = {}
    for key, value in view.fields.items():
        if isinstance(value, dict) or value in ("", [], None):
            continue
        back = carriers.restore(key, value) if key.startswith(carriers.PREFIX) else None
        if back is not None:
            name = back[1] if back[0] == "field" else "extra:" + back[1]
            carried[name] = back[2]
            continue
        field_name = keymap.get(key)
        if field_name is None:
            out["extra:" + key] = value
        elif field_name in COMPARED:
            out[field_name] = as_list(value) if field_name in LIST_FIELDS else value
    native = {k: out[k] for k in carried if k in out}
    for k, v in carried.items():
        if isinstance(v, dict) and k.startswith("extra:"):
            for child, cv in v.items():  # a carried mapping: its keys, as the tools lift nested keys
                if cv not in ("", [], None) and not isinstance(cv, dict):
                    out.setdefault("extra:" + str(child), cv)
        elif k in COMPARED or k.startswith("extra:"):
            out[k] = v
    if native:
        out["native:"] = native
    if view.body is not None:
        out["body"] = view.body.replace("\r\n", "\n").strip("\n")
    return out


@dataclass
class Difference:
    """One value a target tool would see differently from the source tool.

    ``path`` is the source note path, ``field`` the model field (or
    ``extra:<key>``, ``body``, ``note`` for a note the target does not list,
    ``fields`` for a note the target tool cannot read at all), ``want`` what
    the source tool sees (after fills), ``got`` what the target tool sees
    (``None``: absent), ``tool`` the target tool's name.
    """

    path: str
    field: str
    want: Any
    got: Any
    tool: str


def compare(src: dict[str, dict[str, Any]], dst: Reading, dst_values: dict[str, dict[str, Any]],
            paths: dict[str, str], native_form: Any = None) -> list[Difference]:
    """Differences between what the source tool sees and what the target
    tool sees.

    Args:
        src: source note path -> expected values (:func:`model_values` of the
            source tool's view, with the plan's fills added and allowed
            losses removed); a note the source tool cannot read is left out
            of ``src`` (mmlint's own values stand in, compared by the caller).
        dst: the target tool's reading of the written files.
        dst_values: DST note path -> :func:`model_values` of ``dst``'s views.
        paths: source note path -> DST note path.
        native_form: ``(field, value) -> value`` the target's own form of a
            value it holds natively while a carrier keeps the original (a
            date in mm's ISO date-time); identity when ``None``.

    Returns every difference, in source path order, then field order.
    """
    out: list[Difference] = []
    for path in sorted(src):
        want = src[path]
        target = paths.get(path)
        view = dst.notes.get(target) if target is not None else None
        if view is None:
            out.append(Difference(path, "note", target, None, dst.tool))
            continue
        if not view.readable:
            out.append(Difference(path, "fields", "its fields", view.problem, dst.tool))
            continue
        got = dst_values.get(target, {})
        for key in [k for k in COMPARED if k in want or k in got] + sorted(
                k for k in set(want) | set(got) if k.startswith("extra:")) + ["body"]:
            if want.get(key) != got.get(key):
                out.append(Difference(path, key, want.get(key), got.get(key), dst.tool))
        for key, seen in got.get("native:", {}).items():
            form = native_form(key, got.get(key)) if native_form is not None else got.get(key)
            if form != seen:
                out.append(Difference(path, key, form, seen, dst.tool))
    return out
