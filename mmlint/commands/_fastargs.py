"""The common command lines parsed without argparse (issue 9 item 8).

Importing :mod:`argparse` (with :mod:`gettext` and :mod:`locale`) and
building a command's parser cost a cold ``mmlint check`` ~4 ms, a tenth of
what the doctor takes for a whole small store. Most command lines are plain:
the command, exact ``--flag``, ``--option VALUE`` or ``--option=VALUE``
tokens and one run of paths. :func:`parse` reads those and returns what
argparse would; for anything else it returns ``None`` and the caller builds
the argparse parser (help, errors and their "did you mean", abbreviations,
``--``, values that look like options, ...).

The options are not written down twice: :func:`parse` calls the command's
own ``configure(parser)`` with a recorder in place of the parser, so it
knows exactly the arguments argparse is given. A ``configure`` that uses
anything but the plain forms below (another method, ``type=``, ``nargs``
on an option, another action) makes that command argparse-only.

``tests/test_fastargs.py`` holds :func:`parse` to argparse: on generated
command lines it gives either ``None`` or argparse's very namespace.
"""

from __future__ import annotations

from types import SimpleNamespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ``add_argument`` keywords the recorder understands (``help``/``metavar`` only document).
_KEYWORDS = frozenset({"action", "default", "choices", "help", "metavar", "dest"})


class Unsupported(Exception):
    """``configure`` used something :func:`parse` does not read."""


class _Option:
    """One recorded optional argument: its ``dest``, whether it takes a
    value (``store``) or not (``store_true``), and its ``choices``."""

    __slots__ = ("dest", "takes_value", "choices")

    def __init__(self, dest: str, takes_value: bool, choices: tuple | None) -> None:
        self.dest = dest
        self.takes_value = takes_value
        self.choices = choices


class Recorder:
    """Stands for an :class:`argparse.ArgumentParser` while a command's
    ``configure`` runs, and records its arguments.

    Attributes:
        options: option string (``"--format"``, ``"-q"``) -> :class:`_Option`.
        positional: ``dest`` of the one ``nargs="*"`` positional, or ``None``.
        defaults: ``(dest, default)`` of every argument, in the order added
            (the namespace argparse starts from).
    """

    def __init__(self) -> None:
        self.options: dict[str, _Option] = {}
        self.positional: str | None = None
        self.defaults: list[tuple[str, Any]] = []

    def add_argument(self, *flags: str, **kwargs: Any) -> None:
        """Record one argument; raises :class:`Unsupported` for a form
        :func:`parse` does not read."""
        positional = len(flags) == 1 and not flags[0].startswith("-")
        if positional:
            if self.positional is not None or set(kwargs) - {"nargs", "help", "metavar"} or kwargs.get("nargs") != "*":
                raise Unsupported(flags)
            self.positional = flags[0]
            self.defaults.append((flags[0], []))
            return
        action = kwargs.get("action", "store")
        if not flags or any(not f.startswith("-") or f in ("-", "--") for f in flags) or set(kwargs) - _KEYWORDS \
                or action not in ("store", "store_true") or (action == "store_true" and "choices" in kwargs):
            raise Unsupported(flags)
        dest = kwargs.get("dest") or _dest(flags)
        choices = kwargs.get("choices")
        option = _Option(dest, action == "store", tuple(choices) if choices is not None else None)
        for f in flags:
            if f in self.options:
                raise Unsupported(flags)
            self.options[f] = option
        self.defaults.append((dest, kwargs.get("default", False if action == "store_true" else None)))

    def __getattr__(self, name: str) -> Any:
        # add_mutually_exclusive_group, set_defaults, ...: argparse's alone
        raise Unsupported(name)


def _dest(flags: tuple[str, ...]) -> str:
    """argparse's ``dest`` for option strings: the first long one, else the
    first, without its dashes, ``-`` turned into ``_``."""
    long = [f for f in flags if f.startswith("--")]
    return (long[0] if long else flags[0]).lstrip("-").replace("-", "_")


def record(module: Any) -> Recorder | None:
    """The arguments ``module.configure`` adds, or ``None`` when it uses a
    form :func:`parse` does not read."""
    rec = Recorder()
    try:
        module.configure(rec)
    except Unsupported:
        return None
    return rec


def parse(argv: list[str], commands: dict[str, str], load: Any) -> SimpleNamespace | None:
    """argparse's namespace for ``argv`` (``mmlint``'s arguments, command
    first), or ``None`` when ``argv`` is not a plain command line.

    Plain: ``argv[0]`` a command of ``commands`` (loaded with ``load``) whose
    ``configure`` :func:`record` reads; every other token an exact option
    string of that command (``--option VALUE`` with a value that does not
    start with ``-``, or ``--option=VALUE`` with a non-empty one that does
    not; a value among the option's choices when it has them), or a path
    that does not start with ``-``, all paths in one run.
    """
    if not argv or not all(isinstance(a, str) for a in argv) or argv[0] not in commands:
        return None
    rec = record(load(argv[0]))
    if rec is None:
        return None
    values: dict[str, Any] = {"command": argv[0]}
    values.update(rec.defaults)
    paths: list[str] = []
    run = 0  # 0: no path yet, 1: in the run of paths, 2: after it
    i, n = 1, len(argv)
    while i < n:
        token = argv[i]
        i += 1
        if not token.startswith("-"):
            if rec.positional is None or run == 2:
                return None
            run = 1
            paths.append(token)
            continue
        if run == 1:
            run = 2
        option = rec.options.get(token)
        if option is not None and not option.takes_value:
            values[option.dest] = True
            continue
        if option is not None:
            if i >= n or argv[i].startswith("-"):
                return None
            value = argv[i]
            i += 1
        else:
            name, eq, value = token.partition("=")
            option = rec.options.get(name) if eq and name.startswith("--") else None
            if option is None or not option.takes_value or not value or value.startswith("-"):
                return None
        if option.choices is not None and value not in option.choices:
            return None
        values[option.dest] = value
    if rec.positional is not None:
        values[rec.positional] = paths
    return SimpleNamespace(**values)
