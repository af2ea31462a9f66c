"""Coverage-guided fuzz targets (atheris), one per reader, plus ``all``
(the reader chosen by the input's first byte).

A target turns raw bytes into a small store with
:class:`atheris.FuzzedDataProvider` (an index, a note with a name the
input picks, an mm detail file) and runs :func:`fuzzing.check_reader` on
it: reader, rules and same-dialect writer. An exception is a crash; a
broken property raises ``AssertionError``. Run one with
``python scripts/fuzz.py --atheris READER --seconds N``; ``test_atheris.py``
runs ``all`` for a bounded number of inputs when atheris is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzing  # noqa: E402

NAMES = ["a.md", "user_a.md", "reference-a.md", "a\nb.md", "x\x1b[1m.md", "中文.md", "sub/a.md", "README.md"]
COUNT = {"inputs": 0}


def store_of(data: bytes) -> dict[str, bytes]:
    """The store the bytes ``data`` describe (deterministic)."""
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    files = {}
    if fdp.ConsumeBool():
        files["MEMORY.md"] = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4096))
    files[NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)]] = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4096))
    if fdp.ConsumeBool():
        files["memories/a.md"] = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 2048))
    rest = fdp.ConsumeBytes(fdp.remaining_bytes())
    if rest:
        files["MEMORY.md"] = files.get("MEMORY.md", b"") + rest
    return files


def _target(dialect: str, profile: str | None):
    def run(data: bytes) -> None:
        COUNT["inputs"] += 1
        bad, _ = fuzzing.check_reader(store_of(data), dialect, profile)
        if bad:
            raise AssertionError(bad[:3])
    return run


TARGETS = {f"{d}/{p}" if p else d: _target(d, p) for d, p in fuzzing.READERS}


def _all(data: bytes) -> None:
    if not data:
        return
    name = sorted(TARGETS)[data[0] % len(TARGETS)]
    TARGETS[name](data[1:])


TARGETS["all"] = _all


if __name__ == "__main__":
    import atheris

    target = TARGETS[sys.argv[1]]
    target(b"\x00" * 64)  # load the lazily imported modules (rules, markdown-it) first
    target(b"\x01---\nname: a\n---\n- [a](a.md)\n## t\n- **file:** x\n" * 4)
    atheris.instrument_all()  # coverage feedback from mmlint and its libraries
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    atheris.Fuzz()
