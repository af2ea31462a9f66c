"""``mmlint convert``: migrate SRC into DST as another dialect.

The plan is printed by :mod:`mmlint.reporters.plan` (``--format text``: a
table, rich on a terminal; ``json``: ``mmlint.convert/1``). Exit 0 when
written (or a dry run would be), 1 when refused, 2 on a usage error or
when the conversion could not be carried out (:class:`mmlint.convert.CannotConvert`:
one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys

from mmlint.commands import EXIT_FINDINGS, EXIT_OK, codes

HELP = "migrate a store to another dialect without loss"

#: A conversion of more notes than this shows progress (on a terminal).
PROGRESS_NOTES = 200


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``convert``."""
    p.add_argument("src", metavar="SRC", help="source store folder")
    p.add_argument("dst", metavar="DST", help="destination folder (absent or empty unless --force)")
    p.add_argument("--to", required=True, dest="to", help="target dialect: mm, engramory, workspace")
    p.add_argument("--profile", help="target profile (engramory: recall-v1, upstream, claude-code)")
    p.add_argument("--dialect", help="source dialect (overrides detection)")
    p.add_argument("--source-profile", help="source profile (overrides detection)")
    p.add_argument("--dry-run", action="store_true", help="print the plan; write nothing")
    p.add_argument("--force", action="store_true", help="replace a non-empty DST that is a memory store")
    p.add_argument("--backup", action="store_true", help="with --force, keep the replaced DST as DST.mmlint-backup-<time>")
    p.add_argument("--default", action="append", default=[], metavar="FIELD=VALUE",
                   help="value for a field the target requires and a note lacks (e.g. type=reference); repeatable")
    p.add_argument("--allow-loss", default="", metavar="FIELD[,FIELD]", help="accept dropping these fields (the dropped values are listed)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    """Plan (and unless ``--dry-run``, write) the conversion; print the plan."""
    import os

    from mmlint import api, convert, dialects
    from mmlint.model import NOTE_FIELDS
    from mmlint.gcpause import gc_paused
    from mmlint.reporters.plan import PlanReporter
    from mmlint.suggest import did_you_mean
    from mmlint.textutil import safe_path_text

    try:
        dialects.get(args.to)
        dialects.check_profile(args.to, args.profile)
    except dialects.UnknownDialect as exc:
        raise api.CheckError(str(exc)) from None
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
            raise api.CheckError(f"--default: unknown field {key!r}{did_you_mean(key, known)}; fields: {', '.join(known)}")
        defaults[field] = value
    allowed = codes(args.allow_loss)
    known = set(NOTE_FIELDS) | {"category", "slug", "extra", "index_lines", "aux"} | set(keymap)
    bad = sorted(f for f in allowed if f not in known and not f.startswith("extra:"))
    if bad:
        raise api.CheckError(f"--allow-loss: unknown field {bad[0]!r}{did_you_mean(bad[0], known)}; "
                             f"fields: {', '.join(sorted(known))}, or extra:KEY")
    allowed = {keymap.get(f, f) for f in allowed}
    try:
        with gc_paused():  # the source store lives until the end: no use walking it for cycles
            found = api.locate([args.src])[0]
            src = api.read_store(found, args.dialect, args.source_profile)
            with _progress(len(src.store.notes)) as step:
                plan = convert.plan_conversion(src.store, args.dst, args.to, args.profile, defaults, allowed,
                                               args.force, args.dry_run, step, args.backup)
    except KeyboardInterrupt:
        raise convert.CannotConvert("interrupted; DST was not changed") from None
    except OSError as exc:  # a failure no step turned into a message: still one line, exit 2
        where = f" ({safe_path_text(exc.filename)})" if exc.filename else ""
        raise convert.CannotConvert(f"cannot convert: {exc.strerror or exc}{where}") from None
    PlanReporter(args.dry_run, as_json=args.format == "json").report(plan, sys.stdout, os.getcwd())
    return EXIT_OK if plan.ok else EXIT_FINDINGS


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
