"""``mmlint merge-driver %O %A %B``: a git merge driver for ``MEMORY.md``.

Configure it once per repository (README "Merging memory")::

    # .gitattributes
    MEMORY.md merge=mmlint
    # git config
    git config merge.mmlint.name "mmlint memory index merge"
    git config merge.mmlint.driver "mmlint merge-driver %O %A %B -L %L"

Git calls it with the base (``%O``), ours (``%A``) and theirs (``%B``) in
temporary files; the merged index (:func:`mmlint.merging.index.merge_index`)
is written over ``%A`` atomically and read back. Exit status as git expects:
0 for a clean merge, 1 when entries are left in conflict (their markers are
in ``%A``), 2 when the merge could not be done (``%A`` untouched).
"""

from __future__ import annotations

import argparse
import sys

from mmlint.commands import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

HELP = "git merge driver: merge three versions of a MEMORY.md by entry (%%O %%A %%B)"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``merge-driver``."""
    p.add_argument("base", metavar="BASE", help="the common ancestor (%%O)")
    p.add_argument("ours", metavar="OURS", help="our version (%%A); receives the result")
    p.add_argument("theirs", metavar="THEIRS", help="their version (%%B)")
    p.add_argument("-L", "--marker-size", type=int, default=7, metavar="N", help="conflict marker length (%%L, default 7)")
    p.add_argument("--dialect", choices=("mm", "engramory", "workspace"), help="dialect of the index (default: detected)")
    p.add_argument("--quiet", action="store_true", help="say nothing about conflicts on stderr")


def run(args: argparse.Namespace) -> int:
    """Merge, write ``OURS``, verify; see the module docs for the status."""
    from mmlint.atomic import atomic_write
    from mmlint.merging.index import merge_index, verify
    from mmlint.textutil import echo

    try:
        data = []
        for path in (args.base, args.ours, args.theirs):
            with open(path, "rb") as fh:
                data.append(fh.read(16 * 1024 * 1024 + 1))
    except OSError as exc:
        sys.stderr.write(f"mmlint merge-driver: cannot read {exc.filename}: {exc.strerror}\n")
        return EXIT_USAGE
    if any(len(d) > 16 * 1024 * 1024 for d in data):
        sys.stderr.write("mmlint merge-driver: an index over 16 MiB is not merged\n")
        return EXIT_USAGE
    result = merge_index(*data, dialect=args.dialect, marker_size=max(1, args.marker_size))
    try:
        atomic_write(args.ours, result.data)
        with open(args.ours, "rb") as fh:
            back = fh.read()
    except OSError as exc:
        sys.stderr.write(f"mmlint merge-driver: cannot write {exc.filename}: {exc.strerror}\n")
        return EXIT_USAGE
    if back != result.data:
        sys.stderr.write("mmlint merge-driver: the written index differs from the merge\n")
        return EXIT_USAGE
    if result.clean:
        problems = verify(result)
        if problems:
            sys.stderr.write(f"mmlint merge-driver: {problems[0]}\n")
            return EXIT_USAGE
        return EXIT_OK
    if not args.quiet:
        names = ", ".join(echo(str(k[1]), 60) for k in result.conflicts[:5])
        sys.stderr.write(f"mmlint merge-driver: {len(result.conflicts)} {result.dialect} entr"
                         f"{'y' if len(result.conflicts) == 1 else 'ies'} changed differently on both sides: {names}\n")
    return EXIT_FINDINGS
