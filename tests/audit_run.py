"""Run the whole hostile catalogue under an audit hook (``sys.addaudithook``).

Usage: ``python tests/audit_run.py WORKDIR`` (``test_audit.py`` runs it in
a child process, since an audit hook cannot be removed).

Every case of ``hostile_catalogue.py`` is built under ``WORKDIR`` first;
then the hook is installed and each store goes through ``check`` in every
output format, ``check --fix --unsafe-fixes``, ``detect``, ``budget`` and
``convert --dry-run`` into each other dialect. The hook records:

* every ``open``, ``os.listdir`` and ``os.scandir`` of a path outside the
  store being checked, except Python's own files (the interpreter and its
  site-packages, mmlint's package), mmlint's own result cache folder
  (:func:`mmlint.cache.cache_dir`, never in a store), configuration files discovery looks
  for in the folders above the store, and the conversion destination the
  command line names;
* every ``open`` of something that is not a regular file or a folder
  (a FIFO, socket or device, or a symlink to one), wherever it is.

It prints one line per violation and exits 1 if there was any.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hostile_catalogue  # noqa: E402

import mmlint  # noqa: E402
from mmlint import cli, config  # noqa: E402

from mmlint.cache import cache_dir  # noqa: E402
from mmlint.validate import _schema_dir  # noqa: E402

ALLOWED_TREES = sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(mmlint.__file__),
                                                       str(_schema_dir()), os.path.dirname(os.__file__), cache_dir())})
#: Folders Python's import machinery lists (``sys.path``).
IMPORT_DIRS = {os.path.realpath(p or ".") for p in sys.path}
STATE: dict = {"root": None, "extra": [], "violations": []}


def _inside(path: str, tree: str) -> bool:
    return path == tree or path.startswith(tree.rstrip(os.sep) + os.sep)


def allowed(path: str) -> bool:
    real = os.path.realpath(path)
    root = STATE["root"]
    if root is None:
        return True
    trees = [os.path.realpath(root)] + STATE["extra"] + ALLOWED_TREES
    if any(_inside(real, t) or _inside(os.path.abspath(path), t) for t in trees):
        return True
    # discovery reads configuration files in the folders above the store
    folder, name = os.path.split(os.path.abspath(path))
    if name in config.NAMES and _inside(os.path.realpath(root), os.path.realpath(folder)):
        return True
    return path in (os.devnull,)


def hook(event: str, args: tuple) -> None:
    if event not in ("open", "os.listdir", "os.scandir") or STATE["root"] is None or not args:
        return
    path = args[0]
    if isinstance(path, int) or path is None:
        return
    path = os.fsdecode(path)
    if event == "os.listdir" and os.path.realpath(path) in IMPORT_DIRS:
        return  # the import system looking for a module
    if event == "open" and os.sep not in path and sys._getframe(1).f_code.co_name == "_rmtree_safe_fd":
        return  # shutil.rmtree opens entries relative to the folder it removes (a dir_fd the hook does not see)
    if not allowed(path):
        STATE["violations"].append(f"{STATE['case']}: {event} outside the root: {path}")
    if event == "open":
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            STATE["violations"].append(f"{STATE['case']}: opened a file that is not regular: {path}")


def commands(root: Path, work: Path, case: hostile_catalogue.Case) -> list[list[str]]:
    base = ["check", str(root), *case.args]
    out = [base + ["--format", f] for f in ("text", "json", "json-lines", "sarif", "github", "junit")]
    out += [base + ["--statistics"], base + ["--fix", "--unsafe-fixes"], ["detect", str(root)], ["budget", str(root)]]
    for dialect, profile in (("engramory", "claude-code"), ("mm", None), ("workspace", None)):
        dest = work / f"{root.parent.name}-{dialect}"
        out.append(["convert", str(root), str(dest), "--to", dialect, "--dry-run"] + (["--profile", profile] if profile else []))
    return out


def main() -> int:
    work = Path(sys.argv[1]).resolve()
    roots = {}
    for name in sorted(hostile_catalogue.CASES):
        root = work / name / "store"
        hostile_catalogue.build(name, root, work / name / "outside")
        roots[name] = root
    sys.addaudithook(hook)
    # The hook must see what it is meant to catch: an open outside the root and an open of a FIFO.
    first = next(iter(roots))
    STATE.update(root=str(roots[first]), case="self-test", extra=[])
    (work / first / "outside" / "secret.md").read_bytes()
    os.mkfifo(work / "canary.fifo")
    os.close(os.open(work / "canary.fifo", os.O_RDONLY | os.O_NONBLOCK))
    STATE["root"] = None
    if len(STATE["violations"]) != 3:  # the outside file, and the FIFO: outside and not regular
        print(f"the audit hook did not see the self-test: {STATE['violations']}")
        return 2
    STATE["violations"].clear()
    ran = 0
    for name, root in roots.items():
        case = hostile_catalogue.CASES[name]
        for argv in commands(root, work / name, case):
            STATE.update(root=str(root), case=name, extra=[str(work / name)] if argv[0] == "convert" else [])
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                try:
                    cli.main(argv)
                except SystemExit:
                    pass
            STATE["root"] = None
            ran += 1
    for v in STATE["violations"]:
        print(v)
    print(f"{ran} commands on {len(roots)} hostile stores; {len(STATE['violations'])} violations")
    return 1 if STATE["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
