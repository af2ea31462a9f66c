"""A check result of thousands of diagnostics, for the reporters' memory tests."""

from __future__ import annotations

import copy

from conftest import make_store

NOTE = "---\nname: n{i}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nsee [[gone-{i}]]\n"


class Result:
    """A :class:`mmlint.api.CheckResult` of other stores (its ``counts``)."""

    def __init__(self, stores, counts):
        self.stores = stores
        self._counts = counts

    def counts(self):
        return self._counts(self)


def many_diagnostics(tmp_path, n: int = 4000, notes: int = 1) -> Result:
    """At least ``n`` diagnostics: a store of ``notes`` notes, each with a
    dangling wikilink, checked, its diagnostics repeated."""
    from mmlint import api

    files = {"MEMORY.md": "# Memory Index\n"}
    files.update({f"n{i}.md": NOTE.format(i=i) for i in range(notes)})
    res = api.check([str(make_store(tmp_path / "s", files))], profile="upstream")
    store = copy.copy(res.stores[0])
    store.diagnostics = store.diagnostics * (n // len(store.diagnostics) + 1)
    return Result([store], type(res).counts)


class Sink:
    """A text stream that counts what it is given and keeps it only when asked."""

    def __init__(self, keep: bool = False):
        self.parts: list[str] = []
        self.size = 0
        self.keep = keep

    def write(self, text: str) -> None:
        self.size += len(text)
        if self.keep:
            self.parts.append(text)
