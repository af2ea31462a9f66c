"""``mmlint check``: lint stores, optionally fix or diff them, report.

Every PATH is checked on its own (ruff, markdownlint-cli2): one that cannot
be checked is a ``mmlint: PATH: ...`` line on stderr and exit status 2, and
the other paths are still checked and reported.

Exit status, the highest that applies: 0 no finding at the ``--fail-on``
level (default ``error``) or ``--exit-zero``, 1 findings at that level (or,
with ``--diff``, changes to show), 2 usage error or a PATH that could not be
checked (``--exit-zero`` never hides a 2).
"""

from __future__ import annotations

import os
import sys

from mmlint.commands import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, add_color_option, add_config_options, add_store_options,
                             check_store_options, codes, say_found)

TYPE_CHECKING = False  # a plain command line is parsed without argparse (mmlint.commands._fastargs)
if TYPE_CHECKING:
    import argparse

HELP = "lint one or more stores"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``check``."""
    from mmlint.reporters import REPORTERS

    p.add_argument("paths", nargs="*", metavar="PATH", help="store folders (default: discovered from the current folder)")
    p.add_argument("--example", action="store_true", help="check the example store bundled with mmlint")
    add_store_options(p)
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
    add_config_options(p)
    p.add_argument("--baseline", metavar="FILE", help="hide the findings recorded in FILE (see --write-baseline)")
    p.add_argument("--write-baseline", metavar="FILE", help="record the current findings in FILE and exit 0")
    p.add_argument("--fix", action="store_true", help="apply safe fixes, then report what is left")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply (with --fix, --diff) and count unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print the changes --fix would make as a unified diff; write nothing "
                   "(exit 1 when there are changes)")
    p.add_argument("--fail-on", choices=FAIL_ON, default="error",
                   help="lowest severity that makes the exit status 1 (default: error)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings are reported (2 still means "
                   "a PATH or the command line could not be used)")
    p.add_argument("-q", "--quiet", action="store_true", help="print the diagnostics only: no summary, no notes on stderr "
                   "(warnings and errors still go to stderr)")
    add_color_option(p)
    p.add_argument("--show-settings", action="store_true", help="print, for each store, the configuration file, dialect, "
                   "profile and rules that apply (with their severity), then exit 0")
    p.add_argument("--jobs", default=None, metavar="N",
                   help="processes to run the rules on: 1 (the default) runs serially, 'auto' or 0 uses an idle "
                        "second CPU (and more, up to 4) for stores of 1,000 notes or more when fork is "
                        "available (a worker copies the store pages it touches: more memory in all); the "
                        "findings are the same either way")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache "
                   "(in $MMLINT_CACHE_DIR, else the user's cache folder; safe to delete)")


def _jobs(text: str | None) -> int | None:
    """``--jobs``: ``auto`` or a whole number >= 0 (0 = auto); ``None`` when not given.

    Raises:
        CheckError: anything else (exit status 2).
    """
    if text is None:
        return None
    if text.strip().lower() == "auto":
        return 0
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        from mmlint.errors import CheckError

        raise CheckError(f"--jobs: expected 'auto' or a number of processes (0 = auto), not {text!r}")
    return n


#: ``--fail-on`` levels, strictest last.
FAIL_ON = ("error", "warning", "info")


def failing(counts: dict[str, int], fail_on: str) -> bool:
    """Whether findings at ``fail_on`` or a higher severity were reported."""
    keys = ("errors", "warnings", "infos")[: FAIL_ON.index(fail_on) + 1]
    return any(counts[k] for k in keys)


def run(args: argparse.Namespace) -> int:
    """Check the stores named by ``args.paths`` (or the discovered one).

    A run the result cache answers for every store (:func:`mmlint.api.cached`)
    loads neither the configuration, the dialects nor the rules; every other
    run first checks the command line's rule and store names."""
    from mmlint import api, reporters
    from mmlint.options import Options

    paths = list(args.paths)
    if args.example:
        from importlib import resources

        paths.append(str(resources.files("mmlint.example") / "store"))
    if args.baseline and args.write_baseline:
        raise api.CheckError("--baseline and --write-baseline exclude each other: --write-baseline records every current finding")
    options = Options(select=codes(args.select), ignore=codes(args.ignore), jobs=_jobs(args.jobs))
    note = (lambda text: None) if args.quiet else (lambda text: sys.stderr.write(f"mmlint: {text}\n"))
    use_cache = not (args.no_cache or args.fix or args.diff or args.show_settings)
    misses: dict = {}
    result = api.cached(paths, args.dialect, args.profile, options, config=args.config, isolated=args.isolated,
                        misses=misses) if use_cache else None
    if result is None:
        _check_names(args)
    if args.show_settings:
        return _show_settings(args, paths, options)

    def checked() -> api.CheckResult:
        res = api.check(paths, args.dialect, args.profile, options, config=args.config, isolated=args.isolated,
                        keep_going=True, cache=use_cache, misses=misses)
        res.unsafe_fixes = args.unsafe_fixes
        return res

    if args.fix:
        _sweep(_locatable(paths))
    if result is None:
        result = checked()
    else:
        result.unsafe_fixes = args.unsafe_fixes
    if not paths and result.stores:
        say_found(result.stores[0].found, args.quiet)
    if args.diff:
        _say_failures(result)
        return max(_diff(result, args.unsafe_fixes), EXIT_USAGE if result.failures else EXIT_OK)
    if args.fix:
        fixed = _fix(result, args.unsafe_fixes)
        result = checked()
        result.fixed = fixed
    _say_failures(result)
    if args.write_baseline:
        from mmlint import baseline

        n = baseline.write(args.write_baseline, result.stores)
        note(f"recorded {n} finding{'' if n == 1 else 's'} in {args.write_baseline}")
        return EXIT_USAGE if result.failures else EXIT_OK
    if args.baseline:
        from mmlint import baseline

        hidden = baseline.hide(result.stores, args.baseline)
        if hidden:
            note(f"{hidden} finding{'' if hidden == 1 else 's'} hidden by the baseline {args.baseline}")
    status = EXIT_FINDINGS if failing(result.counts(), args.fail_on) and not args.exit_zero else EXIT_OK
    if result.failures:
        status = EXIT_USAGE
        if not result.stores:
            return status  # nothing was checked: no report, only the messages on stderr
    args._status = status
    if args.statistics:
        from mmlint.reporters.statistics import StatisticsReporter

        reporter = StatisticsReporter(as_json=args.format == "json")
    else:
        reporter = reporters.get(args.format)
        reporter.color = args.color
        reporter.quiet = args.quiet
    if not args.output:
        reporter.report(result, sys.stdout, os.getcwd())
    else:
        from mmlint.atomic import text_writer, write_output

        cwd = os.getcwd()
        render = text_writer(lambda stream: reporter.report(result, stream, cwd), errors="backslashreplace")
        try:
            write_output(os.path.abspath(args.output), render)  # as it is made; a failing reporter leaves no half-written file
        except OSError as exc:
            raise api.CheckError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return status


def _check_names(args: argparse.Namespace) -> None:
    """Reject unknown rule selectors and an unknown ``--dialect`` or
    ``--profile`` (a usage error for the whole command, before any store is
    read).

    Raises:
        CheckError: the message names the unknown name and the closest known one.
    """
    from mmlint import rules
    from mmlint.errors import CheckError

    for code in rules.unknown_selectors(codes(args.select) | codes(args.ignore))[:1]:
        from mmlint.suggest import did_you_mean, rule_names

        raise CheckError(f"unknown rule {code!r} in --select/--ignore{did_you_mean(code, rule_names())}; "
                         "'mmlint rules' lists them")
    check_store_options(args)


def _say_failures(result) -> None:
    """One stderr line per PATH that could not be checked (the message names
    it), and each store's warnings."""
    for res in result.stores:
        for text in res.warnings:
            sys.stderr.write(f"mmlint: warning: {text}\n")
    for _, message in result.failures:
        sys.stderr.write(f"mmlint: {message}\n")


def _show_settings(args: argparse.Namespace, paths: list[str], options) -> int:
    """``--show-settings``: what ``check`` would use for each store; exit 0
    (2 when a PATH could not be used)."""
    from mmlint import api
    from mmlint.reporters.settings import SettingsReporter

    results, failures = [], []
    for p in paths or [None]:
        try:
            results += api.configured([p] if p else [], args.dialect, args.profile, options, config=args.config,
                                      isolated=args.isolated)
        except api.CheckError as exc:
            failures.append(exc.shown())
    SettingsReporter(as_json=args.format == "json").report(results, sys.stdout, os.getcwd())
    for message in failures:
        sys.stderr.write(f"mmlint: {message}\n")
    return EXIT_USAGE if failures else EXIT_OK


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


def _locatable(paths: list[str]) -> list:
    """The :class:`mmlint.discover.Found` of each PATH that names a store
    folder (the discovered one without PATHs); the others are reported by
    the check itself."""
    from mmlint import api

    out = []
    for p in paths or [None]:
        try:
            out += api.locate([p] if p else [])
        except api.CheckError:
            pass
    return out


def _sweep(found) -> None:
    """``--fix``: first remove the temporary files a killed ``--fix`` left
    in each store (:func:`mmlint.fixes.sweep`), saying which."""
    from mmlint import fixes
    from mmlint.textutil import safe_path_text

    for f in found:
        for path in fixes.sweep(f.path):
            sys.stderr.write(f"mmlint: removed a killed run's temporary file {safe_path_text(path)}\n")


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
