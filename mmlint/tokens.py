"""Token cost of the always-loaded part of a store (``mmlint budget``).

What an agent loads every session, per dialect:

* ``engramory`` ``claude-code``: the index lines inside Claude Code's load
  window (first 200 lines, within 25,000 bytes cut at the last newline;
  caps ``load_lines``/``load_bytes``; :func:`mmlint.rules.interop.load_window`);
* ``engramory`` ``recall-v1``/``upstream`` and ``mm``: the whole index (their
  agents read ``MEMORY.md`` at session start; its hard caps bound it);
* ``workspace``: nothing: the plugin does not inject the index, the agent
  calls ``memory_recall`` (specs/workspace-memory.md, FAQ: "does not inject the index into the context").

**Estimation method** (:func:`estimate`, no dependency): code points are
counted by class and divided by the characters a BPE token typically holds
in that class — ASCII (letters, digits, punctuation, spaces) 4 per token;
CJK ideographs, kana and Hangul syllables 1 per token; every other
character (accented Latin, Cyrillic, Greek, Arabic, emoji...) 2 per token;
line breaks count as ASCII. Each class is rounded up, so a non-empty text
costs at least one token. These ratios are the usual rules of thumb for BPE
tokenizers, not a calibration (none was made here): use the figure for
budgeting and comparing stores. Claude's tokenizer is not public, so no
count is exact for Claude.

**Exact count** for a named tokenizer: when the optional package
``tiktoken`` is installed, :func:`counter` with ``"tiktoken"`` (or
``"tiktoken:<encoding>"``, default ``o200k_base``) counts with it; the
result's ``method`` says which was used. Nothing requires it.
"""

from __future__ import annotations

from typing import Any, Callable

ASCII_PER_TOKEN = 4
OTHER_PER_TOKEN = 2
DEFAULT_TIKTOKEN = "o200k_base"


def _dense(o: int) -> bool:
    return (0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF
            or 0x3040 <= o <= 0x30FF or 0x20000 <= o <= 0x2FFFF or 0x1100 <= o <= 0x11FF)


def estimate(text: str) -> int:
    """Estimated tokens of ``text`` (see the module docs); 0 for ``""``."""
    ascii_n = dense = other = 0
    for ch in text:
        o = ord(ch)
        if o < 0x80:
            ascii_n += 1
        elif _dense(o):
            dense += 1
        else:
            other += 1
    return -(-ascii_n // ASCII_PER_TOKEN) + dense + -(-other // OTHER_PER_TOKEN)


class TokenizerUnavailable(Exception):
    """A tokenizer was asked for by name and is not installed (or unknown)."""


def counter(name: str | None = None) -> tuple[str, Callable[[str], int]]:
    """``(method, count)`` for ``name``: ``None``/``"estimate"`` is
    :func:`estimate`; ``"tiktoken[:encoding]"`` uses tiktoken.

    Raises:
        TokenizerUnavailable: tiktoken is not installed, the encoding is
            unknown or cannot be loaded, or the name is none of these.
    """
    if name in (None, "", "estimate"):
        return "estimate", estimate
    kind, _, enc = name.partition(":")
    if kind != "tiktoken":
        raise TokenizerUnavailable(f"unknown tokenizer {name!r}; use 'estimate' or 'tiktoken[:ENCODING]'")
    try:
        import tiktoken  # optional
    except ImportError:
        raise TokenizerUnavailable("tiktoken is not installed (pip install tiktoken); the estimate needs nothing") from None
    enc = enc or DEFAULT_TIKTOKEN
    try:
        encoding = tiktoken.get_encoding(enc)
    except Exception as exc:  # unknown name, or the encoding file cannot be fetched offline
        raise TokenizerUnavailable(f"tiktoken encoding {enc!r} is unavailable: {exc}") from None
    return f"tiktoken:{enc}", lambda text: len(encoding.encode(text, disallowed_special=()))


def loaded_lines(store: Any, caps: dict[str, int]) -> int:
    """How many lines of the index the dialect's agent loads each session
    (0 without an index; see the module docs)."""
    idx = store.index
    if idx is None or store.dialect == "workspace":
        return 0
    if store.dialect == "engramory" and store.profile == "claude-code":
        from mmlint.rules.interop import load_window

        return load_window(idx.text, int(caps.get("load_lines", 200)), int(caps.get("load_bytes", 25000)) - (3 if idx.bom else 0))
    return len(idx.text.split("\n")) - (1 if idx.text.endswith("\n") else 0)


def report(store: Any, caps: dict[str, int], count: Callable[[str], int], method: str) -> dict[str, Any]:
    """The ``tokens`` object of a budget report::

        {"method": "estimate" | "tiktoken:<enc>", "alwaysLoaded": int,
         "loadedLines": int, "indexLines": int, "indexTokens": int,
         "entries": [{"line", "target", "tokens", "loaded"}]}

    ``alwaysLoaded`` is the tokens of the loaded lines; ``indexTokens`` of
    the whole index; each entry's ``tokens`` are those of its line (an mm
    entry: its whole ``## topic`` section), ``loaded`` whether it lies in the
    loaded part. Targets are store-relative paths (``null`` for an entry
    without a local target).
    """
    idx = store.index
    out: dict[str, Any] = {"method": method, "alwaysLoaded": 0, "loadedLines": 0, "indexLines": 0, "indexTokens": 0, "entries": []}
    if idx is None:
        return out
    lines = idx.text.split("\n")
    if idx.text.endswith("\n"):
        lines = lines[:-1]
    last = loaded_lines(store, caps)
    out["indexLines"] = len(lines)
    out["loadedLines"] = last
    out["alwaysLoaded"] = count("\n".join(lines[:last]) + ("\n" if last else "")) if last else 0
    out["indexTokens"] = count(idx.text)
    starts = sorted({e.span.line for e in idx.entries})
    ends = {s: (starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)) for k, s in enumerate(starts)}
    for e in idx.entries:
        first = e.span.line
        end = ends[first] if store.dialect == "mm" else first
        text = "\n".join(lines[first - 1:end]).rstrip("\n") + "\n"
        out["entries"].append({"line": first, "target": e.target, "tokens": count(text),
                               "loaded": first <= last})
    return out
