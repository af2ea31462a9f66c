"""Note frontmatter: the restricted ``key: value`` grammar, with a YAML fallback.

The grammar is the one the engramory seed spec (§2) and the reference doctor
read (see ``research/engramory-reference.md`` §1.3), made stricter where the
reference is lenient:

* the opening fence is ``---`` at column 0 (trailing spaces, tabs or ``\\r``
  allowed); the closing fence is the first later line that is ``---`` at
  column 0 with the same tolerance;
* each line is ``key: value``, split at the first ``:``; a key with an empty
  value followed by indented ``key: value`` lines is a parent (Claude Code's
  ``metadata:``), and its children are read as that parent's keys;
* a value opening with ``'`` or ``"`` must close with the same quote; the
  pair is stripped, nothing else is unescaped;
* YAML-only shapes (``- item`` lists, ``|``/``>`` block scalars, flow
  collections) are parsed with ruamel.yaml, imported only then.

Parsing keeps every raw line, so :func:`render` can rewrite changed values and
reproduce untouched lines byte for byte.
"""

from __future__ import annotations

import sys

from mmlint._record import Record
from mmlint.model import EMPTY_LIST
from mmlint.textutil import echo, lazy_re, lone_surrogate, split_lines

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: Values that the restricted grammar writes plainly only when they avoid these.
_PLAIN_START = set("-?:,[]{}#&*!|>'\"%@`")


class Item(Record):
    """One line (or one key with its continuation lines) of a frontmatter block.

    Attributes:
        kind: ``"scalar"``, ``"parent"`` (key with children), ``"yaml"`` (a key
            whose value needs YAML: list, block scalar, flow collection),
            ``"comment"``, ``"blank"`` or ``"malformed"``.
        key: the key (stripped), or ``""``.
        value: the unquoted value (``str``), YAML data for ``"yaml"`` items,
            ``None`` for parents, comments and blanks.
        raw: the raw lines (each without its ``\\n``; a ``\\r`` stays).
        line: 1-based file line of the first raw line.
        key_col, value_col: 1-based columns of key and value on that line.
        parent: the parent key for indented children, else ``None``.
        indent: leading whitespace of the first raw line.
        quote: the quote character that wrapped the value, if any.
    """

    __slots__ = _fields = ("kind", "key", "value", "raw", "line", "key_col", "value_col", "parent", "indent", "quote")

    def __init__(self, kind: str, key: str = "", value: Any = None, raw: list[str] | None = None, line: int = 0,
                 key_col: int = 1, value_col: int = 1, parent: str | None = None, indent: str = "",
                 quote: str | None = None) -> None:
        self.kind = kind
        self.key = key
        self.value = value
        self.raw = [] if raw is None else raw
        self.line = line
        self.key_col = key_col
        self.value_col = value_col
        self.parent = parent
        self.indent = indent
        self.quote = quote


class FMProblem(Record):
    """A frontmatter finding: rule ``code``, ``message``, 1-based ``line``/``column``."""

    _fields = ("code", "message", "line", "column", "hint")

    def __init__(self, code: str, message: str, line: int, column: int = 1, hint: str | None = None) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint


class Frontmatter:
    """A parsed frontmatter block.

    Attributes:
        open_raw: the raw opening fence line.
        items: every line between the fences, grouped into :class:`Item`.
        close_raw: the raw closing fence line, or ``None`` when unclosed.
        close_line: 1-based line number of the closing fence (0 when unclosed).
        body_offset: index in the text where the body starts (code points).
        problems: grammar findings.

    A reader that keeps many blocks may :meth:`unload` the items: the block
    then keeps its top-level keys (:meth:`top`) and computes ``items`` again
    on first access.
    """

    __slots__ = ("open_raw", "close_raw", "close_line", "body_offset", "problems", "_items", "_reload", "_top", "_multi",
                 "_known")

    def __init__(self, open_raw: str, items: list[Item], close_raw: str | None, close_line: int, body_offset: int,
                 problems: list[FMProblem] | None = None) -> None:
        self.open_raw = _FENCE if open_raw == _FENCE else open_raw
        self.close_raw = _FENCE if close_raw == _FENCE else close_raw
        self.close_line = close_line
        self.body_offset = body_offset
        self.problems = [] if problems is None else problems
        self._items: list[Item] | None = items
        self._reload: Any = None
        self._top: tuple[str, ...] | None = None
        self._multi = False
        self._known: dict[str, tuple[Any, str | None]] | None = None

    @property
    def items(self) -> list[Item]:
        """Every line between the fences, grouped into :class:`Item`."""
        items = self._items
        if items is None:
            if self._reload is None:
                items = []
            elif self._known:  # the YAML values read the first time: not parsed again
                items = self._reload(known=self._known)
            else:
                items = self._reload()
            self._items = items
            self._reload = None
        return items

    def known_yaml(self) -> dict[str, tuple[Any, str | None]]:
        """What :func:`yaml_load` gave for each YAML value of this block when
        it was parsed (source -> ``(data, error)``; empty when it has none):
        a reload of the items and the YAML view of the block (X104, X105)
        take them from here instead of parsing them again. Read only."""
        return self._known or {}

    @items.setter
    def items(self, value: list[Item]) -> None:
        self._items, self._reload = value, None

    @classmethod
    def unloaded(cls, open_raw: str, close_raw: str | None, close_line: int, body_offset: int,
                 top: tuple[str, ...], reload: Any) -> Frontmatter:
        """A block with no problems whose items are not made yet: what
        :meth:`unload` leaves of a parsed one (``top``: its top-level keys;
        ``reload``: see :meth:`unload`). Its ``problems`` is the shared
        :data:`mmlint.model.EMPTY_LIST`."""
        fm = cls(open_raw, EMPTY_LIST, close_raw, close_line, body_offset, EMPTY_LIST)
        fm._top = _shared_keys(top)
        fm._items, fm._reload = None, reload
        return fm

    def unload(self, reload: Any) -> None:
        """Drop the items, keeping the top-level keys and the YAML values
        read (:meth:`known_yaml`); ``reload`` is a callable: ``reload()``
        gives the same items back (the reader parsing the same bytes again;
        ``reload(known=...)`` with the YAML values it may take instead of
        parsing them), ``reload(lines=True)`` the text the block was parsed
        from."""
        self._top = _shared_keys(it.key for it in self.items if it.parent is None and it.key)
        self._multi = any(it.kind == "yaml" and len(it.raw) > 1 for it in self.items)
        self._items, self._reload = None, reload

    def raw_lines(self) -> list[str]:
        """Every raw line between the fences, each once (what the items'
        ``raw`` lists hold together; without its ``\\n``, a ``\\r`` kept):
        grouped by item while the items are loaded, in file order while
        they are not (then the items are not loaded for it)."""
        if self._items is None and self._reload is not None:
            text = self._reload(lines=True)
            lines = split_lines(text)
            return lines[1:self.close_line - 1] if self.close_raw is not None else lines[1:]
        return [r for it in self.items for r in it.raw]

    @property
    def multiline(self) -> bool:
        """True when some item is a YAML value spanning lines (a block list
        or block scalar: kind ``"yaml"`` with more than one raw line);
        answered without loading the items."""
        if self._items is None:
            return self._multi
        return any(it.kind == "yaml" and len(it.raw) > 1 for it in self._items)

    @property
    def loaded(self) -> bool:
        """False while the items are unloaded (:meth:`unload`)."""
        return self._items is not None

    def top_keys(self) -> tuple[str, ...]:
        """The non-empty keys of the top-level items, in order (comments and
        blanks have none); answered without loading the items when they are
        unloaded (:meth:`unload` kept them)."""
        if self._items is None and self._top is not None:
            return self._top
        return tuple(it.key for it in self.items if it.parent is None and it.key)

    def top(self, key: str) -> Item | None:
        """The first top-level item whose key is ``key`` (any kind), else
        ``None``; answered without loading the items when no top-level
        item has that key."""
        if self._items is None and self._top is not None and key not in self._top:
            return None
        return next((it for it in self.items if it.key == key and it.parent is None), None)

    def get(self, key: str, parent: str | None = None) -> Item | None:
        """The last item for ``key`` at the given level (``parent=None``: top)."""
        found = None
        for it in self.items:
            if it.key == key and it.parent == parent and it.kind in ("scalar", "yaml", "parent"):
                found = it
        return found

    def keys(self) -> list[tuple[str | None, str]]:
        """``(parent, key)`` for every key item, in order."""
        return [(it.parent, it.key) for it in self.items if it.kind in ("scalar", "yaml", "parent")]

    def _fields(self) -> tuple:
        return (self.open_raw, self.items, self.close_raw, self.close_line, self.body_offset, self.problems)

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if isinstance(other, Frontmatter) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        return (f"Frontmatter(open_raw={self.open_raw!r}, items={self.items!r}, close_raw={self.close_raw!r}, "
                f"close_line={self.close_line!r}, body_offset={self.body_offset!r}, problems={self.problems!r})")


_FENCE = "---"
#: Top-level key tuples of unloaded blocks, one per distinct tuple (most
#: notes of a store have the same keys); at most 4,096 kept.
_KEY_TUPLES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _shared_keys(keys: Any) -> tuple[str, ...]:
    t = tuple(keys)
    got = _KEY_TUPLES.get(t)
    if got is None:
        got = tuple(sys.intern(k) for k in t)
        if len(_KEY_TUPLES) < 4096:
            _KEY_TUPLES[got] = got
    return got


def _is_fence(line: str) -> bool:
    return line.rstrip(" \t\r") == "---"


def _unquote(value: str, key: str, line: int, col: int, problems: list[FMProblem], indent: str = "") -> tuple[str, str | None]:
    q = value[0]
    if len(value) >= 2 and value[-1] == q:
        inner = value[1:-1]
        i = 0
        while i < len(inner):
            c = inner[i]
            if c == "\\":
                i += 2
                continue
            if c == q:
                problems.append(FMProblem("F103", f"malformed quoted value for {key!r}: unescaped {q} inside the quotes", line, col + i + 1))
                break
            i += 1
        # "abc\" : the closing quote is escaped, so the value never closes.
        back = len(inner) - len(inner.rstrip("\\"))
        if back % 2 == 1:
            problems.append(FMProblem("F102", f"unclosed quote in frontmatter value for {key!r} (the closing {q} is escaped)", line, col))
        return inner, q
    close = value.find(q, 1)
    if close > 0:
        # the line as it could be written: the value whole in the other quote, which it must not hold
        # (nor a backslash in double quotes, where it escapes); shown as is (the engine escapes control
        # characters in every hint), so it can be copied
        other = "'" if q == '"' else '"'
        fixed = f"{indent}{key}: {other}{value}{other}"  # a nested key keeps its indentation
        fits = other not in value and not (other == '"' and "\\" in value)
        problems.append(FMProblem("F102", f"value of {key!r} opens with a quoted part and goes on after it ({echo(value, 40)}): "
                                          "YAML rejects it, line-based readers keep the quotes", line, col,
                                  hint="quote the whole value with the other quote character: "
                                       + (fixed if len(fixed) <= 120 else fixed[:119] + "…")
                                  if fits else "rephrase so the value does not start with a quote"))
        return value, None  # kept as written, as line-based readers keep it (issue 8)
    else:
        problems.append(FMProblem("F102", f"unclosed quote in frontmatter value for {key!r}", line, col,
                                  hint=f"close the {q} at the end of the value, or remove it"))
    return value[1:], q


def plain_block(text: str) -> tuple[list[str], int, list[tuple[str, str, int, int]], int] | None:
    """The common block, read without :class:`Item` objects: when ``text``
    (no ``\\r`` anywhere) opens with a fence, closes it, and every line
    between is a top-level one-line ``key: value`` that :func:`parse` reads
    as an unquoted scalar with no finding (a key, a value not starting with
    a quote, ``|``, ``>``, ``[`` or ``{``), returns ``(lines, close, fields,
    body_offset)``: ``text`` split at ``\\n``, the index of the closing
    fence in it, ``(key, value, line, value column)`` per line as
    :func:`parse` would give them, and where the body starts (as
    :attr:`Frontmatter.body_offset`). Else ``None`` (then :func:`parse` is the reader)."""
    if "\r" in text:
        return None
    lines = text.split("\n")
    if lines[0].rstrip(" \t") != "---":
        return None
    fields = []
    offset = len(lines[0]) + 1
    for i in range(1, len(lines)):
        raw = lines[i]
        offset += len(raw) + 1
        if raw.rstrip(" \t") == "---":
            return lines, i, fields, offset
        first = raw[:1]
        if not first or first.isspace() or first == "#":
            return None
        k, sep, v = raw.partition(":")
        if not sep:
            return None
        key = k.rstrip()
        lead = v.lstrip()
        value = lead.rstrip()
        if not key or not value or value[0] in "'\"|>[{":
            return None
        fields.append((key, value, i + 1, len(k) + len(v) - len(lead) + 2))
    return None


def parse(text: str, known: dict[str, tuple[Any, str | None]] | None = None) -> Frontmatter | None:
    """Parse the frontmatter at the start of ``text`` (BOM already removed).
    ``known``: YAML values read before from the same text
    (:meth:`Frontmatter.known_yaml`), taken instead of parsing them again.

    Returns ``None`` when the text does not open with a fence. Never raises.
    Line numbers are 1-based file lines; the opening fence is line 1.
    """
    lines = split_lines(text)
    if not lines or not _is_fence(lines[0]):
        return None
    close = -1
    for i in range(1, len(lines)):
        if _is_fence(lines[i]):
            close = i
            break
    inner = lines[1:close] if close != -1 else lines[1:]
    problems: list[FMProblem] = []
    items: list[Item] = []
    parent: Item | None = None
    yaml_owner: Item | None = None
    last_child: dict[str, int] = {}  # parent key -> line of the last child item with it (what a scan of items would find)
    for off, raw in enumerate(inner):
        lineno = off + 2
        body = raw[:-1] if raw.endswith("\r") else raw
        stripped = body.strip()
        indent = body[: len(body) - len(body.lstrip(" \t"))]
        if not stripped:
            items.append(Item("blank", raw=[raw], line=lineno))
            continue
        if indent and yaml_owner is not None:
            yaml_owner.raw.append(raw)
            continue
        if indent and parent is not None and parent.kind == "parent" and (stripped.startswith("- ") or stripped == "-") \
                and last_child.get(parent.key, 0) <= parent.line:
            parent.kind = "yaml"  # a block list: key:\n  - a\n  - b
            parent.raw.append(raw)
            yaml_owner = parent
            continue
        if stripped.startswith("#"):
            items.append(Item("comment", raw=[raw], line=lineno))
            continue
        if not indent:
            parent = None
            yaml_owner = None
        elif parent is None:
            problems.append(FMProblem("F106", "indented frontmatter line with no parent key", lineno, len(indent) + 1))
        if ":" not in stripped:
            if stripped.startswith("- ") or stripped == "-":
                problems.append(FMProblem("F101", "malformed frontmatter line (not 'key: value'): YAML list items are not part of the key: value grammar", lineno, len(indent) + 1))
            else:
                problems.append(FMProblem("F101", "malformed frontmatter line (not 'key: value')", lineno, len(indent) + 1))
            items.append(Item("malformed", raw=[raw], line=lineno, indent=indent))
            continue
        k, _, v = stripped.partition(":")
        key = k.strip()
        key_col = len(indent) + 1
        vstrip = v.strip()
        value_col = len(indent) + len(k) + 1 + (len(v) - len(v.lstrip())) + 1
        if not key:
            problems.append(FMProblem("F105", "frontmatter line has an empty key", lineno, key_col))
        it = Item("scalar", key=key, raw=[raw], line=lineno, key_col=key_col, value_col=value_col,
                  parent=parent.key if (indent and parent is not None) else None, indent=indent)
        if vstrip == "":
            it.value = ""
            if not indent:
                it.kind = "parent"
                parent = it
        elif vstrip[0] in "|>" and vstrip.rstrip("+-0123456789") in ("|", ">"):
            it.kind = "yaml"
            yaml_owner = it
        elif vstrip[0] in "[{":
            it.kind = "yaml"
        elif vstrip[0] in "'\"":
            it.value, it.quote = _unquote(vstrip, key, lineno, value_col, problems, indent)
        else:
            it.value = vstrip
        items.append(it)
        if it.parent is not None:
            last_child[it.parent] = lineno
        if it.parent is None and it.kind != "parent":
            parent = None
    _group_parents(items, last_child)
    for it in items:
        if it.kind == "yaml" and len(it.raw) > 1:
            shape = "block list" if it.raw[1].strip().startswith("-") else "block scalar"
            problems.append(FMProblem("F101", f"malformed frontmatter line (not 'key: value'): {it.key!r} is a YAML {shape} "
                                              f"spanning {len(it.raw)} lines; the key: value grammar has no multi-line values",
                                      it.line + 1, 1))
    fm = Frontmatter(lines[0], items, lines[close] if close != -1 else None, close + 1 if close != -1 else 0,
                     _offset_after(lines, close), problems)
    if close == -1:
        problems.append(FMProblem("F100", "frontmatter opening '---' has no closing '---'", 1, 1))
    if any(it.kind == "yaml" for it in items):
        _fill_yaml(fm, known)
    return fm


def _group_parents(items: list[Item], last_child: dict[str, int]) -> None:
    """Decide what each ``key:`` with an empty value holds.

    Indented ``k: v`` lines right after it are its children. Indented ``- x``
    lines were appended to its raw lines by :func:`parse` and make it a YAML
    list. A parent with nothing under it is an empty scalar. ``last_child``:
    parent key -> the line of the last item under a parent of that key (a
    child below the parent's line is one of its own: linear in the items,
    where a scan of the items for every parent was quadratic).
    """
    for it in items:
        if it.kind != "parent":
            continue
        has_child = last_child.get(it.key, 0) > it.line
        if not has_child:
            it.kind = "scalar"
            it.value = ""


def _offset_after(lines: list[str], close: int) -> int:
    if close == -1:
        return sum(len(x) + 1 for x in lines) - 1
    return sum(len(x) + 1 for x in lines[: close + 1])


def _fill_yaml(fm: Frontmatter, known: dict[str, tuple[Any, str | None]] | None = None) -> None:
    """Give ``"yaml"`` items their value by parsing just that key with YAML
    (or taking it from ``known``, as a copy); what each source gave is kept
    in the block (:meth:`Frontmatter.known_yaml`)."""
    kept: dict[str, tuple[Any, str | None]] = {}
    for it in fm.items:
        if it.kind != "yaml":
            continue
        src = "\n".join(r.rstrip("\r") for r in it.raw)
        if it.indent:
            src = "\n".join(r[len(it.indent):] if r.startswith(it.indent) else r for r in src.split("\n"))
        got = known.get(src) if known else None
        if got is None:
            got = _load_kept(src)  # kept unchanged in the block; the item gets a copy
        data, err = got
        kept[src] = got
        data = _copied(data)
        if err is not None or not isinstance(data, dict) or len(data) != 1:
            fm.problems.append(FMProblem("F104", f"value of {it.key!r} is not valid YAML: {err or 'unexpected shape'}", it.line, it.value_col))
            it.value = "\n".join(r.rstrip("\r") for r in it.raw)[len(it.indent) + len(it.key) + 1:].strip()
            continue
        value, lone = _pair_surrogates(next(iter(data.values())))
        if lone:
            fm.problems.append(FMProblem("F104", f"value of {it.key!r} is not valid YAML: an escape names a lone surrogate "
                                                 f"(U+{ord(lone):04X}), which no file can hold", it.line, it.value_col))
            it.value = "\n".join(r.rstrip("\r") for r in it.raw)[len(it.indent) + len(it.key) + 1:].strip()
            continue
        it.value = value
    fm._known = kept or None


def _copied(data: Any) -> Any:
    """``data`` itself, or a deep copy when it holds a list, dict or set
    (a value kept for later reads is never handed out itself)."""
    if isinstance(data, (list, dict, set)):
        import copy

        return copy.deepcopy(data)
    return data


def _pair_surrogates(data: Any) -> tuple[Any, str | None]:
    """``data`` (YAML data: str, list, dict, scalars) with each escaped
    UTF-16 surrogate pair (``"\\ud800\\udc00"``) joined into its character,
    as a JavaScript YAML reader (Claude Code) holds it; ``(data, ch)`` with
    ``ch`` the first surrogate left alone, else ``(data, None)``. Lone
    surrogates cannot be encoded in any file, so a value holding one is not
    a value (F104)."""
    if isinstance(data, str):
        lone = lone_surrogate(data)
        if lone is None:
            return data, None
        try:
            joined = data.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:  # a surrogate without its pair
            return data, lone
        return joined, lone_surrogate(joined)
    if isinstance(data, list):
        out = []
        for v in data:
            v, lone = _pair_surrogates(v)
            if lone:
                return data, lone
            out.append(v)
        return out, None
    if isinstance(data, dict):
        pairs = {}
        for k, v in data.items():
            k2, lone = _pair_surrogates(k)
            v2, lone2 = _pair_surrogates(v)
            if lone or lone2:
                return data, lone or lone2
            pairs[k2] = v2
        return pairs, None
    return data, None


#: Maximum aliases and nesting depth accepted in YAML taken from a store.
YAML_MAX_ALIASES = 32
YAML_MAX_DEPTH = 32


def yaml_load(src: str) -> tuple[Any, str | None]:
    """Load untrusted YAML safely: ``(data, None)`` or ``(None, error text)``.

    Timestamps stay strings; anchors/aliases beyond :data:`YAML_MAX_ALIASES`
    and nesting beyond :data:`YAML_MAX_DEPTH` are refused before any walk, so
    alias bombs and deep nesting end in an error, never a hang or a
    ``RecursionError``.

    A source of at most :data:`_MEMO_SRC_MAX` code points is parsed once a
    process (a note's block is parsed again when a rule reloads its items,
    and many notes hold the same ``tags: [...]`` line): later calls get a
    deep copy of the first result, so a caller may change what it gets. The
    memo keeps at most :data:`_MEMO_MAX` sources (then it starts again):
    with their values ~7 MiB at worst (256-character flow mappings; a
    ``tags: [a, b]`` line takes ~1 KB), measured by a test.
    """
    data, err = _load_kept(src)
    return _copied(data), err


def _load_kept(src: str) -> tuple[Any, str | None]:
    """:func:`yaml_load` without the copy: the memo's own result (or a
    fresh one for a long source), for a caller that keeps it unchanged."""
    if len(src) > _MEMO_SRC_MAX:
        return _load_fresh(src)
    got = _MEMO.get(src)
    if got is None:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        got = _MEMO[src] = _load_fresh(src)
    return got


#: Sources longer than this (code points) are not kept by :func:`yaml_load`:
#: a one-line value such as ``tags: [a, b]``, whose value takes ~8x its text.
_MEMO_SRC_MAX = 256
#: Sources :func:`yaml_load` keeps at most (then the memo starts again).
_MEMO_MAX = 2048
_MEMO: dict[str, tuple[Any, str | None]] = {}


def _refused(src: str) -> str | None:
    """Why :func:`yaml_load` refuses ``src`` before parsing it (too many
    aliases, brackets nested too deep: counted over the whole source), or
    ``None``."""
    if src.count("*") > YAML_MAX_ALIASES and _alias_count(src) > YAML_MAX_ALIASES:
        return f"more than {YAML_MAX_ALIASES} YAML aliases"
    if src.count("[") + src.count("{") <= YAML_MAX_DEPTH:
        return None  # too few openers to nest that deep: no walk over every character
    depth = 0
    for ch in src:
        if ch in "[{":
            depth += 1
            if depth > YAML_MAX_DEPTH:
                return f"YAML nested deeper than {YAML_MAX_DEPTH} levels"
        elif ch in "]}":
            depth = max(0, depth - 1)
    return None


def _load_fresh(src: str) -> tuple[Any, str | None]:
    """:func:`yaml_load` without the memo."""
    why = _refused(src)
    if why is not None:
        return None, why
    import warnings

    # A directive (%YAML 1.1) sets the version the loader reads with, and the loader keeps it
    # for every later source: such a source gets a loader of its own (found by review)
    directive = src.startswith("%") or "\n%" in src
    try:
        with warnings.catch_warnings():  # ruamel warns on stderr quoting the store text (a reused anchor)
            warnings.simplefilter("ignore")
            data = (_new_loader() if directive else _loader()).load(src)
    except RecursionError:
        return None, "YAML nested too deeply"
    except Exception as exc:  # ruamel raises many error types; all mean "not valid YAML"
        first = str(exc).strip().splitlines()
        return None, (first[0] if first else type(exc).__name__)[:200]
    if _depth(data) > YAML_MAX_DEPTH:
        return None, f"YAML nested deeper than {YAML_MAX_DEPTH} levels"
    return data, None


def yaml_load_block(lines: list[str], known: dict[str, tuple[Any, str | None]] | None = None) -> tuple[Any, str | None]:
    """:func:`yaml_load` of ``"\\n".join(lines)`` (a frontmatter block's
    lines, without their line ends), made of one :func:`yaml_load` per line
    when every line is a one-line entry of a plain key
    (``[A-Za-z_][A-Za-z0-9_.-]*:`` at the start of the line), a blank or a
    comment, each line reads as a one-key mapping, and no two keys are
    equal as YAML reads them: then the block is the union of its lines (an
    entry of a block mapping on one line does not reach into the next one),
    and lines that many notes share (``type: user``, ``tags: [a, b]``) are
    parsed once a process. Any other block, and any block whose lines do
    not all load, is parsed whole, so an error's text is the whole block's.
    A whole parse cost ~3 ms a note in a store whose notes each hold a
    ``tags: [...]`` line (a test holds this to the whole parse). The
    limits counted over a whole source (aliases, nesting) are counted over
    the whole block first. ``known``: the block's YAML values as its reader
    parsed them (:meth:`Frontmatter.known_yaml`), a line's taken from there
    instead of parsing it again."""
    if _refused("\n".join(lines)) is not None:
        return yaml_load("\n".join(lines))
    data: dict[Any, Any] = {}
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        plain = _PLAIN_ENTRY.match(line)
        if plain is not None:  # a word key and a value of words: YAML reads the text (held to ruamel by a test)
            key, value = plain.group(1), plain.group(2)
            if key not in _YAML_WORDS and value not in _YAML_WORDS and "  " not in value and not value.endswith(" "):
                if key in data:
                    return yaml_load("\n".join(lines))
                data[key] = value
                continue
        if not _SIMPLE_ENTRY.match(line):
            return yaml_load("\n".join(lines))
        seen = known.get(line) if known else None
        got, err = (_copied(seen[0]), seen[1]) if seen is not None else yaml_load(line)
        if err is not None or not isinstance(got, dict) or len(got) != 1:
            return yaml_load("\n".join(lines))
        (key, value), = got.items()
        try:
            if key in data:
                return yaml_load("\n".join(lines))  # a duplicate key: the whole parse says how
        except TypeError:  # an unhashable key cannot come from a plain one; parse it whole anyway
            return yaml_load("\n".join(lines))
        data[key] = value
    if not data:
        return yaml_load("\n".join(lines))
    return data, None


_SIMPLE_ENTRY = lazy_re(r"[A-Za-z_][A-Za-z0-9_.-]*:(?: |\Z)")
#: ``key: value`` whose value YAML 1.2 reads as that very text: it starts
#: with a letter and holds only letters, digits, ``_ . / -`` and spaces
#: (no quote, colon, ``#`` or flow character; not a number or a date).
_PLAIN_ENTRY = lazy_re(r"([A-Za-z_][A-Za-z0-9_.-]*): ([A-Za-z][A-Za-z0-9_./ -]*)\Z")
#: Plain words the YAML 1.2 core schema reads as a boolean or null.
_YAML_WORDS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"})

_LOADER: list[Any] = []


def _loader() -> Any:
    """The one ruamel.yaml loader of the process (safe, pure Python,
    timestamps read as strings), made on first use: a loader costs about
    as much to make as a small load, and a frontmatter block with
    thousands of YAML values made one each. ruamel resets its reader,
    scanner and parser after every load, failed ones too (a test holds
    the kept loader to a fresh one on a mix of good and bad input)."""
    if not _LOADER:
        _LOADER.append(_new_loader())
    return _LOADER[0]


def _new_loader() -> Any:
    """A ruamel.yaml loader: safe, pure Python, timestamps read as strings."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import SafeConstructor

    class _Constructor(SafeConstructor):
        pass

    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
    y = YAML(typ="safe", pure=True)
    y.Constructor = _Constructor
    return y


def _alias_count(src: str) -> int:
    import re

    return len(re.findall(r"(?<![\w*])\*[^\s,\]\}]+", src))


def _depth(data: Any, level: int = 0) -> int:
    if level > YAML_MAX_DEPTH:
        return level
    if isinstance(data, dict):
        return max([_depth(v, level + 1) for v in data.values()] or [level + 1])
    if isinstance(data, list):
        return max([_depth(v, level + 1) for v in data] or [level + 1])
    return level


def quote_value(value: str) -> str | None:
    """Render ``value`` so that the restricted grammar and YAML read it back
    unchanged, or return ``None`` when no such rendering exists (a newline,
    or both quote characters together with a backslash)."""
    if not all(_yaml_printable(c) for c in value):
        return None
    plain_ok = (
        value
        and value == value.strip()
        and value[0] not in _PLAIN_START
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and "\t" not in value
        and value.lower() not in ("null", "~", "true", "false", "yes", "no", "on", "off", "=", "<<")
        and not _looks_numeric(value)
    )
    if plain_ok:
        return value
    if value.endswith("\\"):
        return None  # line-based readers take a quote after a backslash for an escaped one
    if "'" not in value:
        return "'" + value + "'"
    if '"' not in value and "\\" not in value:
        return '"' + value + '"'
    return None


def _yaml_printable(ch: str) -> bool:
    """Characters YAML allows in a scalar as they are (YAML 1.2 §5.1), minus
    line breaks: tab, printable ASCII, NEL-free C1 range excluded, the BMP
    without surrogates and U+FEFF/U+FFFE/U+FFFF, and the astral planes; plus
    the surrogate escapes of bytes that are not UTF-8 (no YAML reader can
    read those, quoted or not, and the key: value grammar keeps them)."""
    o = ord(ch)
    return (ch == "\t" or 0x20 <= o <= 0x7E or 0xA0 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD and o != 0xFEFF
            or o >= 0x10000 or 0xDC80 <= o <= 0xDCFF)  # the last: bytes that are not UTF-8, written back as they were


_NUMERIC = lazy_re(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?$|^[-+]?0[xob][0-9a-fA-F_]+$"
                    r"|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$")


def _looks_numeric(value: str) -> bool:
    """Would a YAML 1.1 or 1.2 reader take ``value`` for a number (``0_``,
    ``1e3``, ``0x1F``, ``.inf`` included)?"""
    return _NUMERIC.match(value) is not None


def render_item(key: str, value: Any, indent: str = "", newline: str = "\n") -> list[str] | None:
    """Raw lines for ``key: value`` (``None`` when the value cannot be written).

    Strings use :func:`quote_value`; lists of strings become a flow list
    ``[a, b]`` only when every element is plain-safe, which YAML reads as a
    list; other data is unrepresentable here.
    """
    cr = "\r" if newline == "\r\n" else ""
    if isinstance(value, str):
        q = quote_value(value) if value != "" else ""
        if q is None:
            return None
        return [f"{indent}{key}: {q}".rstrip(" ") + cr if q == "" else f"{indent}{key}: {q}{cr}"]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = [quote_value(v) for v in value]
        if any(p is None or "," in v or "[" in v or "]" in v for p, v in zip(parts, value)):
            return None
        return [f"{indent}{key}: [{', '.join(parts)}]{cr}"]  # type: ignore[arg-type]
    return None
