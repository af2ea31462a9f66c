"""The hostile-store catalogue: one small store per attack, each the minimal
input that showed a defect (issue 11), shared by the regression tests
(``test_hostile_cases.py``) and the audit-hook run (``audit_run.py``).

``build(name, root, outside)`` writes case ``name`` at ``root``; ``outside``
is a folder beside the root holding ``secret.md`` and ``secret.toml`` that no
command may open. Each case lists the command-line arguments it is checked
with and the rule codes it must report.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

NOTE = "---\nname: {n}\ndescription: d\ntype: user\n---\nbody\n"
MM_INDEX = "# MEMORY.md\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: index\n\n## a\n- **summary:** s\n- **file:** memories/a.md\n"
MM_NOTE = "# a\n\n> mm-id: local\n> mm-topic: a\n\nhello\n"


@dataclass
class Case:
    """One hostile store: ``make(root, outside)`` writes it; it is checked
    with ``args`` (after the store path) and must report every code in
    ``codes`` (exit status ``status``)."""

    make: Callable[[Path, Path], None]
    args: tuple[str, ...] = ()
    codes: frozenset[str] = frozenset()
    status: tuple[int, ...] = (0, 1)
    fix: bool = True  # also run with --fix --unsafe-fixes
    notes: list[str] = field(default_factory=list)


def _files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        p = root.joinpath(*rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content)


def _eng(root: Path, extra: dict[str, str | bytes] | None = None) -> None:
    _files(root, {"MEMORY.md": "# Memory Index\n\n- [A](a.md) — hook\n", "a.md": NOTE.format(n="a"), **(extra or {})})


def _mm(root: Path, extra: dict[str, str | bytes] | None = None) -> None:
    _files(root, {"MEMORY.md": MM_INDEX, "memories/a.md": MM_NOTE, **(extra or {})})


def fifo_in_memories(root: Path, outside: Path) -> None:
    _mm(root)
    os.mkfifo(root / "memories" / "b.md")


def stdin_link_in_memories(root: Path, outside: Path) -> None:
    _mm(root)
    os.symlink("/dev/stdin", root / "memories" / "b.md")


def fifo_index(root: Path, outside: Path) -> None:
    root.mkdir(parents=True)
    _files(root, {"a.md": NOTE.format(n="a")})
    os.mkfifo(root / "MEMORY.md")


def socket_note(root: Path, outside: Path) -> None:
    _eng(root)
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(root / "b.md"))
    except OSError:  # path too long for a socket address: a FIFO stands in
        os.mkfifo(root / "b.md")
    finally:
        s.close()


def dev_zero_note(root: Path, outside: Path) -> None:
    _eng(root)
    os.symlink("/dev/zero", root / "b.md")


def index_link_outside(root: Path, outside: Path) -> None:
    root.mkdir(parents=True)
    _files(root, {"a.md": NOTE.format(n="a")})
    os.symlink(outside / "secret.md", root / "MEMORY.md")


def note_link_outside(root: Path, outside: Path) -> None:
    _eng(root)
    os.symlink(outside / "secret.md", root / "b.md")


def memories_link_outside(root: Path, outside: Path) -> None:
    root.mkdir(parents=True)
    _files(root, {"MEMORY.md": MM_INDEX})
    os.symlink(outside, root / "memories")


def config_extends_absolute(root: Path, outside: Path) -> None:
    _eng(root, {".mmlint.toml": f'extend = "{outside / "secret.toml"}"\n'})


def config_extends_etc_passwd(root: Path, outside: Path) -> None:
    _eng(root, {".mmlint.toml": 'extend = "/etc/passwd"\n'})


def config_extends_up(root: Path, outside: Path) -> None:
    _eng(root, {".mmlint.toml": f'extend = "../{outside.name}/secret.toml"\n'})


def config_link_outside(root: Path, outside: Path) -> None:
    _eng(root)
    os.symlink(outside / "secret.toml", root / ".mmlint.toml")


def carrier_list_slug(root: Path, outside: Path) -> None:
    _files(root, {"MEMORY.md": MM_INDEX + '- **mmlint-slug:** ["a"]\n', "memories/a.md": MM_NOTE})


def carrier_mapping_type(root: Path, outside: Path) -> None:
    _eng(root, {"b.md": "---\nname: b\ndescription: d\ntype: user\nmmlint-type: {a: 1}\n---\nx\n",
                "MEMORY.md": "# Memory Index\n\n- [A](a.md) — hook\n- [B](b.md) — hook\n"})


def carrier_lone_surrogate(root: Path, outside: Path) -> None:
    _files(root, {"MEMORY.md": MM_INDEX + '- **mmlint-title:** "\\ud800"\n- **mmlint-extra-k:** {"\\udfff": 1}\n',
                  "memories/a.md": MM_NOTE})


def carrier_scalar_aliases(root: Path, outside: Path) -> None:
    _files(root, {"MEMORY.md": MM_INDEX + '- **mmlint-aliases:** "x"\n- **mmlint-category:** [1]\n',
                  "memories/a.md": MM_NOTE})


def cr_only_index(root: Path, outside: Path) -> None:
    _files(root, {"MEMORY.md": "# Memory Index\r## user\r\r## project\r- [B](b.md)\r\r",
                  "a.md": NOTE.format(n="a"), "b.md": NOTE.format(n="b").replace("user", "project")})


def bracket_run_index(root: Path, outside: Path) -> None:
    _files(root, {"MEMORY.md": "](" * 32768})


def escapes_in_values(root: Path, outside: Path) -> None:
    evil = "\x1b]0;pwned\x07\x1b[2J\u202eforged\rline"
    _files(root, {"MEMORY.md": "# Memory Index\n\n- [A](reference-a.md) — hook\n- [B](user-b.md) — h\n",
                  "reference-a.md": f"---\nname: a\ndescription: \"{evil}\ntype: reference\n---\nx\n",
                  "user-b.md": f"---\nname: b\ndescription: d\ntype: {evil}\n---\nx\n"})


def newline_in_note_name(root: Path, outside: Path) -> None:
    _eng(root, {"a\nb.md": NOTE.format(n="ab")})


def escape_in_names(root: Path, outside: Path) -> None:
    _eng(root, {"x\x1b[31m.md": NOTE.format(n="x")})
    _files(root, {"MEMORY.md": "# Memory Index\n\n- [A](a.md) — hook\n- [X](<x\x1b[31m.md>) — hook\n"})


def escape_in_mm_names(root: Path, outside: Path) -> None:
    _mm(root, {"memories/b\x1b[2J\n.md": MM_NOTE})


def unparseable_index_line(root: Path, outside: Path) -> None:
    _eng(root, {"a.md": NOTE.format(n="a").rstrip("\n"),
                "MEMORY.md": "# Memory Index\n\n- [A](a.md) — hook\n- [B](\x00b\n.md) x\n",
                "c.md": NOTE.format(n="c")})


def body_link_outside(root: Path, outside: Path) -> None:
    _eng(root, {"a.md": NOTE.format(n="a") + "see [secret](../outside/secret.md) and [p](/etc/passwd)\n"})


CASES: dict[str, Case] = {
    "fifo-in-memories": Case(fifo_in_memories, codes=frozenset({"S102"})),
    "stdin-link-in-memories": Case(stdin_link_in_memories, codes=frozenset({"S101"})),
    "fifo-index": Case(fifo_index, ("--dialect", "engramory"), codes=frozenset({"S102"})),
    "socket-note": Case(socket_note, codes=frozenset({"S102"})),
    "dev-zero-note": Case(dev_zero_note, codes=frozenset({"S101"})),
    "index-link-outside": Case(index_link_outside, ("--dialect", "engramory"), codes=frozenset({"S101"})),
    "note-link-outside": Case(note_link_outside, codes=frozenset({"S101"})),
    "memories-link-outside": Case(memories_link_outside, codes=frozenset({"S104"})),
    "config-extends-absolute": Case(config_extends_absolute, status=(2,)),
    "config-extends-etc-passwd": Case(config_extends_etc_passwd, status=(2,)),
    "config-extends-up": Case(config_extends_up, status=(2,)),
    "config-link-outside": Case(config_link_outside, status=(2,)),
    "carrier-list-slug": Case(carrier_list_slug, codes=frozenset({"X112"})),
    "carrier-mapping-type": Case(carrier_mapping_type, codes=frozenset({"X112"})),
    "carrier-lone-surrogate": Case(carrier_lone_surrogate, codes=frozenset({"X112"})),
    "carrier-scalar-aliases": Case(carrier_scalar_aliases, codes=frozenset({"X112"})),
    "cr-only-index": Case(cr_only_index, codes=frozenset({"S111"})),
    "bracket-run-index": Case(bracket_run_index, ("--dialect", "engramory")),
    "escapes-in-values": Case(escapes_in_values, ("--profile", "recall-v1"), codes=frozenset({"F102", "N102"})),
    "newline-in-note-name": Case(newline_in_note_name, codes=frozenset({"P106", "N112"})),
    "escape-in-names": Case(escape_in_names, codes=frozenset({"N112"})),
    "escape-in-mm-names": Case(escape_in_mm_names, codes=frozenset({"N112"})),
    "unparseable-index-line": Case(unparseable_index_line),
    "body-link-outside": Case(body_link_outside, codes=frozenset({"P111"})),
}


def build(name: str, root: Path, outside: Path) -> None:
    """Write case ``name`` at ``root`` (which must not exist yet) and the
    ``outside`` folder it may point into."""
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.md").write_text("---\nname: secret\ndescription: d\ntype: user\n---\nsecret\n")
    (outside / "secret.toml").write_text('ignore = ["P106"]\n')
    CASES[name].make(root, outside)
