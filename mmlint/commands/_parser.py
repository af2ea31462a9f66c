"""The :class:`argparse.ArgumentParser` of the ``mmlint`` command line
(:func:`mmlint.cli.build_parser` builds it; a run of ``--version`` never
imports this module, nor argparse)."""

from __future__ import annotations

import argparse
import re
import sys

from mmlint.commands import EXIT_USAGE

#: Patterns of argparse's messages, for the "did you mean" (compiled on an error only).
_UNRECOGNIZED = r"unrecognized arguments: (\S+)"
_CHOICE = r"invalid choice: '([^']*)' \(choose from (.*)\)$"


class Parser(argparse.ArgumentParser):
    """mmlint's argument parser: a usage error exits with status 2 and a
    "did you mean" for a mistyped flag or choice; building it asks no
    terminal width (only ``--help`` and errors are formatted for one)."""

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

    def parse_args(self, args=None, namespace=None):  # noqa: D401 - argparse API
        # argparse reports an unknown flag with the usage of the top-level parser
        # (``usage: mmlint [-h] [--version] COMMAND ...``); the command's own says what it takes
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            (self._chosen(ns) or self).error("unrecognized arguments: " + " ".join(extras))
        return ns

    def _chosen(self, ns: argparse.Namespace) -> argparse.ArgumentParser | None:
        """The subcommand parser ``ns`` names, if any."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return action.choices.get(getattr(ns, action.dest, None))
        return None

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
            # a parser built for one command holds no other: ask a full one
            from mmlint.cli import build_parser

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
