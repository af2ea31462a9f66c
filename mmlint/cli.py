"""The ``mmlint`` command line: parse arguments and hand over to the command.

Each subcommand is one module of :mod:`mmlint.commands` (its arguments and
its ``run``); this module only builds the parser from
:data:`mmlint.commands.COMMANDS`, calls the command, and turns a
:class:`mmlint.errors.CheckError` into a one-line message.

Exit status: 0 no errors (or a conversion written / planned), 1 findings at
error level (or a conversion refused), 2 usage error or a store that could
not be checked, 130 interrupted (Ctrl-C: one line on stderr, no traceback).
A mistyped flag or choice gets a "did you mean" (:mod:`mmlint.suggest`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Sequence

from mmlint import __version__
from mmlint.commands import COMMANDS, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, load  # noqa: F401 - re-exported

__all__ = ["EXIT_FINDINGS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

#: Patterns of argparse's messages, for the "did you mean" (compiled on an error only).
_UNRECOGNIZED = r"unrecognized arguments: (\S+)"
_CHOICE = r"invalid choice: '([^']*)' \(choose from (.*)\)$"


class _Parser(argparse.ArgumentParser):
    _checking = False

    def add_argument(self, *args, **kwargs):  # noqa: D401 - argparse API
        # argparse formats each new argument once to check its metavar; that
        # formatter needs no terminal width (``shutil`` and its compression
        # modules, ~2 ms, and a terminal query per argument)
        return self._unsized(super().add_argument, *args, **kwargs)

    def add_subparsers(self, **kwargs):  # noqa: D401 - argparse API
        # the same for the subcommands' ``prog`` prefix: ``mmlint``, at any width
        return self._unsized(super().add_subparsers, **kwargs)

    def _unsized(self, build, *args, **kwargs):
        self._checking = True
        try:
            return build(*args, **kwargs)
        finally:
            self._checking = False

    def _get_formatter(self):  # noqa: D401 - argparse API
        if self._checking:
            return self.formatter_class(prog=self.prog, width=80)
        return super()._get_formatter()

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mmlint: error: {message}{self._suggestion(message)}\n")
        raise SystemExit(EXIT_USAGE)

    def _suggestion(self, message: str) -> str:
        """"did you mean" for an unknown flag (any subcommand's) or choice."""
        from mmlint.suggest import did_you_mean

        m = re.search(_CHOICE, message)
        if m:
            return did_you_mean(m.group(1), re.findall(r"'([^']*)'", m.group(2)))
        m = re.search(_UNRECOGNIZED, message)
        if m and m.group(1).startswith("-"):
            # a parser built for one command lists the others unconfigured: ask a full one
            return did_you_mean(m.group(1).split("=", 1)[0], _option_strings(build_parser() if self.prog == "mmlint" else self))
        return ""


def _option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every ``--flag`` of ``parser`` and of its subcommands."""
    out = []
    for action in parser._actions:  # argparse keeps no public list
        out += [o for o in action.option_strings if o.startswith("--")]
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out += _option_strings(sub)
    return sorted(set(out))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (also used to document the CLI): one subparser per
    entry of :data:`mmlint.commands.COMMANDS`, configured by its module.

    ``only`` (a command name) builds that command's subparser alone: what a
    run of that command needs (its ``--help``, its errors), at a fraction of
    the start-up cost. An unknown flag's "did you mean" builds the full
    parser (:meth:`_Parser._suggestion`)."""
    parser = _Parser(prog="mmlint", description="Read, lint and convert agent memory stores.")
    parser.add_argument("--version", action="version", version=f"mmlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        if only is not None and name != only:
            continue
        module = load(name)
        module.configure(sub.add_parser(name, help=module.HELP))
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # the commonest probe: answer before building any parser
        sys.stdout.write(f"mmlint {__version__}\n")
        return EXIT_OK
    _tolerant_streams()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        sys.stderr.write("mmlint: interrupted\n")
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    argv = list(argv if argv is not None else sys.argv[1:])
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    from mmlint.errors import CheckError

    try:
        return load(args.command).run(args)
    except CheckError as exc:
        sys.stderr.write(f"mmlint: {exc.shown()}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (``| head``): say nothing more, and do not claim success
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return getattr(args, "_status", EXIT_USAGE)
