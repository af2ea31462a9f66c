"""Rule documentation generated from the rules themselves.

``mmlint rules`` lists them, ``mmlint rule CODE|NAME`` prints one, and
``docs/rules.md`` is :func:`markdown` (a test fails when the file is stale:
regenerate with ``mmlint rules --format markdown > docs/rules.md``).

Rule docstrings mark code with RST double backticks. What a user reads is
rendered for where it is read: :func:`plain` for the terminal and SARIF
``help.text`` (no markup at all), :func:`to_markdown` for ``docs/rules.md``
and SARIF ``help.markdown`` (markdown code spans).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from mmlint import rules

FAMILY_TITLES = {
    "store": "Store (files, encoding, leftovers)",
    "index": "Index (presence, caps, shape)",
    "pointers": "Pointers (index entries, orphans, links between notes)",
    "naming": "Naming (slugs, file names, collisions)",
    "frontmatter": "Frontmatter (grammar, schema, Why / How to apply)",
    "caps": "Size caps on notes",
    "mm": "mm (Memory Standard reference errors)",
    "interop": "Interop hazards (what another tool would misread)",
    "suppressions": "Suppressions (inline mmlint comments)",
}

LABELS = ("why", "bad", "good", "fix")


_LABEL = re.compile(r"^(Why|Bad|Good|Fix):\s*")
#: An RST inline literal: ````text```` (the shortest run up to the next ``````).
_LITERAL = re.compile(r"``(.+?)``", re.S)


def plain(text: str) -> str:
    """``text`` with each RST literal as quoted plain text: ````MEMORY.md````
    -> ``'MEMORY.md'`` (double quotes when the literal holds a ``'``, and
    backticks when it holds both kinds of quote)."""

    def quote(m: re.Match) -> str:
        inner = m.group(1)
        q = "'" if "'" not in inner else '"' if '"' not in inner else "`"
        return f"{q}{inner}{q}"

    return _LITERAL.sub(quote, text)


def to_markdown(text: str) -> str:
    """``text`` with RST literals as markdown code spans (a literal holding a
    backtick gets a longer fence, CommonMark 6.1)."""

    def span(m: re.Match) -> str:
        inner = m.group(1)
        fence = "`" * (max((len(r) for r in re.findall("`+", inner)), default=0) + 1)
        pad = " " if inner.startswith("`") or inner.endswith("`") else ""
        return f"{fence}{pad}{inner}{pad}{fence}"

    return _LITERAL.sub(span, text)


def anchor(r: rules.Rule) -> str:
    """The GitHub heading anchor of ``r``'s section in ``docs/rules.md``
    (heading ``### P101 `dangling-pointer` `` -> ``p101-dangling-pointer``)."""
    return f"{r.code.lower()}-{r.name}"


def sections(doc: str) -> dict[str, str]:
    """Split a rule docstring into ``summary``, ``body``, ``why``, ``bad``,
    ``good``, ``fix`` (missing sections are empty strings). ``fix`` starts
    with the fix safety: ``safe``, ``unsafe`` or ``none``."""
    text = inspect.cleandoc(doc)
    parts = {"summary": "", "body": "", "why": "", "bad": "", "good": "", "fix": ""}
    paras = text.split("\n\n")
    parts["summary"] = " ".join(paras[0].split())
    current = "body"
    for para in paras[1:]:
        m = _LABEL.match(para)
        if m:
            current = m.group(1).lower()
            para = para[m.end():]
        for line in para.split("\n"):
            m = _LABEL.match(line)
            if m:
                current = m.group(1).lower()
                line = line[m.end():]
            parts[current] = (parts[current] + "\n" + line).strip()
    return parts


def _scope(r: rules.Rule) -> str:
    """Where a rule applies: ``all dialects`` or ``engramory (recall-v1,
    upstream), workspace`` (profiles belong to engramory)."""
    if not r.dialects:
        return "all dialects"
    profiles = f" ({', '.join(sorted(r.profiles))})" if r.profiles else ""
    return ", ".join(d + (profiles if d == "engramory" else "") for d in sorted(r.dialects))


def listing() -> list[dict[str, Any]]:
    """Every rule as ``{"code", "name", "severity", "severityBy", "family",
    "dialects", "profiles", "fix", "summary"}``, sorted by code; ``fix`` is
    the fix safety (``safe``, ``unsafe`` or ``none``); ``severityBy`` maps a
    profile or dialect to the default severity there when it differs
    (``{}`` when none)."""
    out = []
    for r in rules.load().values():
        out.append({"code": r.code, "name": r.name, "severity": r.severity, "severityBy": dict(r.severity_by),
                    "family": r.family,
                    "dialects": sorted(r.dialects) if r.dialects else None,
                    "profiles": sorted(r.profiles) if r.profiles else None,
                    "fix": r.fix, "summary": sections(r.doc)["summary"]})
    return out


def _severity(r: rules.Rule) -> str:
    """``error`` or ``info (error under upstream)`` for a rule whose
    default depends on the dialect or profile."""
    if not r.severity_by:
        return r.severity
    return r.severity + " (" + ", ".join(f"{sev} under {p}" for p, sev in r.severity_by) + ")"


def explain(r: rules.Rule, render=plain) -> str:
    """Documentation of one rule, as plain text (``render=plain``, the
    terminal and SARIF ``help.text``) or markdown (``render=to_markdown``)."""
    s = sections(r.doc)
    lines = [f"{r.code} {r.name} ({_severity(r)}; {_scope(r)})", "", render(s["summary"])]
    if s["body"]:
        lines += ["", render(s["body"])]
    for label in LABELS:
        if s[label]:
            lines += ["", f"{label.capitalize()}: {render(s[label])}"]
    return "\n".join(lines) + "\n"


def markdown() -> str:
    """``docs/rules.md``: the severity principle, a table of every rule, then
    one section per family."""
    all_rules = list(rules.load().values())
    lines = ["# mmlint rules", "",
             "Generated from the rules' own documentation by `mmlint rules --format markdown`; do not edit by hand.",
             "", f"{len(all_rules)} rules. Severity is the default; configuration may change it.", "",
             "## Severity", "", rules.SEVERITY_PRINCIPLE, "",
             "| code | name | severity | fix | applies to | finds |", "|---|---|---|---|---|---|"]
    for r in all_rules:
        summary = to_markdown(sections(r.doc)["summary"]).replace("|", "\\|")
        fix = r.fix if r.fix != rules.NO_FIX else ""
        lines.append(f"| {r.code} | `{r.name}` | {_severity(r)} | {fix} | {_scope(r)} | {summary} |")
    for fam in rules.FAMILIES:
        fam_rules = [r for r in all_rules if r.family == fam]
        if not fam_rules:
            continue
        lines += ["", f"## {FAMILY_TITLES.get(fam, fam)}"]
        for r in fam_rules:
            s = sections(r.doc)
            lines += ["", f"### {r.code} `{r.name}`", "", f"*{_severity(r)}; {_scope(r)}*", "", to_markdown(s["summary"])]
            if s["body"]:
                lines += ["", to_markdown(s["body"])]
            for label in LABELS:
                if s[label]:
                    lines += ["", f"**{label.capitalize()}:** {to_markdown(s[label])}"]
    return "\n".join(lines) + "\n"
