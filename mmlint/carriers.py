"""Lossless carriers: how a dialect holds a model field it has no slot for.

A carried field is written as an extra key named ``mmlint-<field>`` (an mm
entry line ``- **mmlint-type:** feedback`` or a frontmatter line
``mmlint-budget: 145/4000``). An unknown key that would collide with one of
the target's own keys, or whose value is not a plain one-line string, is
written as ``mmlint-extra-<key>``. Readers of every dialect turn these keys
back into fields (and they look under ``metadata:`` too, where Claude Code
moves unknown keys when it rewrites a note).

Values are written plainly when they are one-line strings that do not start
with ``"``, ``[`` or ``{``; everything else (lists, mappings, multi-line text)
is written as compact JSON, which :func:`decode_value` recognises.
"""

from __future__ import annotations

import json
from typing import Any

from mmlint.model import NOTE_FIELDS

PREFIX = "mmlint-"
#: Auxiliary file that carries index lines a regenerated index cannot hold
#: (workspace), one line per line, in order.
INDEX_LINES_FILE = ".mmlint-index-lines.txt"
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
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def extra_key(key: str, value: Any, native: set[str]) -> tuple[str, str]:
    """``(key to write, encoded value)`` for an unknown key ``key``.

    The key is kept when it is free in the target and the value is a plain
    string; otherwise it becomes ``mmlint-extra-<key>`` with a JSON value.
    """
    if key in native or key.startswith(PREFIX) or not isinstance(value, str) or encode_value(value) != value:
        return EXTRA_PREFIX + key, json.dumps(value, ensure_ascii=False, separators=(",", ":"))
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


def ascii_slug(slug: str) -> str:
    """A deterministic, reversible ASCII form of ``slug`` for dialects whose
    keys are ASCII (mm topics): ASCII slugs are kept; others become
    ``xn--`` + Punycode (RFC 3492) of the NFC form, e.g. ``代码评审清单`` ->
    ``xn--7ws16bpvbt0jbrfmx0d``, ``Café-notes`` -> ``xn--Caf-notes-9ma``."""
    import unicodedata

    if slug.isascii():
        return slug
    return "xn--" + unicodedata.normalize("NFC", slug).encode("punycode").decode("ascii")
