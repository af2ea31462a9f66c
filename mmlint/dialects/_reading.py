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

import os
from dataclasses import dataclass, field
from typing import Any

#: JavaScript's ``\\s`` / ``String.prototype.trim`` whitespace set (ECMA-262
#: WhiteSpace + LineTerminator), which differs from Python's ``str.strip``:
#: it includes U+FEFF and excludes U+001C..U+001F and U+0085.
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
                "\u2028\u2029\u202f\u205f\u3000\ufeff"


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
    """

    tool: str
    notes: dict[str, NoteView] = field(default_factory=dict)
    pointers: list[str] = field(default_factory=list)
    refused: str = ""


def load_files(root: str, limit: int = 64 * 1024 * 1024) -> dict[str, bytes]:
    """Every regular file below ``root`` (not following symlinks), POSIX
    path -> bytes, for a reading of a store on disk. Files over ``limit``
    bytes and unreadable ones are left out; folders of other tools
    (``.git`` and friends) are not entered."""
    out: dict[str, bytes] = {}
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", ".obsidian", ".trash", ".claude")
                         and not os.path.islink(os.path.join(base, d)))
        for name in sorted(files):
            full = os.path.join(base, name)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            try:
                if os.path.getsize(full) > limit:
                    continue
                with open(full, "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            out[os.path.relpath(full, root).replace(os.sep, "/")] = data
    return out


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
