"""The ``mmlint`` command line: parse arguments, call :mod:`mmlint.api`,
print through a reporter, return the exit status.

Exit status: 0 no errors (or a conversion written / planned), 1 findings at
error level (or a conversion refused), 2 usage error or a store that could
not be checked.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from mmlint import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mmlint: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _add_store_options(p: argparse.ArgumentParser, profile_help: str = "engramory profile (overrides detection)") -> None:
    p.add_argument("--dialect", help="dialect of the store: mm, engramory, workspace (overrides detection)")
    p.add_argument("--profile", help=profile_help)


def _add_config_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="read this configuration file only (default: the nearest "
                   ".mmlint.toml, mmlint.toml or pyproject.toml [tool.mmlint] in or above each store)")
    p.add_argument("--isolated", action="store_true", help="read no configuration file")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used to document the CLI)."""
    parser = _Parser(prog="mmlint", description="Read, lint and convert agent memory stores.")
    parser.add_argument("--version", action="version", version=f"mmlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("detect", help="tell a store's dialect and profile, with the evidence")
    p.add_argument("path", nargs="?", help="store folder (default: discovered from the current folder)")
    _add_store_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = sub.add_parser("check", help="lint one or more stores")
    p.add_argument("paths", nargs="*", metavar="PATH", help="store folders (default: discovered from the current folder)")
    p.add_argument("--example", action="store_true", help="check the example store bundled with mmlint")
    _add_store_options(p)
    from mmlint.reporters import REPORTERS

    p.add_argument("--format", choices=tuple(REPORTERS), default="text", help="output format (default: text)")
    p.add_argument("--output", metavar="FILE",
                   help="write the report to FILE (UTF-8, replaced if present) instead of stdout")
    p.add_argument("--statistics", action="store_true",
                   help="print per-rule counts instead of diagnostics: COUNT<TAB>CODE<TAB>name lines, "
                        "a JSON array with --format json")
    p.add_argument("--select", default="", help="comma-separated rule codes, names or code prefixes to run "
                   "(replaces the configured selection)")
    p.add_argument("--ignore", default="", help="comma-separated rule codes, names or code prefixes to skip "
                   "(added to the configured ones)")
    _add_config_options(p)
    p.add_argument("--baseline", metavar="FILE", help="hide the findings recorded in FILE (see --write-baseline)")
    p.add_argument("--write-baseline", metavar="FILE", help="record the current findings in FILE and exit 0")
    p.add_argument("--fix", action="store_true", help="apply safe fixes, then report what is left")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply (with --fix, --diff) and count unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print the changes --fix would make as a unified diff; write nothing "
                   "(exit 1 when there are changes)")

    p = sub.add_parser("budget", help="index and per-note budget use (the mm spec's budget() fields), for any dialect")
    p.add_argument("path", nargs="?", help="store folder (default: discovered from the current folder)")
    _add_store_options(p)
    _add_config_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text", help="a table (default) or mmlint.budget/1 JSON")

    p = sub.add_parser("rules", help="list every rule (code, name, severity, dialects)")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")

    p = sub.add_parser("rule", help="explain one rule: what it finds, why it matters, a bad and a good example")
    p.add_argument("rule", metavar="CODE|NAME")

    p = sub.add_parser("schema", help="print a JSON Schema, or export them all")
    p.add_argument("name", nargs="?", help="schema name (default: list the names)")
    p.add_argument("--export", metavar="DIR", help="write every schema into DIR")

    p = sub.add_parser("convert", help="migrate a store to another dialect without loss")
    p.add_argument("src", metavar="SRC", help="source store folder")
    p.add_argument("dst", metavar="DST", help="destination folder (absent or empty unless --force)")
    p.add_argument("--to", required=True, dest="to", help="target dialect: mm, engramory, workspace")
    p.add_argument("--profile", help="target profile (engramory: recall-v1, upstream, claude-code)")
    p.add_argument("--dialect", help="source dialect (overrides detection)")
    p.add_argument("--source-profile", help="source profile (overrides detection)")
    p.add_argument("--dry-run", action="store_true", help="print the plan; write nothing")
    p.add_argument("--force", action="store_true", help="replace a non-empty DST")
    p.add_argument("--default", action="append", default=[], metavar="FIELD=VALUE",
                   help="value for a field the target requires and a note lacks (e.g. type=reference); repeatable")
    p.add_argument("--allow-loss", default="", metavar="FIELD[,FIELD]", help="accept dropping these fields (the dropped values are listed)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def _tolerant_streams() -> None:
    """Let stdout and stderr print any text: characters the console's encoding
    cannot show (an ASCII or OEM code page) become backslash escapes instead
    of crashing the run."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    _tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    handler = {"detect": cmd_detect, "check": cmd_check, "convert": cmd_convert, "rules": cmd_rules,
               "rule": cmd_rule, "schema": cmd_schema, "budget": cmd_budget}[args.command]
    from mmlint.api import CheckError

    try:
        return handler(args)
    except CheckError as exc:
        sys.stderr.write(f"mmlint: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (``| head``): say nothing more, and do not claim success
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return getattr(args, "_status", EXIT_USAGE)


def _say_found(found, explicit: bool) -> None:
    if not explicit:
        sys.stderr.write(f"mmlint: using {found.path} ({found.how})\n")


def cmd_detect(args: argparse.Namespace) -> int:
    """``mmlint detect``: dialect, profile and evidence of one store."""
    from mmlint import api

    found = api.locate([args.path] if args.path else [])[0]
    _say_found(found, bool(args.path))
    name, profile, ev = api.choose(found.path, args.dialect, args.profile)
    reasons = ev.reasons if ev is not None else ["forced by --dialect/--profile"]
    if args.format == "json":
        print(json.dumps({"path": found.path, "dialect": name, "profile": profile, "evidence": reasons}, ensure_ascii=False, indent=2))
    else:
        print(f"{found.path}: {name}" + (f" (profile {profile})" if profile else ""))
        for r in reasons:
            print(f"  - {r}")
    return EXIT_OK


def _codes(text: str) -> set[str]:
    return {c.strip() for c in text.split(",") if c.strip()}


def cmd_check(args: argparse.Namespace) -> int:
    """``mmlint check``: lint stores, optionally fix or diff them, report."""
    from mmlint import api, baseline, reporters, rules

    paths = list(args.paths)
    if args.example:
        from importlib import resources

        paths.append(str(resources.files("mmlint.example") / "store"))
    for code in rules.unknown_selectors(_codes(args.select) | _codes(args.ignore))[:1]:
        raise api.CheckError(f"unknown rule {code!r} in --select/--ignore; 'mmlint rules' lists them")
    if args.baseline and args.write_baseline:
        raise api.CheckError("--baseline and --write-baseline exclude each other: --write-baseline records every current finding")
    options = rules.Options(select=_codes(args.select), ignore=_codes(args.ignore))
    found = api.locate(paths)
    if not paths:
        _say_found(found[0], False)

    def checked() -> api.CheckResult:
        res = api.check([f.path for f in found], args.dialect, args.profile, options, config=args.config, isolated=args.isolated)
        for r, f in zip(res.stores, found):
            r.found = f
        res.unsafe_fixes = args.unsafe_fixes
        return res

    result = checked()
    if args.diff:
        return _diff(result, args.unsafe_fixes)
    if args.fix:
        fixed = _fix(result, args.unsafe_fixes)
        result = checked()
        result.fixed = fixed
    if args.write_baseline:
        n = baseline.write(args.write_baseline, result.stores)
        sys.stderr.write(f"mmlint: recorded {n} finding{'' if n == 1 else 's'} in {args.write_baseline}\n")
        return EXIT_OK
    if args.baseline:
        hidden = baseline.hide(result.stores, args.baseline)
        if hidden:
            sys.stderr.write(f"mmlint: {hidden} finding{'' if hidden == 1 else 's'} hidden by the baseline {args.baseline}\n")
    args._status = EXIT_FINDINGS if result.counts()["errors"] else EXIT_OK
    if args.statistics:
        from mmlint.reporters.statistics import StatisticsReporter

        reporter = StatisticsReporter(as_json=args.format == "json")
    else:
        reporter = reporters.get(args.format)
    if not args.output:
        reporter.report(result, sys.stdout, os.getcwd())
    else:
        import io

        buf = io.StringIO()  # render first: a failing reporter leaves no half-written file
        reporter.report(result, buf, os.getcwd())
        from mmlint.fixes import atomic_write

        try:
            atomic_write(os.path.abspath(args.output), buf.getvalue().encode("utf-8", "backslashreplace"))
        except OSError as exc:
            raise api.CheckError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return EXIT_FINDINGS if result.counts()["errors"] else EXIT_OK


def _outcomes(result, unsafe: bool) -> list:
    from mmlint import api, fixes

    outcomes = [fixes.fix_store(res, unsafe) for res in result.stores]
    for res, out in zip(result.stores, outcomes):
        if not out.converged:
            raise api.CheckError(f"{res.found.path}: fixes kept changing files for {fixes.MAX_ROUNDS} rounds; "
                                 "nothing written (a bug in a rule's fix: please report it)")
    return outcomes


def _diff(result, unsafe: bool) -> int:
    """``--diff``: print each change ``--fix`` would make; exit 1 if any."""
    from mmlint import fixes
    from mmlint.api import display_path
    from mmlint.model import Span
    from mmlint.textutil import safe_path_text

    outcomes = _outcomes(result, unsafe)
    for res, out in zip(result.stores, outcomes):
        for path, (old, new) in out.changes.items():
            shown = safe_path_text(display_path(res.found.path, Span(path), os.getcwd()))
            sys.stdout.write(fixes.unified_diff(shown, old, new))
    files = sum(len(o.changes) for o in outcomes)
    fixed = sum(o.fixed for o in outcomes)
    sys.stderr.write(f"mmlint: {fixed} fix{'' if fixed == 1 else 'es'} would change {files} file{'' if files == 1 else 's'}; nothing written\n")
    return EXIT_FINDINGS if files else EXIT_OK


def _fix(result, unsafe: bool) -> int:
    """``--fix``: write the fixed files into the stores; returns findings fixed.

    Raises:
        CheckError: a fixed file could not be written (exit 2).
    """
    from mmlint import api, fixes
    from mmlint.textutil import safe_path_text

    outcomes = _outcomes(result, unsafe)
    for out in outcomes:
        fixes.write_changes(out)
        for path, why in out.skipped:
            sys.stderr.write(f"mmlint: not fixed: {safe_path_text(path)}: {why}\n")
            if why.startswith("cannot write"):
                raise api.CheckError(f"--fix could not write {safe_path_text(path)}; files listed before it were fixed")
    return sum(o.fixed for o in outcomes)


def cmd_budget(args: argparse.Namespace) -> int:
    """``mmlint budget``: index and note budget use as a table or JSON (exit 0)."""
    from mmlint import api, budget

    found = api.locate([args.path] if args.path else [])
    _say_found(found[0], bool(args.path))
    results = api.configured([f.path for f in found], args.dialect, args.profile, config=args.config, isolated=args.isolated)
    for res, f in zip(results, found):
        res.found = f
    doc = budget.document(results, os.getcwd())
    if args.format == "json":
        print(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        budget.print_text(doc, sys.stdout)
    return EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    """``mmlint rules``: the rule list (text, JSON or the markdown doc)."""
    from mmlint import ruledocs

    if args.format == "markdown":
        sys.stdout.write(ruledocs.markdown())
    elif args.format == "json":
        print(json.dumps(ruledocs.listing(), ensure_ascii=False, indent=2))
    else:
        for r in ruledocs.listing():
            dialects = r["dialects"] or ["all"]
            where = ",".join(d + ("[" + ",".join(r["profiles"]) + "]" if r["profiles"] and d == "engramory" else "")
                             for d in dialects)
            print(f"{r['code']}  {r['name']:<26} {r['severity']:<8} {where:<28} {r['summary']}")
    return EXIT_OK


def cmd_rule(args: argparse.Namespace) -> int:
    """``mmlint rule CODE|NAME``: one rule's documentation."""
    from mmlint import api, ruledocs, rules

    r = rules.lookup(args.rule)
    if r is None:
        raise api.CheckError(f"unknown rule {args.rule!r}; 'mmlint rules' lists them")
    sys.stdout.write(ruledocs.explain(r))
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """``mmlint schema [NAME] [--export DIR]``."""
    from mmlint import api
    from mmlint.validate import load_schema, schema_names

    if args.export:
        os.makedirs(args.export, exist_ok=True)
        for name in schema_names():
            with open(os.path.join(args.export, f"{name}.json"), "w", encoding="utf-8") as fh:
                fh.write(json.dumps(load_schema(name), ensure_ascii=False, indent=2) + "\n")
        print(f"wrote {len(schema_names())} schemas to {args.export}")
        return EXIT_OK
    if not args.name:
        for name in schema_names():
            print(f"{name}  {load_schema(name).get('title', '')}")
        return EXIT_OK
    try:
        print(json.dumps(load_schema(args.name), ensure_ascii=False, indent=2))
    except KeyError as exc:
        raise api.CheckError(exc.args[0]) from None
    return EXIT_OK


def cmd_convert(args: argparse.Namespace) -> int:
    """``mmlint convert``: migrate SRC into DST as another dialect; print the
    plan (``--format text``: a table, rich on a terminal; ``json``:
    :func:`plan_json`). Exit 0 when written (or a dry run would be), 1 when
    refused, 2 on a usage error."""
    from mmlint import api, convert, dialects

    try:
        dialects.get(args.to)
        dialects.check_profile(args.to, args.profile)
    except dialects.UnknownDialect as exc:
        raise api.CheckError(str(exc)) from None
    from mmlint.model import NOTE_FIELDS

    defaults = {}
    keymap: dict[str, str] = {}  # every dialect's frontmatter key -> model field (description -> summary)
    for name in dialects.names():
        keymap.update(getattr(dialects.get(name), "KEYMAP", {}))
    for item in args.default:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise api.CheckError(f"--default takes FIELD=VALUE, got {item!r}")
        field = keymap.get(key, key)
        if field not in NOTE_FIELDS:
            known = sorted(set(NOTE_FIELDS) | set(keymap))
            raise api.CheckError(f"--default: unknown field {key!r}; fields: {', '.join(known)}")
        defaults[field] = value
    allowed = _codes(args.allow_loss)
    known = set(NOTE_FIELDS) | {"category", "slug", "extra", "index_lines", "aux"} | set(keymap)
    bad = sorted(f for f in allowed if f not in known and not f.startswith("extra:"))
    if bad:
        raise api.CheckError(f"--allow-loss: unknown field {bad[0]!r}; fields: {', '.join(sorted(known))}, or extra:KEY")
    allowed = {keymap.get(f, f) for f in allowed}
    found = api.locate([args.src])[0]
    src = api.read_store(found, args.dialect, args.source_profile)
    with _progress(len(src.store.notes)) as step:
        plan = convert.plan_conversion(src.store, args.dst, args.to, args.profile, defaults, allowed,
                                       args.force, args.dry_run, step)
    if args.format == "json":
        text = json.dumps(plan_json(plan, args.dry_run), ensure_ascii=False, indent=2)
        # bytes that are not UTF-8 (kept as lone surrogates) become \udcXX escapes: valid JSON, same strings
        print(text.encode("utf-8", "backslashreplace").decode("utf-8"))
    else:
        print_plan(plan, args.dry_run)
    return EXIT_OK if plan.ok else EXIT_FINDINGS


#: A conversion of more notes than this shows progress (on a terminal).
PROGRESS_NOTES = 200


class _progress:
    """Context manager giving a ``progress(step, done, total)`` callback: a
    rich progress bar on stderr for more than :data:`PROGRESS_NOTES` notes
    when stderr is a terminal, else ``None``."""

    def __init__(self, notes: int):
        self.bar = None
        if notes > PROGRESS_NOTES and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("convert", total=1)

    def __enter__(self):
        if self.bar is None:
            return None
        self.bar.start()
        return self.update

    def update(self, step: str, done: int, total: int) -> None:
        self.bar.update(self.task, description=step, completed=done, total=total)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def _budget_text(usage: dict) -> str:
    """A file's budget use in words, units named (code points, bytes, lines)."""
    u = usage
    if "bodyChars" in u:
        return f"{u['bodyChars']}/{u['writeBudget']} chars ({u['budgetUsedPct']}%), {u['noteBytes']}/{u['noteMaxBytes']} B"
    if "lineCap" in u:
        return f"{u['lines']}/{u['lineCap']} lines, {u['bytes']}/{u['byteCap']} B"
    if "lines" in u:
        return f"{u['lines']} lines, {u['bytes']} B (no cap)"
    if "maxEntryBytes" in u:
        return f"{u['bodyBytes']}/{u['maxEntryBytes']} body B"
    if "noteMaxBytes" in u:
        return f"{u['noteBytes']}/{u['noteMaxBytes']} B"
    return ""


def _carrier_rows(plan) -> list[tuple[str, str, str]]:
    """``(carrier, where, count)`` rows: each key with the files holding it."""
    from collections import Counter

    keys = Counter(k for _, k in plan.carriers if k != "file")
    where: dict[str, set[str]] = {}
    for path, key in plan.carriers:
        where.setdefault(key, set()).add(path)
    rows = [(k, ", ".join(sorted(where[k])[:3]) + (f" (+{len(where[k]) - 3} files)" if len(where[k]) > 3 else ""), str(n))
            for k, n in sorted(keys.items())]
    rows += [("file", path, "1") for path, key in plan.carriers if key == "file"]
    return rows


def plan_json(plan, dry_run: bool) -> dict:
    """The ``mmlint.convert/1`` JSON document for a plan: the same data as
    :func:`print_plan`. Sizes are bytes; ``usage`` keeps the target's metric
    names (see :class:`mmlint.convert.PlannedFile`)."""
    return {
        "format": "mmlint.convert/1",
        "source": {"path": plan.source, "dialect": plan.source_dialect, "profile": plan.source_profile, "notes": plan.notes},
        "dest": {"path": plan.dest, "dialect": plan.dialect, "profile": plan.profile},
        "ok": plan.ok,
        "dryRun": dry_run,
        "written": plan.written,
        "files": [{"path": f.path, "bytes": f.size, "kind": f.kind, "source": f.source or None, "usage": f.usage or None}
                  for f in plan.files.values()],
        "carriers": [{"path": p, "key": k} for p, k in plan.carriers],
        "fills": [{"path": p, "field": f, "value": v} for p, f, v in plan.fills],
        "losses": [{"path": p, "field": f, "value": v} for p, f, v in plan.losses],
        "notCopied": [{"path": p, "reason": r} for p, r in plan.not_copied],
        "swept": [{"path": p, "action": a} for p, a in plan.swept],
        "refusals": [{"code": r.code, "path": r.path, "field": r.field, "message": r.message, "usage": r.usage}
                     for r in plan.refusals],
    }


def _table(title: str, head: tuple[str, ...], rows: list[tuple[str, ...]], rich_console) -> None:
    if rich_console is not None:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=Text(title), title_justify="left")
        for h in head:
            table.add_column(h, justify="right" if h == "bytes" else "left", overflow="fold")
        for row in rows:
            table.add_row(*(Text(c) for c in row))  # store text is never read as rich markup
        rich_console.print(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    sys.stdout.write(f"{title}:\n")
    for row in [head] + rows:
        cells = [c.rjust(w) if h == "bytes" else c.ljust(w) for c, w, h in zip(row, widths, head)]
        sys.stdout.write("  " + "  ".join(cells).rstrip() + "\n")


def print_plan(plan, dry_run: bool) -> None:
    """The plan as text: files (kind, bytes, path, source, budget use),
    carriers, fills, allowed losses, folders not copied, refusals with their
    metrics, and the outcome. Tables are drawn with rich when stdout is a
    terminal, as aligned plain text otherwise. Store text is escaped."""
    from mmlint.textutil import safe_path_text as esc

    console = None
    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=False)
    out = sys.stdout
    prof = f" ({plan.profile})" if plan.profile else ""
    src_prof = f" ({plan.source_profile})" if plan.source_profile else ""
    out.write(f"convert {esc(plan.source)} [{plan.source_dialect}{src_prof}, {plan.notes} notes] -> {esc(plan.dest)} [{plan.dialect}{prof}]\n")
    for name, action in plan.swept:
        out.write(f"leftover of a killed run {action}: {esc(name)}\n")
    if plan.files:
        total = sum(f.size for f in plan.files.values())
        rows = [(f.kind, str(f.size), esc(f.path), esc(f.source) if f.source and f.source != f.path else "", _budget_text(f.usage))
                for f in plan.files.values()]
        _table(f"files to write: {len(plan.files)} ({total} bytes)", ("kind", "bytes", "path", "from", "budget use"), rows, console)
    if plan.carriers:
        _table("carriers (fields the target holds in mmlint-* keys or files)", ("carrier", "in", "uses"),
               [(k, esc(w), n) for k, w, n in _carrier_rows(plan)], console)
    for p, f, v in plan.fills:
        out.write(f"fill: {esc(p)}: {f} := {v!r}\n")
    for p, f, v in plan.losses:
        out.write(f"loss (allowed): {esc(p)}: {f} was {v!r}\n")
    for p, reason in plan.not_copied:
        out.write(f"not copied: {esc(p)}/ ({reason})\n")
    for r in plan.refusals:
        field = f" [{r.field}]" if r.field else ""
        out.write(f"refused: {r.code} {esc(r.path)}{field}: {r.message}\n")
        if r.usage:
            out.write(f"  usage: {json.dumps(r.usage, ensure_ascii=False)}\n")
    if plan.refusals:
        out.write("nothing written.\n")
    elif dry_run:
        out.write("dry run: nothing written; the conversion would succeed and verify.\n")
    elif plan.written:
        out.write("written and verified: the destination re-reads to the same model.\n")
