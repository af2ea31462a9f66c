"""``--format text``: one line per diagnostic, a hint line, a summary.

``path:line:column: CODE severity message`` (ruff's layout; ``CODE [*]``
when ``--fix`` would fix it, ruff's mark), then
``  hint: ...`` when the rule has one, then one line per store naming its
dialect and profile, then the totals and ruff's fix footer (``--quiet``: the diagnostic and hint
lines only). Coloured with rich when :func:`mmlint.reporters.use_color`
says so (``--color``, ``NO_COLOR``, ``FORCE_COLOR``, a terminal); plain, and
rich never imported, otherwise. Store text in messages is already quoted
and escaped by the rules.
"""

from __future__ import annotations

from mmlint.reporters import Reporter, located, store_path, use_color
from mmlint.textutil import safe_path_text

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterator, TextIO

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lines(result: Any, cwd: str) -> Iterator[tuple[str, str, str]]:
    """``(kind, text, severity)`` rows, each made when it is asked for (a
    report of 20,000 diagnostics is never held as text); kind is ``diag``,
    ``hint``, ``store`` or ``total``. A ``diag`` row's fields are separated
    by NUL (never present in escaped store text) so colouring never
    re-parses the message."""
    unsafe = getattr(result, "unsafe_fixes", False)
    for item in located(result, cwd):
        d = item.diagnostic
        mark = " [*]" if d.fix and (d.fix["applicability"] == "safe" or unsafe) else ""
        yield ("diag", f"{safe_path_text(item.path)}:{d.span.line}:{d.span.column}:\x00{d.code}{mark}\x00{d.severity}\x00{d.message}", d.severity)
        if d.hint:
            yield ("hint", f"  hint: {d.hint}", d.severity)
    rows = []
    for res in result.stores:
        where = safe_path_text(store_path(res, cwd))
        prof = f", profile {res.profile}" if res.profile else ""
        e = sum(1 for d in res.diagnostics if d.severity == "error")
        w = sum(1 for d in res.diagnostics if d.severity == "warning")
        i = sum(1 for d in res.diagnostics if d.severity == "info")
        rows.append(("store", f"{where}: {res.dialect}{prof}, {_plural(res.files, 'file')}: "
                              f"{_plural(e, 'error')}, {_plural(w, 'warning')}, {i} info", ""))
    c = result.counts()
    failed = len(getattr(result, "failures", ()))
    if failed:
        rows.append(("total", f"{_plural(failed, 'path')} could not be checked (reported on stderr).", ""))
    if c["errors"] or c["warnings"] or c["infos"]:
        rows.append(("total", f"Found {_plural(c['errors'], 'error')}, {_plural(c['warnings'], 'warning')} and {c['infos']} info in {_plural(c['files'], 'file')}.", ""))
    elif not failed:
        rows.append(("total", f"All checks passed ({_plural(c['files'], 'file')}).", ""))
    if result.fixed:
        rows.append(("total", f"Fixed {_plural(result.fixed, 'finding')}.", ""))
    rows.extend(("total", text, "") for text in fix_summary(result))
    yield from rows


def fix_summary(result: Any) -> list[str]:
    """ruff's footer: how many findings ``--fix`` would fix, and how many
    more ``--unsafe-fixes`` would (``[]`` when none)."""
    fixes = [d.fix for res in result.stores for d in res.diagnostics if d.fix]
    shown = sum(1 for f in fixes if f["applicability"] == "safe" or result.unsafe_fixes)
    hidden = len(fixes) - shown
    more = f" ({hidden} hidden {'fix' if hidden == 1 else 'fixes'} can be enabled with the --unsafe-fixes option)" if hidden else ""
    if shown:
        return [f"[*] {shown} fixable with the --fix option{more}."]
    return [f"No fixes available{more}."] if hidden else []


class TextReporter(Reporter):
    """Human-readable output (see module docs)."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write :func:`lines` for ``result`` to ``stream``, coloured on a TTY."""
        rows = lines(result, cwd)
        if self.quiet:
            rows = (r for r in rows if r[0] in ("diag", "hint"))
        if not use_color(stream, self.color):
            for _, text, _ in rows:
                stream.write(text.replace("\x00", " ") + "\n")
            return
        from rich.console import Console
        from rich.markup import escape

        console = Console(file=stream, highlight=False, soft_wrap=True, force_terminal=True)
        for kind, text, sev in rows:
            if kind == "diag":
                loc, code, sevword, msg = text.split("\x00", 3)
                console.print(f"[bold]{escape(loc)}[/] [magenta]{escape(code)}[/] [{_STYLE[sev]}]{sevword}[/] {escape(msg)}")
            elif kind == "hint":
                console.print(f"[dim]{escape(text)}[/]")
            elif kind == "total":
                console.print(f"[bold]{escape(text)}[/]")
            else:
                console.print(escape(text))
