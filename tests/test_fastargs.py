"""The argparse-free parse of plain command lines (:mod:`mmlint.commands._fastargs`)
gives argparse's namespace or nothing: held to argparse on generated command
lines of every command it reads."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmlint import cli
from mmlint.commands import COMMANDS, _fastargs, load

FAST = [name for name in COMMANDS if _fastargs.record(load(name)) is not None]


def _argparse(argv: list[str]) -> dict | None:
    """argparse's namespace for ``argv`` as a dict, ``None`` when it exits (an error, ``--help``)."""
    parser = cli.build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(parser.parse_args(argv))
        except SystemExit:
            return None


def _fast(argv: list[str]) -> dict | None:
    got = _fastargs.parse(argv, COMMANDS, load)
    return None if got is None else vars(got)


def _tokens(name: str) -> st.SearchStrategy[str]:
    """Tokens of a ``name`` command line: its option strings (whole, cut short,
    with ``=value``), choices, paths, and strings argparse reads its own way."""
    rec = _fastargs.record(load(name))
    options = sorted(rec.options)
    choices = sorted({c for o in rec.options.values() for c in (o.choices or ())})
    words = ["a", "b/c", "check", ".", "", " ", "x y", "-", "--", "-x", "--nope", "-h", "--help", "-1", "--no", "=",
             "-q-", "--format=", "--=json"]
    plain = st.sampled_from(options + choices + words) | st.text(alphabet="ab-=. ", max_size=6)
    cut = st.sampled_from(options).flatmap(lambda o: st.integers(2, max(2, len(o) - 1)).map(lambda k: o[:k]))
    eq = st.tuples(st.sampled_from(options), st.sampled_from(choices + words) | st.text(alphabet="ab-=", max_size=4)) \
        .map(lambda t: f"{t[0]}={t[1]}")
    return st.one_of(plain, plain, cut, eq)


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fast_parse_is_argparse_or_nothing(name, data):
    argv = [name] + data.draw(st.lists(_tokens(name), max_size=7))
    fast = _fast(argv)
    if fast is not None:
        assert fast == _argparse(argv), argv


@st.composite
def _well_formed(draw, name: str) -> list[str]:
    """A ``name`` command line of exact options with valid values and one run
    of paths somewhere among them: what a user or a hook writes."""
    rec = _fastargs.record(load(name))
    value = st.text(alphabet="abc/.,_ ", max_size=5).filter(lambda v: not v.startswith("-"))
    parts = []
    for flag in draw(st.lists(st.sampled_from(sorted(rec.options)), max_size=6)):
        option = rec.options[flag]
        if not option.takes_value:
            parts.append([flag])
            continue
        v = draw(st.sampled_from(option.choices) if option.choices else value)
        parts.append([f"{flag}={v}"] if v and draw(st.booleans()) else [flag, v])
    if rec.positional is not None:
        paths = draw(st.lists(st.text(alphabet="ab/. ", min_size=1, max_size=4).filter(lambda v: not v.startswith("-")),
                              max_size=3))
        parts.insert(draw(st.integers(0, len(parts))), paths)
    return [name] + [t for part in parts for t in part]


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_well_formed_command_lines_are_parsed_as_argparse_does(name, data):
    argv = data.draw(_well_formed(name))
    fast = _fast(argv)
    assert fast is not None and fast == _argparse(argv), argv


@pytest.mark.parametrize("argv", [
    ["check"], ["check", "."], ["check", "--no-cache", "--format", "json", "--profile", "upstream", "/tmp/s"],
    ["check", "a", "b", "--format=json", "-q"], ["check", "--select", "", "--ignore", "P1,H", "x"],
    ["check", "--fail-on", "warning", "--color", "never", "--format", "text", "s", "--no-cache"],
    ["rules", "--format", "json"], ["stores", "--home", "h"],
])
def test_common_command_lines_are_parsed_without_argparse(argv):
    fast = _fast(argv)
    assert fast is not None and fast == _argparse(argv)


@pytest.mark.parametrize("argv", [
    ["check", "--help"], ["check", "-h"], ["check", "--no-cach"], ["check", "--format", "yaml"], ["check", "--", "-a"],
    ["check", "a", "--no-cache", "b"], ["check", "--output"], ["check", "--select", "-x"], ["check", "--fix=1"],
    ["check", "-"], ["bogus"], [], ["--version"], ["convert", "a", "b"],
])
def test_other_command_lines_go_to_argparse(argv):
    assert _fast(argv) is None


def test_a_form_the_recorder_does_not_read_makes_the_command_argparse_only():
    class Module:
        @staticmethod
        def configure(p):
            p.add_argument("--n", type=int)

    class Group:
        @staticmethod
        def configure(p):
            p.add_mutually_exclusive_group()

    assert _fastargs.record(Module) is None and _fastargs.record(Group) is None
    assert "check" in FAST  # the command a commit hook runs

