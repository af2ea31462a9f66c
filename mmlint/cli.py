"""The ``mmlint`` command line: parse arguments and hand over to the command.

Each subcommand is one module of :mod:`mmlint.commands` (its arguments and
its ``run``); this module only parses (a plain command line through
:mod:`mmlint.commands._fastargs`, anything else with the argparse parser it
builds from :data:`mmlint.commands.COMMANDS`), calls the command, and turns
a :class:`mmlint.errors.CheckError` into a one-line message.

Exit status: 0 no errors (or a conversion written / planned), 1 findings at
error level (or a conversion refused), 2 usage error or a store that could
not be checked, 130 interrupted (Ctrl-C: one line on stderr, no traceback).
A mistyped flag or choice gets a "did you mean" (:mod:`mmlint.suggest`).
"""

import os
import sys

from mmlint import __version__
from mmlint.commands import COMMANDS, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, load  # noqa: F401 - re-exported

__all__ = ["EXIT_FINDINGS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main", "script"]

TYPE_CHECKING = False  # ``--version`` imports neither typing nor argparse (:mod:`mmlint.commands._parser`)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

def build_parser(only: str | None = None) -> "argparse.ArgumentParser":
    """The argument parser (also used to document the CLI): one subparser per
    entry of :data:`mmlint.commands.COMMANDS`, configured by its module.

    ``only`` (a command name) builds that command's subparser alone: what a
    run of that command needs (its ``--help``, its errors), at a fraction of
    the start-up cost. An unknown flag's "did you mean" builds the full
    parser (:meth:`mmlint.commands._parser.Parser.error`)."""
    from mmlint.commands._parser import Parser

    parser = Parser(prog="mmlint", description="Read, lint and convert agent memory stores.")
    parser.add_argument("--version", action="version", version=f"mmlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
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


def _closed_streams() -> None:
    """A process started with stdout or stderr closed (``mmlint check >&-``)
    has ``None`` for it: what would be written there goes nowhere, as into
    a closed pipe, and the exit status is the command's (it was a
    traceback and exit 1)."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115  (the process's own stream)


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the CLI; returns the exit status.

    Without ``argv`` it runs this process's own command line (the console
    script, ``python -m mmlint``), and the process ends with it: see
    :func:`_freeze_at_exit`. A caller that passes ``argv`` keeps its process
    as it was."""
    own = argv is None
    if own:
        _closed_streams()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # the commonest probe: answer before building any parser
        sys.stdout.write(f"mmlint {__version__}\n")
        return EXIT_OK
    if own:
        _freeze_at_exit()
    _tolerant_streams()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        sys.stderr.write("mmlint: interrupted\n")
        return EXIT_INTERRUPTED
    except RuntimeError as exc:
        if not _from_ctrl_c(exc):
            raise
        sys.stderr.write("mmlint: interrupted\n")
        return EXIT_INTERRUPTED
    finally:
        if own:
            _done_with_ctrl_c()


def script() -> None:
    """The process's own entry point (the ``mmlint`` console script and
    ``python -m mmlint``): run :func:`main` on this process's command line,
    then end the process with its exit status (:func:`_end`)."""
    _end(main())


def _end(status: int) -> None:
    """End this process with ``status`` the way interpreter shutdown would,
    minus the tearing down of every module and object the command built
    (~10 % of a cold check of 200 notes, all deallocation): the ``atexit``
    handlers run, stdout and stderr are flushed, then :func:`os._exit`.
    Every file mmlint writes is closed by then (``with`` blocks).

    The normal exit (:func:`sys.exit`) is kept when something needs it: a
    non-daemon thread still running (shutdown joins it), ``python -i``, a
    profiler or tracer (``python -m cProfile -o F -m mmlint``, a debugger,
    coverage: they write their results after the command returns), or
    a flush that fails (a closed pipe: shutdown reports it and exits 120,
    as before)."""
    threading = sys.modules.get("threading")
    if sys.flags.inspect or sys.getprofile() is not None or sys.gettrace() is not None or (threading is not None and any(
            not t.daemon and t is not threading.main_thread() for t in threading.enumerate())):
        sys.exit(status)
    import atexit

    atexit._run_exitfuncs()  # what shutdown runs; they are cleared, so a fallback below does not repeat them
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:
        sys.exit(status)
    os._exit(status)


def _from_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by a Ctrl-C: a ``KeyboardInterrupt`` that
    lands while a class is being created (in a descriptor's
    ``__set_name__``, e.g. a dataclass field) reaches us as the cause of a
    ``RuntimeError``, not as itself (found by the SIGINT kill campaign)."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _done_with_ctrl_c() -> None:
    """The command has ended and the process ends with it: a Ctrl-C from
    here on changes nothing, so it is ignored. Without this, one landing in
    the interpreter's shutdown (``threading._shutdown``) printed "Exception
    ignored in: <module 'threading'>" and a traceback after a convert that
    had finished (found by the kill tests). ``_signal``: :mod:`signal`
    without its enums."""
    try:
        import _signal

        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    except (ImportError, ValueError, OSError):  # no signals here, or not the main thread
        pass


def _freeze_at_exit() -> None:
    """Have interpreter exit skip its last garbage collection over what the
    command built: at exit, before that collection, every tracked object
    moves to the collector's permanent generation (:func:`gc.freeze`), which
    no collection examines. The store and the modules hold no garbage cycles
    (see :func:`_main`), files are closed and the standard streams flushed
    as on any exit; only the pass over every object goes (~10 % of a cold
    check of 200 notes)."""
    import atexit
    import gc

    atexit.register(gc.freeze)


def _main(argv: "Sequence[str] | None") -> int:
    import gc

    # A command is one short process: the modules it imports and the store it
    # reads live until it ends and hold no garbage cycles worth a collection
    # (mmlint.gcpause). The collector stays off for the whole command, from
    # the imports on (~3 % of a cold check of 200 notes), and is restored for
    # a caller of main().
    was = gc.isenabled()
    gc.disable()
    hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    try:
        return _command(argv)
    finally:
        sys.unraisablehook = hook
        if was:
            gc.enable()


def _unraisable(unraisable: "object") -> None:
    """``sys.unraisablehook`` during a command. A Ctrl-C that lands in a
    callback Python runs for itself (the import system's module-lock
    cleanup, a finaliser) cannot be raised there: Python printed "Exception
    ignored in ..." with a traceback and went on as if no key had been
    pressed. The interrupt is delivered again, to be raised where the
    command handles it (``convert`` says what DST holds, exit 2); anything
    else goes to Python's own hook."""
    kind = getattr(unraisable, "exc_type", None)
    if kind is not None and issubclass(kind, KeyboardInterrupt):
        import signal

        signal.raise_signal(signal.SIGINT)
        return
    sys.__unraisablehook__(unraisable)


def _command(argv: "Sequence[str] | None") -> int:
    argv = list(argv if argv is not None else sys.argv[1:])
    from mmlint.commands import _fastargs

    # a plain command line needs no argparse (~4 ms with building the parser);
    # anything else (help, errors, abbreviations, ...) goes to argparse
    args = _fastargs.parse(argv, COMMANDS, load)
    if args is None:
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
