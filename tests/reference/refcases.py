"""Machinery shared by the reference-case tables.

A :class:`Case` is one numbered behaviour case of a reference implementation
(``../shared/research/engramory-reference.md`` §4, ``mm-reference.md`` §8): what
the reference does, mmlint's verdict on it (``agree``, ``differ`` or ``n/a``)
with the reason, and the probes that test that verdict. A :class:`Probe` is
one store and what ``mmlint check`` must say about it; a case may instead (or
as well) carry a ``run`` function for what a store cannot express (the CLI, a
conversion, a simulated permission error).

The store of a probe is a dict of POSIX relative path -> text, bytes or
``LINK`` (a symlink), built with the same helper as the rule cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from conftest import make_store as build

from mmlint import api, rules

VERDICTS = ("agree", "differ", "n/a")


def _unique(codes: list[str]) -> list[str]:
    """``codes`` without repeats, in first-seen order."""
    out: list[str] = []
    for code in codes:
        if code not in out:
            out.append(code)
    return out


@dataclass(frozen=True)
class Probe:
    """One store and the verdict mmlint must give on it.

    Attributes:
        files: the store (path -> text, bytes or ``LINK``).
        exit: 1 when an error-level finding must appear (the reference's
            ISSUE / exit 1), 0 when none may; ``None``: not asserted.
        must / must_not: rule codes that must / must not appear.
        text / not_text: substrings some message or hint must contain / that
            no message or hint may contain.
        count: rule code -> exact number of findings.
        at: ``(code, path)`` pairs: a finding of that rule at that file.
        dialect, profile: how the store is read (forced, as ``--dialect``).
        caps, ignore: :class:`mmlint.rules.Options` values.
        setup: ``setup(root, monkeypatch)`` run after the files are written.
        inspect: ``inspect(store_result)`` for assertions on what was read.
    """

    files: dict[str, Any]
    exit: int | None = None
    must: tuple[str, ...] = ()
    must_not: tuple[str, ...] = ()
    text: tuple[str, ...] = ()
    not_text: tuple[str, ...] = ()
    count: dict[str, int] = field(default_factory=dict)
    at: tuple[tuple[str, str], ...] = ()
    dialect: str = "engramory"
    profile: str | None = "upstream"
    caps: dict[str, int] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()
    setup: Callable[[Path, Any], None] | None = None
    inspect: Callable[[api.StoreResult], None] | None = None

    def raised(self) -> list[str]:
        """Rule codes the probe asserts present (``must``, ``count``, ``at``)."""
        return _unique(list(self.must) + [c for c, n in self.count.items() if n] + [c for c, _ in self.at])

    def absent(self) -> list[str]:
        """Rule codes the probe asserts absent (``must_not``, a count of 0)."""
        return _unique(list(self.must_not) + [c for c, n in self.count.items() if not n])


def mm(files: dict[str, Any], **kw: Any) -> Probe:
    """A probe read as an mm store."""
    return Probe(files, dialect="mm", profile=None, **kw)


@dataclass(frozen=True)
class Case:
    """One numbered reference case and mmlint's verdict on it.

    Attributes:
        num: the case number in the research digest.
        section: the digest section (``4a``, ``8.1`` ...).
        what: the case, briefly.
        ref: what the reference does.
        verdict: ``agree`` (mmlint gives the reference's verdict),
            ``differ`` (a deliberate, documented difference) or ``n/a`` (the
            case is not about reading or linting).
        why: the reason for ``differ`` / ``n/a``, or how an ``agree`` maps.
        probes: stores and their expected verdicts.
        run: ``run(tmp_path, monkeypatch)`` for checks a probe cannot express.
        rules: codes to name in the docs besides those the probes assert
            (refusal codes of a ``run``).
    """

    num: int
    section: str
    what: str
    ref: str
    verdict: str
    why: str = ""
    probes: tuple[Probe, ...] = ()
    run: Callable[[Path, Any], None] | None = None
    rules: tuple[str, ...] = ()

    @property
    def tested(self) -> bool:
        """Whether the case has a test."""
        return bool(self.probes) or self.run is not None


def check_probe(probe: Probe, root: Path, monkeypatch: Any) -> api.StoreResult:
    """Build the probe's store at ``root``, check it, assert its verdict."""
    build(root, probe.files)
    if probe.setup is not None:
        probe.setup(root, monkeypatch)
    options = rules.Options(ignore=set(probe.ignore), caps=dict(probe.caps))
    res = api.check([str(root)], probe.dialect, probe.profile, options).stores[0]
    diags = res.diagnostics
    codes = [d.code for d in diags]
    shown = "\n".join(f"  {d.span.path}:{d.span.line} {d.code} {d.severity} {d.message}" for d in diags)
    errors = any(d.severity == rules.ERROR for d in diags)
    if probe.exit is not None:
        assert int(errors) == probe.exit, f"expected exit {probe.exit}, got {int(errors)}:\n{shown}"
    for code in probe.must:
        assert code in codes, f"{code} missing:\n{shown}"
    for code in probe.must_not:
        assert code not in codes, f"{code} present:\n{shown}"
    said = [d.message for d in diags] + [d.hint for d in diags if d.hint]
    for s in probe.text:
        assert any(s in m for m in said), f"no message contains {s!r}:\n{shown}"
    for s in probe.not_text:
        assert not any(s in m for m in said), f"a message contains {s!r}:\n{shown}"
    for code, n in probe.count.items():
        assert codes.count(code) == n, f"{code} found {codes.count(code)} times, expected {n}:\n{shown}"
    for code, path in probe.at:
        assert (code, path) in {(d.code, d.span.path) for d in diags}, f"no {code} at {path}:\n{shown}"
    if probe.inspect is not None:
        probe.inspect(res)
    return res


def run_case(case: Case, tmp_path: Path, monkeypatch: Any) -> None:
    """Run every probe of ``case`` (each in its own folder), then its ``run``."""
    for i, probe in enumerate(case.probes):
        with monkeypatch.context() as mp:
            check_probe(probe, tmp_path / f"store{i}", mp)
    if case.run is not None:
        case.run(tmp_path / "run", monkeypatch)


def validate_table(cases: list[Case], numbers: Iterable[int]) -> None:
    """Assert that ``cases`` holds each number of ``numbers`` once, with a
    known verdict, a reason for every ``differ`` / ``n/a``, and a test for
    every ``agree`` / ``differ``."""
    nums = [c.num for c in cases]
    assert sorted(nums) == list(numbers), "cases missing or repeated"
    for c in cases:
        assert c.verdict in VERDICTS, f"case {c.num}: verdict {c.verdict!r}"
        if c.verdict != "agree":
            assert c.why, f"case {c.num}: {c.verdict} needs a reason"
        if c.verdict != "n/a":
            assert c.tested, f"case {c.num}: {c.verdict} needs a probe or a run"
