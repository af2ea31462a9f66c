"""Notes with ``---`` frontmatter, shared by the engramory and workspace dialects.

:func:`read_note` fills a :class:`~mmlint.model.Note` from a file and keeps a
:class:`NoteLayout`; :func:`render_note` writes a note back: lines whose value
did not change are emitted exactly as read, changed values are re-rendered in
the note's own line-ending style, new values are appended before the closing
fence. A note with no layout (one converted from another dialect) is written
canonically.
"""

from __future__ import annotations

import sys
from functools import partial

from mmlint import carriers
from mmlint import frontmatter as fmmod
from mmlint.dialects import Unrepresentable
from mmlint.model import EMPTY_DICT, NOTE_FIELDS, Note, Problem, Span, Spans
from mmlint.textutil import BOM_BYTES, apply_newline, decode, encode, to_lf

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: Keys whose value is a list in the model.
LIST_FIELDS = ("tags", "aliases")
#: Fields whose values repeat across notes (a handful of types, dates).
_REPEATED = frozenset({"type", "created", "updated", "scope", "confidence"})
#: The parent key Claude Code nests fields under.
NEST = "metadata"


#: ``(dialect, id(keymap), raw)`` -> the ``(dialect, keymap, raw)`` tuple
#: the layouts read that way share (at most 64).
_HOWS: dict[tuple, tuple] = {}


class NoteLayout:
    """How a frontmatter note was written on disk (for byte-exact rewriting).

    Attributes:
        dialect: the dialect that read the note (a writer reuses only its own).
        data: the file's raw bytes (the same object the walk read: no copy).
        bom, newline: the file's BOM and line-ending style
            (:class:`mmlint.textutil.Decoded`; ``"\\n"`` when it has none).
        fm: the :class:`mmlint.frontmatter.Frontmatter` of this reading
            (``None`` when the file has none).
        head: the text before the body (the frontmatter with its closing
            fence line), ``body_raw`` the text after it as on disk,
            ``body_lf`` that text with LF line ends, ``lead_blank`` whether a
            blank line opens it.
        read: each model field and ``extra:`` key -> the value the reader
            found, so the writer can tell what changed.
        field_items: model field (or ``extra:<key>``, ``form:<field>``) ->
            the frontmatter item it was read from (an item of ``fm``).

    Only ``dialect`` and ``data`` are kept when a note is read: everything
    else is computed from ``data`` on first access (by reading the note
    again with the same arguments) and kept from then on. A check, which
    never rewrites, so holds no second copy of any note text.
    """

    __slots__ = ("_how", "data", "_path", "_slug", "_category", "_parts", "_patch")

    def __init__(self, dialect: str, data: bytes, args: tuple) -> None:
        self.data = data
        # the arguments of read_note, in slots (a tuple would cost 64 bytes a note more); the
        # dialect, keymap and raw flag in one tuple shared by the notes a reader reads alike
        path, keymap, self._slug, self._category, raw = args
        self._path = path
        how = (dialect, keymap, raw)
        got = _HOWS.get((dialect, id(keymap), raw))
        if got is None or got[1] is not keymap:
            got = how
            if len(_HOWS) < 64:
                _HOWS[(dialect, id(keymap), raw)] = how  # the tuple holds the keymap: its id is not reused
        self._how = got
        self._parts: dict[str, Any] | None = None
        self._patch: dict[str, Any] | None = None

    @property
    def dialect(self) -> str:
        """The dialect that read the note (a writer reuses only its own)."""
        return self._how[0]

    @property
    def _raw(self) -> bool:
        return self._how[2]

    @property
    def _args(self) -> tuple:
        """``(path, keymap, slug, category, raw)``: how :func:`read_note` read the note."""
        return self._path, self._how[1], self._slug, self._category, self._how[2]

    @property
    def built(self) -> bool:
        """True once anything beyond ``dialect`` and ``data`` was asked for."""
        return self._parts is not None

    def set_read(self, fieldname: str, value: Any) -> None:
        """Record ``value`` as what the reader found for ``fieldname`` (a
        dialect's reader that adjusts a value after :func:`read_note`)."""
        if self._parts is not None:
            self._parts["read"][fieldname] = value
        else:
            self._patch = {**(self._patch or {}), fieldname: value}

    def once(self) -> "NoteLayout":
        """This layout when it is built; else a built twin that is not kept,
        for a look at every note's layout that must not keep them all (the
        origin record of a conversion, :func:`origin_layouts`)."""
        if self._parts is not None:
            return self
        twin = NoteLayout(self.dialect, self.data, self._args)
        twin._patch = self._patch
        return twin

    def light(self) -> dict[str, Any]:
        """The parts of this layout a look at the file's text needs
        (``bom``, ``newline``, ``head``, ``body_lf``, ``lead_blank``,
        ``read``: see :func:`_read`), without keeping anything built: the
        built parts when there are, else, for a note the reader's fast path
        takes (:func:`_read_plain`), those parts made from its cheap read
        (no :class:`~mmlint.frontmatter.Item` made), else a twin's
        (:meth:`once`). The same values in every case (a test holds the
        fast ones to :func:`_read`'s)."""
        if self._parts is None:
            got = _plain_parts(*self._args[:1], self.data, *self._args[1:])
            if got is not None:
                if self._patch:
                    got["read"].update(self._patch)
                return got
        lay = self.once()
        return {name: lay._get(name) for name in ("bom", "newline", "head", "body_lf", "lead_blank", "read")}

    def __call__(self, lines: bool = False, known: Any = None) -> Any:
        """The frontmatter items of ``data`` as the note was read (with
        ``lines``: the text they are parsed from); what the note's unloaded
        :class:`~mmlint.frontmatter.Frontmatter` calls to make them again
        (``known``: its YAML values, see :func:`mmlint.frontmatter.parse`)."""
        return _items_of(self.data, self._raw, lines, known)

    def _get(self, name: str) -> Any:
        parts = self._parts
        if parts is None:
            path, keymap, slug, category, raw = self._args
            parts = _read(path, self.data, keymap, slug, category, raw)[2]
            assert parts is not None
            if self._patch:
                parts["read"].update(self._patch)
            self._parts = parts
        return parts[name]

    bom = property(lambda self: self._get("bom"))
    newline = property(lambda self: self._get("newline"))
    fm = property(lambda self: self._get("fm"))
    head = property(lambda self: self._get("head"))
    body_raw = property(lambda self: self._get("body_raw"))
    body_lf = property(lambda self: self._get("body_lf"))
    lead_blank = property(lambda self: self._get("lead_blank"))
    read = property(lambda self: self._get("read"))
    field_items = property(lambda self: self._get("field_items"))


def origin_layouts(store: Any, outside: tuple[str, ...] = ()) -> dict[str, tuple[str, bool, str, bool]]:
    """``note path -> (head, lead, newline, bom)`` of every note read with a
    :class:`NoteLayout` whose values are still the ones read (a note changed
    in memory is left out: its file no longer holds it), for
    :func:`mmlint.carriers.make_origin`: the text before the body (the
    frontmatter with its closing fence line), whether a blank line opens the
    body, the line-ending style, the BOM. ``outside``: fields the dialect
    keeps elsewhere (the engramory index). A layout not built yet is not
    kept built (:meth:`NoteLayout.once`)."""
    out = {}
    for n in store.notes:
        if isinstance(n.layout, NoteLayout):
            parts = n.layout.light()
            if n.slug == parts["read"].get("slug") and _unchanged(n, parts, outside):
                out[n.path] = (parts["head"], parts["lead_blank"], parts["newline"], parts["bom"])
    return out


def split_list(value: Any) -> list[str] | None:
    """Tags/aliases as a list: YAML lists stay, ``"a, b"`` splits on commas."""
    if value is None:
        return None
    if isinstance(value, list):
        return [str(v) for v in value]
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return [p.strip() for p in text.replace("，", ",").split(",") if p.strip()]


def read_note(path: str, data: bytes, keymap: dict[str, str], dialect: str, slug: str,
              category: tuple[str, ...] = (), raw: bool = False) -> tuple[Note, list[Problem]]:
    """Read one note.

    Args:
        path: store-relative POSIX path.
        data: raw bytes.
        keymap: frontmatter key -> model field (e.g. ``description`` -> ``summary``).
        dialect: the dialect name recorded in the layout.
        slug: the note's slug.
        category: workspace category folders.
        raw: read values as a reader with no YAML does (the workspace
            plugin): a one-line value is the text after the first ``:``,
            trimmed, quotes and brackets kept; a list field is split on ``,``.

    Returns:
        ``(note, problems)``; problems carry frontmatter grammar findings.
    """
    lay = NoteLayout(dialect, data, (path, keymap, slug, category, raw))
    note, problems, _ = _read(path, data, keymap, slug, category, raw, False, reload=lay)
    note.layout = lay
    return note, problems


def _read(path: str, data: bytes, keymap: dict[str, str], slug: str, category: tuple[str, ...],
          raw: bool, parts_wanted: bool = True, fast: bool = True,
          reload: Any = None) -> tuple[Note, list[Problem], dict[str, Any] | None]:
    """:func:`read_note` without the layout: ``(note, problems, parts)``
    where ``parts`` are the values of a :class:`NoteLayout` (``None``
    unless ``parts_wanted``). ``fast``: a block of plain one-line
    ``key: value`` lines is read by :func:`_read_plain` (the same note).
    ``reload``: what an unloaded frontmatter block calls to make its items
    again (:meth:`mmlint.frontmatter.Frontmatter.unload`; the note's
    :class:`NoteLayout`, else a partial of :func:`_items_of`)."""
    if reload is None and not parts_wanted:
        reload = partial(_items_of, data, raw)
    if fast and not parts_wanted:
        got = _read_plain(path, data, keymap, slug, category, raw, reload)
        if got is not None:
            return got
    dec, text, fm = _parse(data, raw)
    problems: list[Problem] = []
    note = Note(path=path, slug=slug, category=category, header=EMPTY_DICT)  # a frontmatter note has no line header
    read: dict[str, Any] = {}
    field_items: dict[str, fmmod.Item] = {}
    if fm is None:
        head, body_raw = "", text
    else:
        for p in fm.problems:
            problems.append(Problem(p.code, p.message, Span(path, p.line, p.column), hint=p.hint))
        head = text[: fm.body_offset] if fm.close_raw is not None else text
        body_raw = text[fm.body_offset:] if fm.close_raw is not None else ""
        extra: dict[str, Any] = {}
        nested: dict[str, Any] = {}
        carried: dict[str, Any] = {}
        paired: dict[str, tuple[fmmod.Item, Any]] = {}
        for it in fm.items:
            if it.kind not in ("scalar", "yaml"):
                continue
            fieldname = keymap.get(it.key)
            if fieldname is None and it.key.startswith(carriers.PREFIX) and it.parent in (None, NEST):
                back = carriers.restore(it.key, it.value)
                why = carriers.invalid(*back) if back is not None else None
                if why is not None:
                    problems.append(Problem("X112", f"carrier {it.key!r} {why}; read as an unknown key", Span(path, it.line, it.key_col)))
                    back = None
                if back is not None and back[0] == "field" and back[1] in keymap.values() and back[1] not in paired:
                    paired[back[1]] = (it, back[2])  # the original form of a native value (see below)
                    continue
                if back is not None and back[0] == "field":
                    fieldname = back[1]
                    carried[fieldname] = back[2]
                elif back is not None:
                    key = "extra:" + back[1]
                    if key in field_items:
                        problems.append(Problem("F107", f"duplicate frontmatter key {it.key!r} (keep exactly one)", Span(path, it.line, it.key_col)))
                    extra[back[1]] = back[2]
                    field_items[key] = it
                    continue
            if it.parent is None:
                if fieldname:
                    if fieldname in field_items and field_items[fieldname].parent is None:
                        problems.append(Problem("F107", f"duplicate frontmatter key {it.key!r} (keep exactly one)", Span(path, it.line, it.key_col)))
                    elif fieldname in field_items:
                        problems.append(Problem("F108", f"{it.key!r} is set both at top level and under '{NEST}:'; the top-level value is used", Span(path, it.line, it.key_col)))
                    field_items[fieldname] = it
                else:
                    key = "extra:" + it.key
                    if key in field_items:
                        problems.append(Problem("F107", f"duplicate frontmatter key {it.key!r} (keep exactly one)", Span(path, it.line, it.key_col)))
                    extra[it.key] = it.value
                    field_items[key] = it
            elif it.parent == NEST and fieldname and (it.key in keymap or fieldname in carried):
                if fieldname in field_items:
                    other = field_items[fieldname]
                    problems.append(Problem("F108" if other.parent is None else "F107",
                                            f"{it.key!r} is set both at top level and under '{NEST}:'; the top-level value is used" if other.parent is None else f"duplicate frontmatter key {it.key!r} under '{NEST}:'",
                                            Span(path, it.line, it.key_col)))
                    if other.parent is None:
                        continue
                field_items[fieldname] = it
            else:
                key = f"extra:{it.parent}.{it.key}"
                if key in field_items:
                    problems.append(Problem("F107", f"duplicate frontmatter key {it.key!r} under '{it.parent}:'", Span(path, it.line, it.key_col)))
                nested.setdefault(it.parent, {})[it.key] = it.value
                field_items[key] = it
        for parent_key, children in nested.items():
            extra[parent_key] = children
        for fieldname, (cit, orig) in paired.items():
            # A native value written in the target's form, with the original
            # in its carrier: the original, unless the native value was
            # edited since (then the edit stands, and the carrier is stale).
            nit = field_items.get(fieldname)
            if nit is None:
                field_items[fieldname] = cit
                carried[fieldname] = orig
                continue
            field_items["form:" + fieldname] = cit
            if nit.value == orig or nit.value in (carriers.to_form(orig, "date"), carriers.to_form(orig, "datetime")):
                carried[fieldname] = orig
        skeys: list[str] = []  # the spans, made in one step (one key at a time is quadratic in the keys)
        sflat: list[int] = []  # 0, line, column of each
        for fieldname, it in field_items.items():
            if fieldname.startswith(("extra:", "form:")):
                continue
            if fieldname == "category":
                note.category = tuple(p for p in str(carried.get(fieldname, it.value)).split("/") if p)
                skeys.append("category")
                sflat += (0, it.line, it.value_col)
                continue
            if fieldname in carried:
                value = carried[fieldname]
            else:
                if raw and fieldname in LIST_FIELDS and isinstance(it.value, str):
                    value = [p.strip() for p in it.value.split(",") if p.strip()]
                else:
                    value = split_list(it.value) if fieldname in LIST_FIELDS else _as_text(it.value)
            if fieldname in _REPEATED and len(value) <= 32:
                value = sys.intern(value)  # one string for every note of the same type or date
            elif value == slug:
                value = slug  # a name is most often its file's stem: one string
            setattr(note, fieldname, value)
            skeys.append(fieldname)
            sflat += (0, it.line, it.value_col)
        for key, value in extra.items():
            note.extra[key] = value
            it = field_items.get("extra:" + key)
            if it is not None:
                skeys.append("extra:" + key)
                sflat += (0, it.line, it.key_col)
        note.spans = Spans.packed(path, skeys, sflat)
    if not note.extra:
        note.extra = EMPTY_DICT  # most notes: one shared empty dict
    body_lf = to_lf(body_raw)
    lead = fm is not None and body_lf.startswith("\n")
    note.body = body_lf[1:] if lead else body_lf
    note.body_line = 1 + head.count("\n") + (1 if lead else 0)
    note.frontmatter = fm
    if fm is not None and fm.close_raw is None:
        first_nl = text.find("\n")
        note.unclosed_head = to_lf(text[first_nl + 1 :]) if first_nl >= 0 else ""
    if not parts_wanted:
        if fm is not None:
            fm.unload(reload)  # rules rarely need them; _items_of makes them again
        return note, problems, None
    read.update(_read_values(note, keymap))
    parts = {"bom": dec.bom, "newline": dec.newline or "\n", "fm": fm, "head": head, "body_raw": body_raw,
             "body_lf": body_lf, "lead_blank": lead, "read": read, "field_items": field_items}
    return note, problems, parts


def _read_values(note: Note, keymap: dict[str, str]) -> dict[str, Any]:
    """What the reader found, field by field (a layout's ``read`` part):
    every field of ``keymap`` and :data:`NOTE_FIELDS`, the category, the
    slug and a copy of the extra keys."""
    read = {f: getattr(note, f) for f in list(keymap.values()) + [f for f in NOTE_FIELDS if f not in keymap.values()]}
    read["category"] = note.category
    read["slug"] = note.slug
    read["extra"] = _copy(note.extra)
    return read


def _plain_parts(path: str, data: bytes, keymap: dict[str, str], slug: str, category: tuple[str, ...],
                 raw: bool) -> dict[str, Any] | None:
    """The parts :meth:`NoteLayout.light` gives, for a note the fast path
    reads (:func:`_read_plain`; ``None`` for any other): such a file has no
    ``\r``, so its line ends are ``\n`` and its body is already LF."""
    got = _read_plain(path, data, keymap, slug, category, raw)
    if got is None:
        return None
    note = got[0]
    bom = data.startswith(BOM_BYTES)
    text = (data[3:] if bom else data).decode("utf-8", "surrogateescape")
    offset = note.frontmatter.body_offset
    body = text[offset:]
    return {"bom": bom, "newline": "\n", "head": text[:offset], "body_lf": body, "lead_blank": body.startswith("\n"),
            "read": _read_values(note, keymap)}


def _read_plain(path: str, data: bytes, keymap: dict[str, str], slug: str, category: tuple[str, ...],
                raw: bool, reload: Any = None) -> tuple[Note, list[Problem], None] | None:
    """:func:`_read` for the common note, with no :class:`~mmlint.frontmatter.Item`
    made: a frontmatter block of plain one-line top-level ``key: value``
    lines (:func:`mmlint.frontmatter.plain_block`), each key once, no
    carrier key, no ``\\r`` in the file. ``None`` for any other note (then
    :func:`_read` reads it the general way). The block is left unloaded:
    its items are made from ``data`` if a rule asks for them."""
    text = (data[3:] if data.startswith(BOM_BYTES) else data).decode("utf-8", "surrogateescape")  # = decode(data).text
    block = fmmod.plain_block(text)
    if block is None:
        return None
    lines, close, fields, body_offset = block
    values: dict[str, Any] = {"category": category}
    extra: dict[str, Any] = {}
    keys: list[str] = []  # the spans' keys: the fields read, then the extra keys
    flat: list[int] = []  # 0, line, column of each
    extra_keys: list[str] = []
    extra_flat: list[int] = []
    prefix = carriers.PREFIX
    for key, value, line, col in fields:
        fieldname = keymap.get(key)
        if key.startswith(prefix):
            return None  # a carrier: the general way
        if not fieldname:
            if key in extra:
                return None  # a duplicate (F107): the general way
            extra[key] = value
            extra_keys.append("extra:" + key)
            extra_flat += (0, line, 1)
            continue
        if fieldname in keys:
            return None  # a duplicate (F107): the general way
        keys.append(fieldname)
        flat += (0, line, col)
        if fieldname in _REPEATED:
            values[fieldname] = sys.intern(value) if len(value) <= 32 else value
        elif fieldname == "category":
            values["category"] = tuple(p for p in value.split("/") if p)
        elif fieldname in LIST_FIELDS:
            values[fieldname] = [p.strip() for p in value.split(",") if p.strip()] if raw else split_list(value)
        else:
            values[fieldname] = slug if value == slug else value  # a name is most often its file's stem: one string
    if extra_keys:
        keys += extra_keys
        flat += extra_flat
    body = text[body_offset:]
    lead = body.startswith("\n")
    fm = fmmod.Frontmatter.unloaded(lines[0], lines[close], close + 1, body_offset,
                                    tuple([f[0] for f in fields]), reload or partial(_items_of, data, raw))
    note = Note(path=path, slug=slug, extra=extra or EMPTY_DICT, header=EMPTY_DICT, spans=Spans.packed(path, keys, flat),
                body=body[1:] if lead else body, body_line=1 + text.count("\n", 0, body_offset) + (1 if lead else 0),
                frontmatter=fm, **values)
    return note, [], None


def _parse(data: bytes, raw: bool, known: Any = None) -> tuple[Any, str, fmmod.Frontmatter | None]:
    """``(Decoded, text, frontmatter)`` of a note's bytes: the one decode,
    CR-only line ends read as LF, and (``raw``) one-line values read as a
    reader with no YAML reads them (see :func:`read_note`)."""
    dec = decode(data)
    # CR-only files (classic Mac line endings) are read as if they used LF,
    # as the recall-v1 spec §2 asks; the original bytes are kept for rewriting.
    text = dec.text.replace("\r", "\n") if dec.newline == "\r" else dec.text
    fm = fmmod.parse(text, known)
    if raw and fm is not None:
        for it in fm.items:
            if it.kind in ("scalar", "yaml") and len(it.raw) == 1:
                it.value = it.raw[0].rstrip("\r").partition(":")[2].strip()
                it.kind, it.quote = "scalar", None
    return dec, text, fm


def _items_of(data: bytes, raw: bool, lines: bool = False, known: Any = None) -> Any:
    """The frontmatter items :func:`read_note` read from ``data`` (for an
    unloaded :class:`~mmlint.frontmatter.Frontmatter`); with ``lines``, the
    text they were parsed from instead (nothing parsed); ``known``: the
    block's YAML values (:meth:`~mmlint.frontmatter.Frontmatter.known_yaml`),
    taken instead of parsing them again."""
    if lines:
        dec = decode(data)
        return dec.text.replace("\r", "\n") if dec.newline == "\r" else dec.text
    fm = _parse(data, raw, known)[2]
    return fm.items if fm is not None else []


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return str(value)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


#: Model values that a note's file path holds: written as carriers only when
#: the path a writer chose does not hold them (see ``carry`` in :func:`render_note`).
PATH_FIELDS = ("slug", "category")


def path_carry(note: Note, path: str) -> tuple[str, ...]:
    """Which of :data:`PATH_FIELDS` the POSIX ``path`` a writer chose for
    ``note`` does not hold: ``slug`` when the file stem (without ``.md``, any
    case) differs from it, ``category`` when the folders do."""
    *folders, name = path.split("/")
    stem = name[:-3] if name.lower().endswith(".md") else name
    return tuple(f for f, held in (("slug", stem == note.slug), ("category", tuple(folders) == note.category)) if not held)


def _path_value(note: Note, fieldname: str) -> str:
    return "/".join(note.category) if fieldname == "category" else note.slug


def _fields_to_write(note: Note, keymap: dict[str, str], outside: tuple[str, ...], carry: tuple[str, ...]) -> list[str]:
    """Present fields this note's frontmatter must hold: native ones in key
    order, then carried ones (every model field the dialect keeps nowhere
    else), then the path parts in ``carry``."""
    native = [f for f in keymap.values() if getattr(note, f) is not None]
    carried = [f for f in NOTE_FIELDS if f not in keymap.values() and f not in outside and getattr(note, f) is not None]
    carried += [f for f in PATH_FIELDS if f in carry and _path_value(note, f)]
    return native + carried


def _render_field(note: Note, fieldname: str, rev: dict[str, str], nl: str, emit: Any = fmmod.render_item,
                  forms: dict[str, str] | None = None) -> list[str]:
    value = _path_value(note, fieldname) if fieldname in PATH_FIELDS else getattr(note, fieldname)
    form = carriers.to_form(value, (forms or {}).get(fieldname))
    if fieldname in rev and form != value:  # the target's own form, the original in the carrier
        return (_must_render(note, rev[fieldname], form, fieldname, nl, emit)
                + _must_render(note, carriers.FIELD_KEYS[fieldname], carriers.frontmatter_safe(carriers.encode_value(value)), fieldname, nl, emit))
    if fieldname in rev:
        if emit is raw_item and fieldname != "category" and raw_item(rev[fieldname], value) is None:
            pass  # not writable as the plugin reads it: the value goes into its carrier key instead
        else:
            return _must_render(note, rev[fieldname], value, fieldname, nl, emit)
    return _must_render(note, carriers.FIELD_KEYS[fieldname], carriers.frontmatter_safe(carriers.encode_value(value)), fieldname, nl, emit)


def raw_item(key: str, value: Any, indent: str = "", newline: str = "\n") -> list[str] | None:
    """Raw lines for ``key: value`` as a reader with no YAML reads them (the
    workspace plugin: split at the first ``:``, both sides trimmed, nothing
    unquoted; ``tags`` a comma list), or ``None`` when such a reader cannot
    get ``value`` back: a line break, edge spaces, an empty value, a lone
    ``|``/``>`` (a YAML block scalar to mmlint's own reader); for a list,
    an element that is empty or holds ``,`` or edge spaces."""
    cr = "\r" if newline == "\r\n" else ""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if any(not v or "," in v or v != v.strip() or "\n" in v or "\r" in v for v in value):
            return None
        value = ", ".join(value)
    if value == "":
        return [f"{indent}{key}:{cr}"]
    if not isinstance(value, str) or "\n" in value or "\r" in value or value != value.strip():
        return None
    if value.rstrip("+-0123456789") in ("|", ">"):
        return None
    return [f"{indent}{key}: {value}{cr}"]


def render_note(note: Note, keymap: dict[str, str], dialect: str, order: tuple[str, ...],
                outside: tuple[str, ...] = (), carry: tuple[str, ...] = (), carry_extras: bool = False,
                raw: bool = False, requote: bool = False, forms: dict[str, str] | None = None) -> bytes:
    """Serialize ``note`` with frontmatter.

    Args:
        keymap: frontmatter key -> model field.
        dialect: only a layout of this dialect is reused.
        order: frontmatter keys in the order a new note gets them.
        outside: model fields the dialect keeps in its index, not in notes.
        carry: which of ``slug`` and ``category`` the note's file path does
            not hold, so they are written as ``mmlint-slug`` /
            ``mmlint-category``; a carrier line left from an earlier
            conversion whose value the path now holds is dropped.
        carry_extras: write every unknown key not already in the note's
            frontmatter as ``mmlint-extra-<key>``, for a tool that moves
            unknown keys around (Claude Code nests them under ``metadata:``);
            a ``metadata:`` block itself stays one.
        raw: write values as a reader with no YAML reads them
            (:func:`raw_item`, the workspace plugin); a native value it
            cannot hold goes into its ``mmlint-<field>`` carrier.
        forms: model field -> the target's form of it (:func:`mmlint.carriers.to_form`):
            such a value is written in that form, the original in its carrier.
        requote: the note's own layout is reused for another reader (an
            engramory note of another profile): an unquoted value that a
            YAML reader or the doctor would read otherwise (``: ``, `` #``,
            a leading quote) is quoted, the other lines are kept.

    Raises:
        Unrepresentable: a value that the key:value grammar cannot hold.
    """
    emit = raw_item if raw else fmmod.render_item
    rev = {v: k for k, v in keymap.items()}
    reserved = set(keymap) | (set(note.extra) - {NEST} if carry_extras else set())
    # a twin (NoteLayout.once): a conversion of 20,000 notes does not keep every note's layout built
    lay = note.layout.once() if isinstance(note.layout, NoteLayout) and note.layout.dialect == dialect else None
    requote = requote and lay is not None and lay.fm is not None and any(_needs_quotes(it) for it in lay.fm.items)
    if lay is not None and not requote and all((f in lay.field_items) == (f in carry) for f in PATH_FIELDS) and _unchanged(note, lay, outside):
        return lay.data  # nothing changed and the path still holds what it held
    if lay is not None and lay.fm is None and not note.extra and not _fields_to_write(note, keymap, outside, carry):
        body = lay.body_raw if note.body == lay.body_lf else apply_newline(note.body, lay.newline)
        return encode(body, lay.bom)
    if lay is None or lay.fm is None:
        return encode(_render_fresh(note, keymap, order, outside, carry, reserved, emit, forms))
    fm = lay.fm
    nl = "\r\n" if lay.newline == "\r\n" else "\n"
    out: list[str] = [fm.open_raw]
    done: set[str] = set()
    for it in fm.items:
        key = _item_field(it, keymap, lay)
        if key is None:
            out.extend(it.raw)
            continue
        if key.startswith("form:"):  # the carrier of a value written in the target's form
            f = key[len("form:"):]
            new = getattr(note, f)
            if new == lay.read.get(f):
                out.extend(it.raw)
            elif new is not None and carriers.to_form(new, (forms or {}).get(f)) != new:
                out.extend(_must_render(note, it.key, carriers.frontmatter_safe(carriers.encode_value(new)), f, nl, emit))
            continue
        done.add(key)
        if key in PATH_FIELDS and key not in carry:
            continue
        old = lay.read.get(key) if not key.startswith("extra:") else _extra_get(lay.read["extra"], key)
        new = getattr(note, key) if not key.startswith("extra:") else _extra_get(note.extra, key)
        if new == old and requote and _needs_quotes(it):
            lines = fmmod.render_item(it.key, new, it.indent, nl)
            out.extend(lines if lines is not None else it.raw)
            continue
        if new == old:
            out.extend(it.raw)
            continue
        if new is None or new == ():
            continue
        if key == "category":
            new = "/".join(new)
        elif forms and key in forms and carriers.to_form(new, forms[key]) != new and not it.key.startswith(carriers.PREFIX):
            out.extend(_render_field(note, key, rev, nl, emit, forms) if "form:" + key not in lay.field_items
                       else _must_render(note, it.key, carriers.to_form(new, forms[key]), key, nl, emit))
            continue
        if it.key.startswith(carriers.PREFIX):
            new = carriers.encode_value(new) if not it.key.startswith(carriers.EXTRA_PREFIX) else carriers.extra_key("", new, {""})[1]
            new = carriers.frontmatter_safe(new)
        lines = emit(it.key, new, it.indent, nl)
        if lines is None:
            raise Unrepresentable(note.path, key, "value cannot be written as frontmatter key: value")
        out.extend(lines)
    for fieldname in _fields_to_write(note, keymap, outside, carry):
        if fieldname not in done:
            out.extend(_render_field(note, fieldname, rev, nl, emit, forms))
    for key, value in note.extra.items():
        if "extra:" + key not in done and not (isinstance(value, dict) and any(f"extra:{key}.{k}" in done for k in value)):
            out.extend(_render_extra(note, key, value, reserved, nl, emit))
    if fm.close_raw is None:
        return encode(_restore_cr("\n".join(out), lay), lay.bom)
    out.append(fm.close_raw)
    head = "\n".join(out)
    sep = "\n" if lay.head.endswith("\n") else ""
    if note.body == to_lf(lay.body_raw)[1 if lay.lead_blank else 0:]:
        body = lay.body_raw
    else:
        body = apply_newline(("\n" if lay.lead_blank else "") + note.body, lay.newline)
    return encode(_restore_cr(head + sep + body, lay), lay.bom)


def _needs_quotes(it: fmmod.Item) -> bool:
    """An unquoted one-line value that YAML (Claude Code) or the doctor's
    quote rule reads otherwise than as written (:func:`mmlint.frontmatter.quote_value`
    would quote it)."""
    return (it.kind == "scalar" and it.quote is None and len(it.raw) == 1 and isinstance(it.value, str)
            and it.value != "" and fmmod.quote_value(it.value) != it.value)


def _restore_cr(text: str, lay: NoteLayout) -> str:
    """A CR-only note was parsed as LF text; give it its CR line ends back."""
    return text.replace("\n", "\r") if lay.newline == "\r" else text


def _unchanged(note: Note, lay: NoteLayout | dict[str, Any], outside: tuple[str, ...]) -> bool:
    """True when every field the file holds (all but ``outside``), the extra
    keys and the body are as the reader found them; ``lay``: the note's
    layout, or its :meth:`NoteLayout.light` parts."""
    if isinstance(lay, dict):
        body_lf, lead, read = lay["body_lf"], lay["lead_blank"], lay["read"]
    else:
        body_lf, lead, read = lay.body_lf, lay.lead_blank, lay.read
    if note.body != (body_lf[1:] if lead else body_lf) or note.extra != read["extra"]:
        return False
    if "category" not in outside and note.category != read.get("category", ()):
        return False
    return all(getattr(note, f) == read.get(f) for f in NOTE_FIELDS if f not in outside)


def _item_field(it: fmmod.Item, keymap: dict[str, str], lay: NoteLayout) -> str | None:
    for fieldname, owner in lay.field_items.items():
        if owner is it:
            return fieldname
    return None


def _extra_get(extra: dict[str, Any], key: str) -> Any:
    name = key[len("extra:"):]
    if name in extra:
        return extra[name]
    parent, _, child = name.partition(".")
    sub = extra.get(parent)
    if isinstance(sub, dict):
        return sub.get(child)
    return None


def _must_render(note: Note, key: str, value: Any, fieldname: str, nl: str, emit: Any = fmmod.render_item) -> list[str]:
    lines = emit(key, value, "", nl)
    if lines is None:
        raise Unrepresentable(note.path, fieldname, f"{key!r} value cannot be written as frontmatter key: value")
    return lines


def _render_extra(note: Note, key: str, value: Any, native: set[str], nl: str, emit: Any = fmmod.render_item) -> list[str]:
    if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()) and key not in native \
            and not key.startswith(carriers.PREFIX):
        cr = "\r" if nl == "\r\n" else ""
        lines = [f"{key}:{cr}"]
        for k, v in value.items():
            sub = emit(k, v, "  ", nl)
            if sub is None:
                raise Unrepresentable(note.path, f"extra:{key}.{k}", "value cannot be written as frontmatter key: value")
            lines.extend(sub)
        return lines
    wkey, wvalue = carriers.extra_key(key, value, native)
    return _must_render(note, wkey, carriers.frontmatter_safe(wvalue), "extra:" + key, nl, emit)


def _render_fresh(note: Note, keymap: dict[str, str], order: tuple[str, ...], outside: tuple[str, ...],
                  carry: tuple[str, ...], reserved: set[str], emit: Any = fmmod.render_item,
                  forms: dict[str, str] | None = None) -> str:
    rev = {v: k for k, v in keymap.items()}
    lines = ["---"]
    rank = {k: i for i, k in enumerate(order)}
    fields = sorted(_fields_to_write(note, keymap, outside, carry), key=lambda f: rank.get(rev.get(f, ""), len(rank)))
    for fieldname in fields:
        lines.extend(_render_field(note, fieldname, rev, "\n", emit, forms))
    for key, value in note.extra.items():
        lines.extend(_render_extra(note, key, value, reserved, "\n", emit))
    lines.append("---")
    return "\n".join(lines) + "\n\n" + note.body
