"""The subcommands of ``mmlint``: one module each, registered by name.

:data:`COMMANDS` maps a command name to its module path, in the order
``mmlint --help`` lists them. A command module has:

- ``HELP``: the one-line help shown by ``mmlint --help``;
- ``configure(parser)``: adds the command's arguments to its
  :class:`argparse.ArgumentParser` (imports nothing heavy);
- ``run(args) -> int``: does the work with the parsed arguments and
  returns the exit status; raises :class:`mmlint.errors.CheckError` for a
  usage error (exit 2). ``args`` is argparse's :class:`argparse.Namespace`,
  or, for a plain command line that :mod:`mmlint.commands._fastargs` reads
  without argparse, a :class:`types.SimpleNamespace` of the very same values.

Adding a command = adding one module and one line here; :mod:`mmlint.cli`
only builds the parser from this table and hands over.
"""

import sys

TYPE_CHECKING = False  # ``--version`` imports no argparse
if TYPE_CHECKING:
    import argparse
    from types import ModuleType

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

#: command name -> module path (``mmlint --help`` order).
COMMANDS: dict[str, str] = {
    "detect": "mmlint.commands.detect",
    "check": "mmlint.commands.check",
    "budget": "mmlint.commands.budget",
    "rules": "mmlint.commands.rules",
    "rule": "mmlint.commands.rule",
    "schema": "mmlint.commands.schema",
    "convert": "mmlint.commands.convert",
    "dump": "mmlint.commands.dump",
    "stores": "mmlint.commands.stores",
    "merge": "mmlint.commands.merge",
    "merge-driver": "mmlint.commands.merge_driver",
}


def load(name: str) -> "ModuleType":
    """The module of command ``name`` (a key of :data:`COMMANDS`).

    Raises:
        KeyError: unknown command.
    """
    module = COMMANDS[name]
    __import__(module)  # importlib.import_module for an absolute name, without importing importlib (--version)
    return sys.modules[module]


def add_store_options(p: "argparse.ArgumentParser", profile_help: str = "engramory profile (overrides detection)") -> None:
    """``--dialect`` and ``--profile``, as every store-reading command takes them."""
    p.add_argument("--dialect", help="dialect of the store: mm, engramory, workspace (overrides detection)")
    p.add_argument("--profile", help=profile_help)


def add_config_options(p: "argparse.ArgumentParser") -> None:
    """``--config FILE`` and ``--isolated`` (see :mod:`mmlint.config`)."""
    p.add_argument("--config", metavar="FILE", help="read this configuration file only (default: the nearest "
                   ".mmlint.toml, mmlint.toml or pyproject.toml [tool.mmlint] in or above each store)")
    p.add_argument("--isolated", action="store_true", help="read no configuration file")


def add_color_option(p: "argparse.ArgumentParser") -> None:
    """``--color auto|always|never`` (see :func:`mmlint.reporters.use_color`)."""
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text output: auto (a terminal, unless NO_COLOR is set or FORCE_COLOR forces it), "
                        "always, never (default: auto)")


def check_store_options(args: "argparse.Namespace") -> None:
    """Reject an unknown ``--dialect`` or ``--profile`` before any store is
    read: a usage error for the whole command, not for one PATH.

    Raises:
        CheckError: the message lists the known names (and the closest one).
    """
    from mmlint import dialects
    from mmlint.errors import CheckError

    try:
        if args.dialect is not None:
            dialects.check_profile(args.dialect, args.profile)
        elif args.profile is not None and not any(args.profile in dialects.get(n).PROFILES for n in dialects.BUILTIN) \
                and not any(args.profile in dialects.get(n).PROFILES for n in dialects.names()):
            # built-ins first: a known profile costs no package-metadata scan
            from mmlint.suggest import did_you_mean

            known = sorted({p for n in dialects.names() for p in dialects.get(n).PROFILES})
            raise CheckError(f"unknown profile {args.profile!r}{did_you_mean(args.profile, known)}; profiles: {', '.join(known)}")
    except dialects.UnknownDialect as exc:
        raise CheckError(str(exc)) from None


def say_found(found, explicit: bool) -> None:
    """Tell on stderr which store discovery chose (nothing when the user named it)."""
    if not explicit:
        from mmlint.textutil import printable

        sys.stderr.write(f"mmlint: using {printable(found.path)} ({found.how})\n")


def codes(text: str) -> set[str]:
    """The comma-separated items of ``text``, stripped, empty ones dropped."""
    return {c.strip() for c in text.split(",") if c.strip()}
