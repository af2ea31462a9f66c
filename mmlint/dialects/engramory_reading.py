"""Tool readings of engramory stores: what Claude Code, the upstream
Engramory doctor and the recall-v1 plugin see (see :mod:`mmlint.dialects._reading`).

* :func:`claude_code` follows ``research/claude-code-notes.md``: frontmatter
  is YAML, found only when its closing ``---`` is within the first 30 lines;
  invalid YAML means no fields at all; fields nested under ``metadata:`` are
  read where the top level lacks them; of ``MEMORY.md`` only the load window
  is seen (the first 200 lines after trimming surrounding whitespace, and at
  most 25,000 bytes cut at the last newline before the limit).
* :func:`upstream` follows ``research/engramory-reference.md`` §1.2-1.3 (the
  doctor's grammar): ``utf-8-sig``, a first line that strips to ``---``, a
  closing ``---`` at column 0, ``splitlines()``, indentation ignored,
  ``#`` lines skipped, split at the first ``:``, one matching quote pair
  stripped with backslashes kept, the last duplicate wins; pointers by the
  doctor's ``](... .md`` scan.
* :func:`recall_v1` follows ``specs/engramory-recall-v1.zh.md`` §1-2: BOM
  stripped, CRLF and CR made LF, no frontmatter = no metadata, the
  ``key: value`` subset of the upstream grammar it was ported from, with
  ``aliases``/``tags`` as ``[a, b]`` arrays; pointers ``- [title](file.md)``
  and ``- hook — file.md``.

None of them uses mmlint's own readers.
"""

from __future__ import annotations

import re
from typing import Any

from mmlint.dialects._reading import NoteView, Reading, scalar_text, text_of

#: Claude Code looks for the closing fence within this many lines.
CC_FENCE_LINES = 30
#: Claude Code's MEMORY.md load window (claude-code-notes.md).
CC_INDEX_LINES = 200
CC_INDEX_BYTES = 25000

_NOTE_SKIP_TOP = ("archive", "templates")


def _is_note(path: str, recall: bool = False) -> bool:
    """A note file for the engramory tools: ``*.md`` (any case) that is not
    ``MEMORY.md``, outside top-level ``archive/``/``templates/`` (case-folded)
    and mmlint's parked-file folder; recall-v1 also leaves ``-history.md``
    archives out."""
    name = path.rsplit("/", 1)[-1]
    if not name.lower().endswith(".md") or name == "MEMORY.md":
        return False
    top = path.split("/", 1)[0].lower() if "/" in path else ""
    if top in _NOTE_SKIP_TOP or path.startswith(".mmlint-aux/") or path.lower() == "readme.md":
        return False
    return not (recall and name.endswith("-history.md"))


# ---------------------------------------------------------------- Claude Code


def claude_code_note(path: str, data: bytes) -> NoteView:
    """One note as Claude Code reads it (claude-code-notes.md "Frontmatter as
    Claude Code reads it"): YAML between a first ``---`` line and a closing
    ``---`` within the first 30 lines; a parse error or a non-mapping gives a
    view with no fields (``readable=False``); the body is the text after the
    closing fence line."""
    from mmlint.frontmatter import yaml_load

    text = text_of(data).replace("\r\n", "\n")
    lines = text.split("\n")
    view = NoteView(path)
    if not lines or lines[0].rstrip() != "---":
        view.body = text
        return view
    close = next((i for i in range(1, min(len(lines), CC_FENCE_LINES)) if lines[i].rstrip() == "---"), None)
    if close is None:
        view.body = text
        view.readable, view.problem = False, f"no closing '---' within the first {CC_FENCE_LINES} lines"
        return view
    view.body = "\n".join(lines[close + 1:])
    src = "\n".join(lines[1:close])
    src = re.sub("[\udc80-\udcff]", "\ufffd", src)  # Node decodes bytes that are not UTF-8 as U+FFFD
    data_, err = _simple_yaml(lines[1:close]) or (yaml_load(src) if src.strip() else ({}, None))
    if err is not None or not isinstance(data_, dict):
        view.readable, view.problem = False, f"frontmatter is not a YAML mapping ({err or type(data_).__name__})"
        return view
    for key, value in data_.items():
        view.fields[str(key)] = scalar_text(value)
    nest = view.fields.get("metadata")
    if isinstance(nest, dict):
        for key, value in nest.items():
            if key not in view.fields:
                view.fields[key] = value
                view.nested.add(key)
    return view


_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


def _simple_scalar(value: str) -> str | None:
    """The string YAML makes of a one-line ``value`` when that needs no YAML
    engine (a plain scalar :func:`mmlint.frontmatter.quote_value` would
    write unquoted, or a quoted one with no quote or backslash inside),
    else ``None``."""
    from mmlint.frontmatter import quote_value

    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner if value[0] not in inner and "\\" not in inner and "\t" not in inner else None
    return value if value and quote_value(value) == value else None


def _simple_yaml(lines: list[str]) -> tuple[dict, None] | None:
    """A frontmatter block as YAML reads it, computed without a YAML engine
    when every line is ``key: value`` with a key of ``[A-Za-z0-9_-]`` and a
    value :func:`_simple_scalar` can read, or ``key:`` over lines indented
    alike holding such pairs (one level, Claude Code's ``metadata:``), or a
    blank or ``#`` comment line at column 0; ``None`` (use YAML) otherwise.
    Duplicate keys, tabs and anything else go to YAML too."""
    out: dict = {}
    parent: dict | None = None
    indent = ""
    for line in lines:
        if not line.strip() or line.startswith("#"):
            if line.strip() and parent is not None:
                return None
            continue
        body = line.lstrip(" ")
        lead = line[: len(line) - len(body)]
        key, sep, rest = body.partition(":")
        if not sep or not _KEY_RE.match(key) or (rest and not rest.startswith(" ")) or "\t" in line:
            return None
        value = rest[1:] if rest else ""
        if lead:
            if parent is None or (indent and lead != indent) or key in parent or value == "":
                return None
            indent = lead
            scalar = _simple_scalar(value)
            if scalar is None:
                return None
            parent[key] = scalar
            continue
        if parent is not None and not parent:
            return None  # a parent with no children: null, which YAML decides
        parent, indent = None, ""
        if key in out:
            return None
        if value == "":
            out[key] = parent = {}
            continue
        scalar = _simple_scalar(value)
        if scalar is None:
            return None
        out[key] = scalar
    if parent is not None and not parent:
        return None
    return out, None


def claude_code_window(data: bytes) -> str:
    """The part of ``MEMORY.md`` Claude Code loads: whitespace around the text
    trimmed, then the first 200 lines, then at most 25,000 bytes cut at the
    last newline before the limit (claude-code-notes.md "Load window")."""
    text = data.decode("utf-8", "replace").lstrip("\ufeff").strip()
    lines = text.split("\n")
    if len(lines) > CC_INDEX_LINES:
        text = "\n".join(lines[:CC_INDEX_LINES])
    raw = text.encode("utf-8")
    if len(raw) > CC_INDEX_BYTES:
        cut = raw.rfind(b"\n", 0, CC_INDEX_BYTES)
        raw = raw[:cut] if cut > 0 else b""
        text = raw.decode("utf-8", "replace")
    return text


def claude_code(files: dict[str, bytes], profile: str | None = None) -> Reading:
    """The store ``files`` (POSIX path -> bytes) as Claude Code sees it:
    every note by :func:`claude_code_note`, and the pointers inside the load
    window of ``MEMORY.md`` (:func:`claude_code_window`, markdown links
    ``[text](target)``, in order)."""
    out = Reading("Claude Code", values=values)
    for path in sorted(files):
        if _is_note(path):
            out.notes[path] = claude_code_note(path, files[path])
    if "MEMORY.md" in files:
        out.pointers = [t for t in _link_targets(claude_code_window(files["MEMORY.md"])) if t.lower().endswith(".md")]
    return out


def _link_targets(text: str) -> list[str]:
    """Destinations of inline links ``](dest)`` in ``text`` (one linear scan):
    ``<dest>`` or the text up to whitespace or ``)``; ``./`` removed,
    ``#fragment`` and ``?query`` dropped, percent-escapes decoded."""
    from urllib.parse import unquote

    out = []
    stop, gt = 0, -2  # cached scan ends, so hostile runs of "](" stay linear
    i = text.find("](")
    while i != -1:
        j = i + 2
        if text.startswith("<", j):
            if gt != -1 and gt < j:
                gt = text.find(">", j)
            end = gt
            dest = text[j + 1:end] if end != -1 and end - j < 4096 else ""
        else:
            end = stop if j < stop else j
            while end < len(text) and text[end] not in " \t\n)":
                end += 1
            stop = end
            dest = text[j:end] if end - j < 4096 else ""
        dest = unquote(dest.split("#", 1)[0].split("?", 1)[0])
        if dest.startswith("./"):
            dest = dest[2:]
        if dest and "://" not in dest:
            out.append(dest)
        i = text.find("](", j)
    return out


# ---------------------------------------------------------------- upstream doctor

_CLOSE_RE = re.compile(r"^---[ \t]*\r?$")


def upstream_note(path: str, data: bytes) -> NoteView:
    """One note as the upstream doctor parses it (engramory-reference.md
    §1.3): see the module docstring. ``problem`` holds the doctor's first
    grammar complaint (it still keeps the values it read)."""
    text = text_of(data)
    view = NoteView(path)
    first, _, rest = text.partition("\n")
    if first.strip() != "---":
        view.body = text
        return view
    pos = len(first) + 1
    close_at = None
    for m_line in _iter_lines(rest):
        start, line = m_line
        if _CLOSE_RE.match(line):
            close_at = (pos + start, pos + start + len(line))
            break
    if close_at is None:
        view.readable, view.problem = False, "opening '---' has no closing '---'"
        view.body = ""
        return view
    block = text[pos:close_at[0]]
    view.body = text[close_at[1] + 1:] if close_at[1] < len(text) else ""
    for line in block.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if ":" not in s:
            view.problem = view.problem or "malformed frontmatter line (not 'key: value')"
            continue
        key, _, value = s.partition(":")
        key, value = key.strip(), value.strip()
        if value[:1] in ("'", '"'):
            q = value[0]
            if len(value) >= 2 and value[-1] == q:
                inner = value[1:-1]
                if _unescaped(inner, q):
                    view.problem = view.problem or f"malformed quoted value for {key!r}"
                value = inner
            else:
                view.problem = view.problem or f"unclosed quote in frontmatter value for {key!r}"
                value = value[1:]
        if key in view.fields:
            view.problem = view.problem or f"duplicate frontmatter key {key!r}"
            del view.fields[key]
        view.fields[key] = value
    return view


def _iter_lines(text: str):
    """``(offset, line)`` for each ``\\n``-separated line of ``text``."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end == -1:
            yield start, text[start:]
            return
        yield start, text[start:end]
        start = end + 1


def _unescaped(inner: str, q: str) -> bool:
    i = 0
    while i < len(inner):
        if inner[i] == "\\":
            i += 2
            continue
        if inner[i] == q:
            return True
        i += 1
    return False


_STOP = set(")> \t\n\r\f\v#?") | {chr(c) for c in range(0x20)}


def doctor_pointers(text: str) -> list[str]:
    """Pointer targets the doctor recognises in an index (engramory-reference
    §1.2): after each ``](``, optional whitespace and ``<``, the run of
    characters free of ``) > # ?``, whitespace and control characters, when
    it ends in ``.md`` (lower case) and is followed by ``) > # ?``,
    whitespace or the end; backslashes become ``/``, ``./`` is removed.
    Remote targets (``://``, ``mailto:``) are left out. Linear time."""
    out = []
    stop = 0  # end of the last run scanned: a later start inside it ends there too
    i = text.find("](")
    while i != -1:
        j = i + 2
        while j < len(text) and text[j].isspace():
            j += 1
        if j < len(text) and text[j] == "<":
            j += 1
        k = stop if j < stop else j
        while k < len(text) and text[k] not in _STOP:
            k += 1
        stop = k
        after = text[k] if k < len(text) else ""
        if k - j > 3 and text.endswith(".md", j, k) and (after == "" or after in ")>#?" or after.isspace()):
            target = text[j:k].replace("\\", "/")
            while target.startswith("./"):
                target = target[2:]
            if "://" not in target and not target.lower().startswith("mailto:"):
                out.append(target)
        i = text.find("](", i + 2)
    return out


def upstream(files: dict[str, bytes], profile: str | None = None) -> Reading:
    """The store ``files`` as the upstream doctor sees it: every note by
    :func:`upstream_note` and the index pointers by :func:`doctor_pointers`."""
    out = Reading("the upstream Engramory doctor", values=values)
    for path in sorted(files):
        if _is_note(path):
            out.notes[path] = upstream_note(path, files[path])
    if "MEMORY.md" in files:
        out.pointers = doctor_pointers(files["MEMORY.md"].decode("utf-8", "replace"))
    return out


# ---------------------------------------------------------------- recall-v1 plugin

_ARRAY_KEYS = ("aliases", "tags")


def recall_v1_note(path: str, data: bytes) -> NoteView:
    """One note as the recall-v1 plugin reads it (seed spec §2): BOM
    stripped, CRLF/CR -> LF, a first line ``---`` and a closing ``---``;
    between them ``key: value`` lines (indentation ignored, split at the
    first ``:``, one matching quote pair stripped); ``aliases`` and ``tags``
    written ``[a, b]`` are arrays. Without frontmatter the note has no
    metadata (not an error)."""
    text = text_of(data).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    view = NoteView(path)
    if not lines or lines[0].strip() != "---":
        view.body = text
        return view
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if close is None:
        view.body = text
        return view
    view.body = "\n".join(lines[close + 1:])
    for line in lines[1:close]:
        s = line.strip()
        if not s or s.startswith("#") or ":" not in s:
            continue
        key, _, value = s.partition(":")
        key, value = key.strip(), _unquote(value.strip())
        if key in _ARRAY_KEYS and value.startswith("[") and value.endswith("]"):
            view.fields[key] = [_unquote(p.strip()) for p in value[1:-1].split(",") if p.strip()]
        else:
            view.fields[key] = value
    return view


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
        return value[1:-1]
    return value


def _bare_pointer(line: str) -> str | None:
    """The file of a link-less pointer ``- hook — file.md`` (seed spec §1),
    else ``None``: a list item whose last word ends in ``.md`` after a dash."""
    s = line.strip()
    if not s.startswith(("- ", "* ")):
        return None
    head, _, last = s[2:].rpartition(" ")
    if not last.endswith(".md") or any(c in last for c in "()[]") or not head.rstrip().endswith(("—", "–", "-")):
        return None
    return last


def recall_v1(files: dict[str, bytes], profile: str | None = None) -> Reading:
    """The store ``files`` as the recall-v1 plugin sees it: notes by
    :func:`recall_v1_note` (``-history.md`` archives are not notes), index
    pointers ``- [title](file.md) — hook`` and ``- hook — file.md`` (§1)."""
    out = Reading("the recall-v1 plugin", values=values)
    for path in sorted(files):
        if _is_note(path, recall=True):
            out.notes[path] = recall_v1_note(path, files[path])
    if "MEMORY.md" in files:
        for line in files["MEMORY.md"].decode("utf-8", "replace").lstrip("\ufeff").splitlines():
            linked = [t for t in _link_targets(line) if t.lower().endswith(".md")]
            if linked:
                out.pointers.extend(linked)
            elif (bare := _bare_pointer(line)) is not None:
                out.pointers.append(bare)
    return out


READINGS: dict[str, Any] = {"claude-code": claude_code, "upstream": upstream, "recall-v1": recall_v1}


KEYMAP = {"name": "name", "description": "summary", "type": "type", "scope": "scope", "created": "created",
          "updated": "updated", "aliases": "aliases", "confidence": "confidence", "tags": "tags"}


def values(view: NoteView) -> dict:
    """:func:`mmlint.dialects._reading.model_values` of one note as an
    engramory tool sees it (the keys of the seed spec §2 table, plus
    ``tags``)."""
    from mmlint.dialects._reading import model_values

    return model_values(view, KEYMAP)
