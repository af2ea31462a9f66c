"""Three-way merge of a ``MEMORY.md`` index by entry, for every dialect:
the ``mmlint merge-driver`` git merge driver, and the index half of
``mmlint merge``.

An index is cut into *units*, each with a key:

* ``engramory`` and ``workspace``: one unit per line. A line holding exactly
  one local pointer is keyed by its target (``("ptr", target, k)``, ``k``
  counting earlier lines with the same target); every other line (headings,
  prose, blank lines) by its text and occurrence. The workspace count line
  (``- 共 N 条记忆``) is regenerated from the merged entries, since the
  projection is generated.
* ``mm``: the header lines before the first ``## <topic>`` one unit per line,
  then one unit per ``## <topic>`` section (heading and its lines), keyed by
  topic.

For each key the usual three-way decision applies (ours = A, theirs = B,
base = O): the same on both sides, or changed on one side only, takes that
side (a deletion is a change); changed differently on both sides is a
conflict, written with conflict markers around that unit only. The order is
A's, with B's additions placed after the unit that precedes them in B (or at
the start) and after A's own additions at that place, so both sides'
additions are kept in a stable order (ours, then theirs) and the same line
added on both sides appears once. Lines inserted from B take A's line
ending.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mmlint.textutil import BOM_BYTES

_MM_HEADER_RE = re.compile(r"^>\s*mm-[A-Za-z0-9_-]+:", re.MULTILINE)
_MM_FIELD_RE = re.compile(r"^-\s*\*\*(?:file|summary):\*\*", re.MULTILINE)
_WS_COUNT_RE = re.compile(r"^- 共 \d+ 条记忆\r?$")
DIALECTS = ("mm", "engramory", "workspace")


@dataclass(frozen=True)
class Unit:
    """One keyed piece of an index: ``key`` and ``text`` (its lines with
    their line endings, as decoded with ``surrogateescape``)."""

    key: tuple
    text: str


@dataclass
class IndexMerge:
    """The result of :func:`merge_index`.

    Attributes:
        data: the merged index (bytes), conflict markers included.
        conflicts: keys of the units left in conflict (``("ptr", target, k)``,
            ``("topic", topic, k)`` or ``("line", text, k)``).
        dialect: the dialect the versions were merged as.
        added: keys taken from B that A did not have.
        keys: keys of the units kept, in output order (conflicts excluded).
    """

    data: bytes
    conflicts: list[tuple] = field(default_factory=list)
    dialect: str = "engramory"
    added: list[tuple] = field(default_factory=list)
    keys: list[tuple] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        """No conflict: git may commit the result as it is."""
        return not self.conflicts


def detect_dialect(*texts: str) -> str:
    """The dialect of index texts: ``mm`` with ``> mm-*:`` header lines or
    ``- **file:**``/``- **summary:**`` entry lines, ``workspace`` with the
    ``# 记忆索引`` title, else ``engramory``."""
    for t in texts:
        if _MM_HEADER_RE.search(t) or _MM_FIELD_RE.search(t):
            return "mm"
    for t in texts:
        if t.lstrip("\ufeff").lstrip().startswith("# 记忆索引"):
            return "workspace"
    return "engramory"


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) if text else []


def _strip_eol(line: str) -> str:
    return line.rstrip("\n").rstrip("\r")


def units(text: str, dialect: str) -> list[Unit]:
    """Cut an index text into keyed units (see the module docs). A blank
    line is keyed by the unit before it (``("blank", previous key, k)``),
    so two sides adding different sections do not share their blank lines."""
    lines = _lines(text)
    out: list[Unit] = []
    seen: dict[tuple, int] = {}
    prev: tuple = ("start",)

    def add(kind: str, name: Any, body: str) -> None:
        nonlocal prev
        k = seen.get((kind, name), 0)
        seen[(kind, name)] = k + 1
        out.append(Unit((kind, name, k), body))
        if kind != "blank":
            prev = (kind, name, k)

    if dialect == "mm":
        cur: list[str] | None = None
        topic = ""
        blanks: list[str] = []

        def close() -> None:
            if cur is not None:
                add("topic", topic, "".join(cur))
                for bl in blanks:
                    add("blank", prev, bl)

        for line in lines:
            bare = _strip_eol(line)
            if re.match(r"^##\s+\S", bare):
                close()
                cur, topic, blanks = [line], bare[2:].strip(), []
            elif cur is not None:
                if bare.strip():
                    cur.extend(blanks)
                    cur.append(line)
                    blanks = []
                else:
                    blanks.append(line)
            elif not bare.strip():
                add("blank", prev, line)
            else:
                add("line", bare, line)
        close()
        return out
    pointers = _pointer_lines(text, dialect)
    for i, line in enumerate(lines, start=1):
        bare = _strip_eol(line)
        if i in pointers:
            add("ptr", pointers[i], line)
        elif not bare.strip():
            add("blank", prev, line)
        elif dialect == "workspace" and _WS_COUNT_RE.match(bare):
            add("count", "", line)
        else:
            add("line", bare, line)
    return out


def _pointer_lines(text: str, dialect: str) -> dict[int, str]:
    """Line number -> target of every line holding exactly one local pointer."""
    data = text.encode("utf-8", "surrogateescape")
    if dialect == "workspace":
        from mmlint.dialects.workspace import read_index
    else:
        from mmlint.dialects.engramory import read_index
    idx = read_index("MEMORY.md", data)
    per_line: dict[int, list[Any]] = {}
    for e in idx.entries:
        per_line.setdefault(e.span.line, []).append(e)
    return {line: es[0].target for line, es in per_line.items()
            if len(es) == 1 and es[0].target is not None and es[0].kind in ("link", "projection", "wikilink")}


def _decide(o: str | None, a: str | None, b: str | None) -> tuple[bool, str | None]:
    """``(conflict, text)`` for one key; ``text`` ``None`` means absent."""
    if a == b:
        return False, a
    if a == o:
        return False, b
    if b == o:
        return False, a
    return True, None


def _newline_of(text: str) -> str:
    for line in _lines(text):
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith("\n"):
            return "\n"
    return "\n"


def _as_newline(s: str, nl: str) -> str:
    if nl == "\r\n":
        return re.sub(r"(?<!\r)\n", "\r\n", s)
    return s.replace("\r\n", "\n")


def merge_units(o: list[Unit], a: list[Unit], b: list[Unit]) -> tuple[list[tuple[tuple, str | None, str | None, bool]], list[tuple]]:
    """The merged sequence ``[(key, a_text, b_text_or_text, conflict)]``
    (for a clean unit the second text is the result) and the keys added
    from B. See the module docs for the order."""
    O = {u.key: u.text for u in o}
    A = {u.key: u.text for u in a}
    B = {u.key: u.text for u in b}

    def decide(key: tuple) -> tuple[bool, str | None]:
        # line endings do not make a change: compare with LF, output A's text when A's side wins
        ot, at, bt = (None if t is None else t.replace("\r\n", "\n") for t in (O.get(key), A.get(key), B.get(key)))
        conflict, text = _decide(ot, at, bt)
        if conflict or text is None:
            return conflict, None
        return False, A[key] if text == at else B[key]

    placed: set[tuple] = set()
    result: dict[tuple, tuple[tuple, str | None, str | None, bool]] = {}
    for u in a:
        conflict, text = decide(u.key)
        result[u.key] = (u.key, A.get(u.key), B.get(u.key) if conflict else text, conflict)
        placed.add(u.key)
    # B's additions after anchor K come after A's own additions right after K
    # (ours first, then theirs, where both sides added at the same place).
    remap: dict[tuple | None, tuple | None] = {}
    keys_a = [None] + [u.key for u in a]
    for i, k in enumerate(keys_a):
        j, target = i + 1, k
        while j < len(keys_a) and keys_a[j] not in O and keys_a[j] not in B:
            target = keys_a[j]
            j += 1
        remap[k] = target
    after: dict[tuple | None, list[tuple]] = {}
    added: list[tuple] = []
    last: tuple | None = None
    for u in b:
        if u.key in placed:
            last = u.key
            continue
        conflict, text = decide(u.key)
        if not conflict and text is None:
            continue  # A deleted it, B left it alone
        result[u.key] = (u.key, None, B.get(u.key) if conflict else text, conflict)
        after.setdefault(remap.get(last, last) if last is None or last in A else last, []).append(u.key)
        placed.add(u.key)
        added.append(u.key)
        last = u.key
    order: list[tuple] = []

    def emit(anchor: tuple | None) -> None:
        stack = list(reversed(after.get(anchor, [])))
        while stack:
            k = stack.pop()
            order.append(k)
            stack.extend(reversed(after.get(k, [])))

    emit(None)
    for u in a:
        order.append(u.key)
        emit(u.key)
    return [result[k] for k in order], added


def merge_index(base: bytes, ours: bytes, theirs: bytes, dialect: str | None = None,
                marker_size: int = 7, labels: tuple[str, str] = ("ours", "theirs")) -> IndexMerge:
    """Merge three versions of an index (see the module docs).

    ``dialect`` (``mm``, ``engramory``, ``workspace``) defaults to
    :func:`detect_dialect`. Bytes that are not UTF-8 pass through unchanged
    (``surrogateescape``); A's BOM and line endings are kept.

    Raises:
        ValueError: an unknown dialect.
    """
    texts = []
    bom = ours.startswith(BOM_BYTES)
    for data in (base, ours, theirs):
        if data.startswith(BOM_BYTES):
            data = data[len(BOM_BYTES):]
        texts.append(data.decode("utf-8", "surrogateescape"))
    dialect = dialect or detect_dialect(*texts)
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; one of {', '.join(DIALECTS)}")
    o, a, b = (units(t, dialect) for t in texts)
    merged, added = merge_units(o, a, b)
    nl = _newline_of(texts[1]) if texts[1] else _newline_of(texts[2])
    pieces: list[str] = []
    conflicts: list[tuple] = []
    count_at = None
    for key, a_text, text, conflict in merged:
        if conflict:
            conflicts.append(key)
            ours_t = _as_newline(a_text or "", nl)
            theirs_t = _as_newline(text or "", nl)
            pieces.append("<" * marker_size + f" {labels[0]}{nl}" + _ensure_eol(ours_t, nl) + "=" * marker_size + nl
                          + _ensure_eol(theirs_t, nl) + ">" * marker_size + f" {labels[1]}{nl}")
            continue
        if text is None:
            continue
        if key[0] == "count":
            count_at = len(pieces)
        pieces.append(text if a_text == text else _as_newline(text, nl))
    for k in range(len(pieces) - 1):
        pieces[k] = _ensure_eol(pieces[k], nl)
    if count_at is not None and dialect == "workspace":
        n = sum(1 for key, _, text, conflict in merged if key[0] == "ptr" and (text is not None or conflict))
        eol = pieces[count_at][len(_strip_eol(pieces[count_at])):]
        pieces[count_at] = f"- 共 {n} 条记忆" + eol
    out = "".join(pieces).encode("utf-8", "surrogateescape")
    kept = [key for key, _, text, conflict in merged if not conflict and text is not None]
    return IndexMerge((BOM_BYTES if bom else b"") + out, conflicts, dialect, added, kept)


def _ensure_eol(s: str, nl: str) -> str:
    return s if not s or s.endswith("\n") else s + nl


def verify(result: IndexMerge) -> list[str]:
    """Problems found re-reading a clean merge: every kept pointer or topic
    must be in the written index exactly once, and no conflict marker may
    be. Returns ``[]`` when the result is sound."""
    data = result.data[len(BOM_BYTES):] if result.data.startswith(BOM_BYTES) else result.data
    text = data.decode("utf-8", "surrogateescape")
    got = [u.key for u in units(text, result.dialect) if u.key[0] in ("ptr", "topic")]
    want = [k for k in result.keys if k[0] in ("ptr", "topic")]
    problems = []
    if sorted(got) != sorted(want):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want))
        problems.append(f"entries differ after writing: missing {missing[:3]}, unexpected {extra[:3]}")
    if result.clean and re.search(r"^(<{7}|>{7}) ", text, re.MULTILINE):
        problems.append("conflict markers in a clean merge")
    return problems
