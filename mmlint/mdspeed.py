"""Linear-time link-label scanning for markdown-it-py (issue 9 item 6).

markdown-it-py tries a link at every ``[``: ``parseLinkLabel`` scans forward
for the matching ``]``, calling ``skipToken`` at each position, and a run of
unmatched brackets makes every scan go on until the nesting limit stops it.
On a megabyte of ``[`` that is some twenty ``skipToken`` calls per character
(17 s for a 1 MiB index, against half a second for a normal one).

:func:`install` gives one :class:`markdown_it.MarkdownIt` instance two
replacements that compute exactly what the originals compute:

* :func:`parse_link_label` remembers, per inline state, the result of every
  label scan it has done, for every bracket still open when the scan ended:
  a ``[`` met inside a scan is the start of a nested label whose end is the
  ``]`` that brings the level back, or ``-1`` when the outer scan fails
  (the end of the text, or a nested link under ``disableNested``). A later
  scan from that ``[`` (the inline tokenizer comes to it next) is then one
  dictionary look-up, and an outer scan that meets a ``[`` already scanned
  jumps to its end.
* ``skipToken`` looks in the position cache before fetching the rule chain
  (the original fetches first).
* an inline rule, :func:`bracket_run`, takes a run of ``[`` after which the
  inline text holds no ``]`` as plain text in one step (no link, image or
  label can start there: each needs a ``]``), where markdown-it would run its
  whole rule chain once per character.

``tests/test_mdspeed.py`` compares the token streams of a patched and a stock
parser on generated bracket-heavy text and on the corpus.
"""

from __future__ import annotations

import re
import types
from typing import Any

_MEMO = "_mmlint_labels"


def parse_link_label(state: Any, start: int, disableNested: bool = False) -> int:  # noqa: N803 - markdown-it's name
    """``markdown_it.helpers.parseLinkLabel`` with memoised scans: the
    position of the ``]`` closing the ``[`` at ``start`` (code points into
    ``state.src``), or ``-1``. ``state.pos`` is left as it was."""
    memo = getattr(state, _MEMO, None)
    if memo is None:
        memo = {}
        setattr(state, _MEMO, memo)
    pos_max = state.posMax
    key = (start, pos_max, disableNested)
    known = memo.get(key)
    if known is not None:
        return known
    if start >= _last_close(state, memo, pos_max):
        return -1  # no "]" after the "[": the scan below could only run to the end
    old_pos = state.pos
    src = state.src
    skip = state.md.inline.skipToken
    stack = [start]
    state.pos = start + 1
    result = -1
    while state.pos < pos_max:
        marker = src[state.pos]
        if marker == "]":
            memo[(stack.pop(), pos_max, disableNested)] = state.pos
            if not stack:
                result = state.pos
                break
        prev = state.pos
        skip(state)
        if marker == "[":
            if prev == state.pos - 1:
                end = memo.get((prev, pos_max, disableNested))
                if end is None:
                    stack.append(prev)
                elif end == -1:
                    break  # that label never closes, so neither does any label around it
                else:
                    stack.append(prev)
                    state.pos = end  # the loop meets its "]" next and pops it
            elif disableNested:
                break
    for open_at in stack:
        memo[(open_at, pos_max, disableNested)] = -1
    state.pos = old_pos
    return result


def _last_close(state: Any, memo: dict, pos_max: int) -> int:
    """Position of the last ``]`` before ``pos_max`` in ``state.src`` (-1: none), computed once per ``pos_max``."""
    key = ("]", pos_max)
    last = memo.get(key)
    if last is None:
        last = memo[key] = state.src.rfind("]", 0, pos_max)
    return last


def bracket_run(state: Any, silent: bool) -> bool:
    """Inline rule (before ``link``): a run of ``[`` with no ``]`` after it
    in the inline text can start no link, image or label, so it is plain
    text, taken in one step instead of one rule chain per character."""
    pos = state.pos
    src = state.src
    if src[pos] != "[":
        return False
    memo = getattr(state, _MEMO, None)
    if memo is None:
        memo = {}
        setattr(state, _MEMO, memo)
    if pos < _last_close(state, memo, state.posMax):
        return False
    end = pos + 1
    while end < state.posMax and src[end] == "[":
        end += 1
    if not silent:
        state.pending += src[pos:end]
    state.pos = end
    return True


#: The characters an enabled inline rule of the commonmark preset starts at
#: (newline, escape, backticks, emphasis, link and mmlint_bracket_run, image,
#: autolink and html_inline, entity). Every other character is either plain
#: text (the ``text`` rule takes a run of them) or a terminator no rule
#: accepts (``]``, ``:``, ``>``, ``-`` ...), which the tokenizer adds to the
#: pending text one character at a time after trying every rule.
_RULE_STARTS = "\n\\`*_[!<&"
_INERT_RUN = re.compile("[^" + re.escape(_RULE_STARTS) + "]+")


def inert_run(state: Any, silent: bool) -> bool:
    """Inline rule (first): a run of characters no rule starts at, taken
    into the pending text in one step, as the tokenizer would take it piece
    by piece (the ``text`` rule's runs and each inert terminator after a full
    rule chain). Only when tokenizing: a silent scan (a link label) must
    still stop at every ``]``, so it is left to the other rules."""
    if silent:
        return False
    m = _INERT_RUN.match(state.src, state.pos, state.posMax)
    if m is None:
        return False
    state.append_pending(m.group())
    state.pos = m.end()
    return True


def unlinked_bracket(state: Any, silent: bool) -> bool:
    """Inline rule (after ``mmlint_bracket_run``, before ``link``): a ``[``
    that cannot open a link is plain text. With no reference definitions,
    ``link`` succeeds only when the label closes and ``(`` follows it; when
    the label does not close, or closes without a ``(`` after it, ``link``
    fails, and no later rule (image, autolink, html_inline, entity) starts
    at ``[``: the tokenizer would take the ``[`` as text after the whole
    chain. The label scan is the one ``link`` makes (memoised, so ``link``
    finds it ready when it does run)."""
    pos = state.pos
    src = state.src
    if src[pos] != "[" or state.env.get("references"):
        return False
    end = state.md.helpers.parseLinkLabel(state, pos, True)
    if end >= 0 and end + 1 < state.posMax and src[end + 1] == "(":
        return False  # may be an inline link: link decides
    if not silent:
        state.append_pending("[")
    state.pos = pos + 1
    return True


def _skip_token(self: Any, state: Any) -> None:
    """``ParserInline.skipToken`` that answers from ``state.cache`` first."""
    end = state.cache.get(state.pos)
    if end is not None:
        state.pos = end
        return
    type(self).skipToken(self, state)


def install(md: Any) -> Any:
    """Give the parser ``md`` (and only it) the linear label scan; returns ``md``."""
    from markdown_it import helpers

    md.helpers = types.SimpleNamespace(parseLinkLabel=parse_link_label, parseLinkDestination=helpers.parseLinkDestination,
                                       parseLinkTitle=helpers.parseLinkTitle)
    md.inline.skipToken = types.MethodType(_skip_token, md.inline)
    md.inline.ruler.before("link", "mmlint_bracket_run", bracket_run)
    active = md.inline.ruler.get_active_rules()
    from markdown_it.rules_inline import StateInline

    if set(active) == _KNOWN_RULES and hasattr(StateInline, "append_pending"):  # what _RULE_STARTS describes
        md.inline.ruler.before("text", "mmlint_inert_run", inert_run)
        md.inline.ruler.before("link", "mmlint_unlinked_bracket", unlinked_bracket)
    return md


#: The inline rules :data:`_RULE_STARTS` was written for (commonmark preset + ours).
_KNOWN_RULES = frozenset({"text", "newline", "escape", "backticks", "emphasis", "mmlint_bracket_run", "link", "image",
                          "autolink", "html_inline", "entity"})
