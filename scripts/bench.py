"""Benchmark mmlint against the upstream doctor and check-jsonschema, as ratios.

Usage::

    python scripts/bench.py            # 200, 2,000, 20,000 notes; converts at 2,000 and 20,000
    python scripts/bench.py --quick    # 200 and 2,000 notes, 3 rounds, converts at 2,000 only
    python scripts/bench.py --sizes 2000 --runs 9 --no-convert

The machine is shared, so absolute times mean little: every comparison is
made from **interleaved** runs (round 1: tool A, tool B, ...; round 2: ...)
in this one process tree, and reported as the median of the per-round ratios
next to each tool's median wall time (interpreter start included). Peak RSS
is each child's own ``ru_maxrss`` (``os.wait4``), in MiB.

Stores are generated like the engramory reference benchmark
(``research/engramory-reference.md`` "Performance baseline"): N valid
``upstream`` notes, types rotating user/feedback/project/reference,
feedback and project notes with scope and Why/How lines, each note
wikilinking the next (``plain``) or a missing note (``dangling``), and an
index pointing at every note under four ``## type`` sections.

Peers:

* ``engramory_doctor.py``: ``$MMLINT_BENCH_DOCTOR``, else
  ``../shared/peers/engramory/engramory_doctor.py`` beside the checkout.
  Run with this interpreter. When absent the table says so and gives no ratio.
* ``check-jsonschema`` (``pip install '.[bench]'``): ``$MMLINT_BENCH_CJS``,
  else next to this interpreter, else on ``PATH``; run on the notes'
  frontmatter written out as standalone YAML files, against
  ``schemas/engramory-upstream.note.json``. Absent: said so.

Rows: cold ``mmlint check --format json`` (``--no-cache`` when the option
exists), the same with ``--jobs auto`` on plain stores of 1,000 notes and more
(a forked worker when a CPU is idle, beside the serial default; only when mmlint has ``--jobs``),
warm (the cache filled by a previous run; only when mmlint has a
cache), one note changed (a cached run after one note's body changed,
against a cold run and the doctor; below 20,000 notes), ``python -m mmlint --version``
and the console script pip installs (its launcher imports ``re`` first) against ``python -c pass``, a cold
check through that console script (what a user runs; no ``runpy``, which ``-m`` imports) on plain stores
below 20,000 notes, the
pathological inputs of issue 9 item 6 against normal inputs of the same size
(``--no-hostile`` skips them), and ``mmlint convert`` (real and
``--dry-run``) to every target. Checks of stores below 1,000 notes run at least
:data:`SMALL_RUNS` rounds (a few seconds): their ratios are the noisiest. This is a measurement
script, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TYPES = ("user", "feedback", "project", "reference")
ROOT = Path(__file__).resolve().parent.parent
DOCTOR_DEFAULT = ROOT.parent / "shared" / "peers" / "engramory" / "engramory_doctor.py"
#: Children run as users run them: with byte-code caching on (a shell that
#: sets PYTHONDONTWRITEBYTECODE would charge mmlint a compile of every module
#: on every run; the doctor, run as a script, is compiled each run either way).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
TARGETS = (("mm", None), ("engramory", "recall-v1"), ("engramory", "upstream"), ("engramory", "claude-code"), ("workspace", None))


def make_store(root: str, n: int, mode: str) -> None:
    """Write an ``upstream`` store of ``n`` notes at ``root`` (``mode``:
    ``plain`` links each note to the next, ``dangling`` to a missing note)."""
    os.makedirs(root, exist_ok=True)
    sections: dict[str, list[str]] = {t: [] for t in TYPES}
    for i in range(n):
        t = TYPES[i % 4]
        slug = f"{t}-note-{i}"
        link = f"[[{TYPES[(i + 1) % 4]}-note-{(i + 1) % n}]]" if mode == "plain" else f"[[missing-{i}]]"
        extra = "scope: repo\n" if t in ("feedback", "project") else ""
        body = f"Fact number {i}. See {link}.\n"
        if t in ("feedback", "project"):
            body += "\n**Why:** because.\n\n**How to apply:** do it.\n"
        with open(os.path.join(root, slug + ".md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: {slug}\ndescription: note {i}\ntype: {t}\n{extra}created: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}")
        sections[t].append(f"- [N{i}]({slug}.md) — h")
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write("# Memory Index\n")
        for t in TYPES:
            fh.write(f"\n## {t}\n" + "\n".join(sections[t]) + "\n")


HOSTILE_NOTE = "---\nname: a\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n"
_HOSTILE_INDEX = "# Memory Index\n\n## reference\n- [A](a.md) - h\n"


def hostile_cases() -> list[tuple[str, tuple[str, str], tuple[str, str]]]:
    """``(label, (index, body), (index, body))``: each pathological input of
    issue 9 item 6 beside a normal one of the same size in bytes."""
    def index(size: int) -> str:
        line = "- [Some title here](a.md) - a hook of plain words\n"
        return (_HOSTILE_INDEX + line * (size // len(line) + 1))[:size]

    def body(size: int) -> str:
        line = "A normal line of prose with a [link](a.md) and words.\n"
        return (line * (size // len(line) + 1))[:size]

    links = ("[a](b) [[c]] ![d](e) [f][g] <h> " * 10000)[:256 * 1000]
    return [
        ("1 MiB index of `[`", ("[" * (1 << 20), "x\n"), (index(1 << 20), "x\n")),
        ("256 KB body full of link syntax", (_HOSTILE_INDEX, links), (_HOSTILE_INDEX, body(len(links)))),
        ("40 KB of `](` on one line (body)", (_HOSTILE_INDEX, "](" * 20000), (_HOSTILE_INDEX, body(40000))),
        ("40 KB of `](` on one line (index)", (_HOSTILE_INDEX + "](" * 20000, "x\n"), (index(len(_HOSTILE_INDEX) + 40000), "x\n")),
    ]


def make_yaml_copies(store: str, out: str) -> list[str]:
    """The frontmatter of every note of ``store`` as standalone YAML files
    under ``out`` (for check-jsonschema); returns their names."""
    os.makedirs(out, exist_ok=True)
    names = []
    for name in sorted(os.listdir(store)):
        if name == "MEMORY.md" or not name.endswith(".md"):
            continue
        text = Path(store, name).read_text(encoding="utf-8")
        block = text.split("---\n", 2)[1]
        yname = name[:-3] + ".yaml"
        Path(out, yname).write_text(block, encoding="utf-8")
        names.append(yname)
    return names


def run_once(cmd: list[str], cwd: str | None = None) -> tuple[float, float, int]:
    """Run ``cmd`` (output discarded): ``(wall seconds, peak RSS MiB, exit status)``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, proc.returncode


class Series:
    """Interleaved samples of several commands."""

    def __init__(self) -> None:
        self.walls: dict[str, list[float]] = {}
        self.rss: dict[str, float] = {}

    def add(self, label: str, wall: float, rss: float) -> None:
        self.walls.setdefault(label, []).append(wall)
        self.rss[label] = max(self.rss.get(label, 0.0), rss)

    def median(self, label: str) -> float:
        return statistics.median(self.walls[label])

    def ratio(self, a: str, b: str) -> float:
        """Median over rounds of ``a``'s time divided by ``b``'s in the same round."""
        return statistics.median(x / y for x, y in zip(self.walls[a], self.walls[b]))


#: Rounds at least, for the checks of stores below 1,000 notes (see main).
SMALL_RUNS = 15


def interleave(cmds: dict[str, tuple[list[str], str | None]], runs: int, series: Series,
               before: dict[str, callable] | None = None, warmup: bool = True) -> None:
    """One warm-up of each command (unless ``warmup`` is false), then
    ``runs`` rounds running each once. ``before[label]()`` runs (untimed)
    before each run of ``label``."""
    before = before or {}
    for label, (cmd, cwd) in cmds.items() if warmup else ():
        if label in before:
            before[label]()
        run_once(cmd, cwd)
    for _ in range(runs):
        for label, (cmd, cwd) in cmds.items():
            if label in before:
                before[label]()
            wall, rss, _ = run_once(cmd, cwd)
            series.add(label, wall, rss)


def one_changed(root: str, n: int, check: list[str], doctor: str | None, runs: int, show, fmt) -> None:
    """The "one note changed" rows: before each cached run one note's body
    gets a new line (a different one each time), so the cache holds the
    rest of the store; against a cold run and the doctor on the same store."""
    note = os.path.join(root, f"reference-note-{3 if n > 3 else 0}.md")
    with open(note, encoding="utf-8") as fh:
        original = fh.read()
    count = [0]

    def edit() -> None:
        count[0] += 1
        with open(note, "w", encoding="utf-8") as fh:
            fh.write(original + f"\nEdit {count[0]}.\n")

    cmds = {"one": (mmlint_cmd(*check), None), "cold": (mmlint_cmd(*check, "--no-cache"), None)}
    if doctor is not None:
        cmds["doctor"] = ([sys.executable, doctor, root], None)
    s = Series()
    interleave(cmds, runs, s, {"one": edit})
    with open(note, "w", encoding="utf-8") as fh:
        fh.write(original)
    what = f"check, {n:,} notes, one note changed"
    show((f"{what}: mmlint cached", *fmt(s, "one"), "mmlint cold",
          f"{s.median('cold'):.3f} s, ratio {s.ratio('one', 'cold'):.2f}×"
          + (f"; {s.ratio('one', 'doctor'):.2f}× doctor" if doctor is not None else "")))


def editable_install() -> bool:
    """Whether a child started as the benchmark starts mmlint loads an
    editable install's import finder at start-up (a ``__editable__*`` module
    that ``site`` imports from a ``.pth`` file; ``pip install .`` has none)."""
    probe = "import sys; print(any(m.startswith('__editable__') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=CHILD_ENV).stdout
    return out.strip() == "True"


def convert_outcome(cmd: list[str]) -> str:
    """What a ``mmlint convert ... --dry-run --format json`` run ``cmd``
    says the conversion does: ``writes every file`` or ``refused (CODE), writes
    nothing`` (a 2,000-note store is over the index caps of mm, upstream and
    claude-code, so those rows time the way to that refusal)."""
    import json

    proc = subprocess.run(cmd, capture_output=True, text=True, env=CHILD_ENV)
    try:
        doc = json.loads(proc.stdout)
        if doc["ok"]:
            return "writes every file"
        return f"refused ({doc['refusals'][0]['code']}), writes nothing"
    except (ValueError, KeyError, IndexError, TypeError):
        return f"exit {proc.returncode}, no plan"


def mmlint_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "mmlint", *args]


def find_cjs() -> str | None:
    env = os.environ.get("MMLINT_BENCH_CJS")
    if env:
        return env if os.path.exists(env) else None
    beside = Path(sys.executable).parent / "check-jsonschema"
    if beside.exists():
        return str(beside)
    return shutil.which("check-jsonschema")


def check_help() -> str:
    return subprocess.run(mmlint_cmd("check", "--help"), capture_output=True, text=True).stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=None, help="comma-separated note counts (default 200,2000,20000; --quick: 200,2000)")
    ap.add_argument("--runs", type=int, default=None, help="interleaved rounds (default 5; --quick: 3)")
    ap.add_argument("--dangling-sizes", default=None, help="note counts of the dangling-wikilink stores (default: --sizes; 0: none); "
                    "the doctor is quadratic there (minutes at 20,000), so at 20,000 and above every tool runs once, no warm-up")
    ap.add_argument("--convert-sizes", default=None, help="note counts to convert (default 2000,20000; --quick: 2000)")
    ap.add_argument("--no-convert", action="store_true")
    ap.add_argument("--no-hostile", action="store_true", help="skip the pathological inputs (issue 9 item 6)")
    ap.add_argument("--quick", action="store_true", help="small sizes, few rounds")
    args = ap.parse_args()
    sizes = [int(x) for x in (args.sizes or ("200,2000" if args.quick else "200,2000,20000")).split(",")]
    runs = args.runs or (3 if args.quick else 5)
    dsizes = [n for n in (int(x) for x in args.dangling_sizes.split(",")) if n > 0] if args.dangling_sizes else sizes  # "0": none
    csizes = [] if args.no_convert else [int(x) for x in (args.convert_sizes or ("2000" if args.quick else "2000,20000")).split(",")]
    doctor = os.environ.get("MMLINT_BENCH_DOCTOR") or str(DOCTOR_DEFAULT)
    have_doctor = os.path.isfile(doctor)
    cjs = find_cjs()
    helptext = check_help()
    cache = "--no-cache" in helptext
    #: a cold check with --jobs auto beside the serial default where a second process may pay
    jobs = "--jobs" in helptext
    schema = str(ROOT / "schemas" / "engramory-upstream.note.json")
    rows: list[tuple[str, str, str, str, str]] = []
    notes: list[str] = []

    def show(row: tuple[str, ...]) -> None:
        rows.append(row)
        print("| " + " | ".join(row) + " |", flush=True)

    if not have_doctor:
        notes.append(f"engramory_doctor.py ABSENT (looked at {doctor}; set MMLINT_BENCH_DOCTOR): no doctor ratios")
    if cjs is None:
        notes.append("check-jsonschema ABSENT (pip install '.[bench]' or set MMLINT_BENCH_CJS): no check-jsonschema rows")
    if not cache:
        notes.append("this mmlint has no result cache (no --no-cache option): no warm rows")
    if jobs:
        notes.append("peak RSS is the largest single process of a run (ru_maxrss): while a --jobs auto worker runs, "
                      "the two processes hold more in all (~40 MiB more at 20,000 notes)")
    if editable_install():
        notes.append("mmlint is an EDITABLE install here: every start-up pays its import finder (~10 ms), "
                      "which `pip install .` does not; measure start-up with a plain install")

    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    print(f"mmlint bench: {runs} interleaved rounds, medians; python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"load {os.getloadavg()[0]:.2f}; commit {commit or 'unknown'}")
    for line in notes:
        print("NOTE:", line)
    print("\n| work | median wall | peak RSS | against | ratio |\n|---|---|---|---|---|", flush=True)

    def fmt(s: Series, label: str) -> tuple[str, str]:
        return f"{s.median(label):.3f} s", f"{s.rss[label]:.0f} MiB"

    with tempfile.TemporaryDirectory(prefix="mmlint-bench-") as tmp:
        cache_dir = os.path.join(tmp, "cache")
        env_cache = {"MMLINT_CACHE_DIR": cache_dir}
        CHILD_ENV.update(env_cache)
        # python -c pass vs mmlint --version
        s = Series()
        probes = {"python -c pass": ([sys.executable, "-c", "pass"], None),
                  "mmlint --version": (mmlint_cmd("--version"), None)}
        # the console script pip writes next to the interpreter (its launcher imports re first)
        script = os.path.join(os.path.dirname(sys.executable), "mmlint")
        console = os.path.isfile(script) and os.access(script, os.X_OK)
        if console:
            probes["console script"] = ([script, "--version"], None)
        interleave(probes, max(runs, 9), s)
        show(("`python -m mmlint --version`", *fmt(s, "mmlint --version"), "`python -c pass`",
                     f"{s.median('python -c pass'):.3f} s, ratio {s.ratio('mmlint --version', 'python -c pass'):.2f}×"))
        if "console script" in probes:
            show(("`mmlint --version` (pip's console script)", *fmt(s, "console script"), "`python -c pass`",
                  f"{s.median('python -c pass'):.3f} s, ratio {s.ratio('console script', 'python -c pass'):.2f}×"))
        for n in sorted(set(sizes) | set(dsizes)):
            for mode in ("plain", "dangling"):
                if (mode == "plain" and n not in sizes) or (mode == "dangling" and n not in dsizes):
                    continue
                root = os.path.join(tmp, f"store{n}-{mode}")
                make_store(root, n, mode)
                if cache:
                    # the cache trusts a file's stat only once it is a few seconds old (racy timestamps):
                    # a store is older than that when it is checked in real use
                    time.sleep(3.2)
                check = ["check", root, "--format", "json", "--profile", "upstream"]
                cmds = {"cold": (mmlint_cmd(*check, *(["--no-cache"] if cache else [])), None)}
                if console and mode == "plain" and n < 20000:
                    # what a user runs: the console script (its launcher imports re; no runpy, which -m imports)
                    cmds["console"] = ([script, *check, *(["--no-cache"] if cache else [])], None)
                if jobs and mode == "plain" and n >= 1000:
                    cmds["auto"] = (mmlint_cmd(*check, *(["--no-cache"] if cache else []), "--jobs", "auto"), None)
                if cache:
                    cmds["warm"] = (mmlint_cmd(*check), None)
                if have_doctor:
                    cmds["doctor"] = ([sys.executable, doctor, root], None)
                if cjs is not None and mode == "plain":
                    ydir = os.path.join(tmp, f"yaml{n}")
                    names = make_yaml_copies(root, ydir)
                    cmds["check-jsonschema"] = ([cjs, "--schemafile", schema, *names], ydir)
                s = Series()
                huge = mode == "dangling" and n >= 20000
                if huge and "warm" in cmds:
                    run_once(*cmds["warm"])  # no warm-up round (the doctor takes minutes): fill the cache, or "warm" is a miss
                # a check of a small store takes ~0.05 s, so its ratio, ±0.05 between 5-round runs on a loaded
                # machine, gets at least SMALL_RUNS rounds (a few seconds)
                interleave(cmds, 1 if huge else max(runs, SMALL_RUNS) if n < 1000 else runs, s, warmup=not huge)
                what = f"check, {n:,} notes" + (", dangling wikilink each" if mode == "dangling" else "")
                for label in cmds:
                    if label == "doctor":
                        continue
                    name = {"cold": "mmlint cold", "warm": "mmlint warm", "auto": "mmlint cold --jobs auto",
                            "console": "mmlint cold (pip's console script)"}.get(label, label)
                    ratio = f"{s.ratio(label, 'doctor'):.2f}×" if have_doctor else "doctor absent"
                    show((f"{what}: {name}", *fmt(s, label), "doctor", ratio))
                if have_doctor:
                    show((f"{what}: doctor", *fmt(s, "doctor"), "", ""))
                if cache and mode == "plain":
                    one_changed(root, n, check, doctor if have_doctor else None, runs if n < 20000 else 3, show, fmt)
                if mode == "dangling":
                    shutil.rmtree(root, ignore_errors=True)
        if not args.no_hostile:
            for what, hostile, normal in hostile_cases():
                cmds = {}
                for label, (index, body) in (("hostile", hostile), ("normal", normal)):
                    root = os.path.join(tmp, f"hostile-{len(rows)}-{label}")
                    os.makedirs(root)
                    Path(root, "MEMORY.md").write_text(index, encoding="utf-8")
                    Path(root, "a.md").write_text(HOSTILE_NOTE + body, encoding="utf-8")
                    cmds[label] = (mmlint_cmd("check", root, "--format", "json", "--profile", "upstream",
                                              *(["--no-cache"] if cache else [])), None)
                s = Series()
                interleave(cmds, runs, s)
                show((what, *fmt(s, "hostile"), "normal input of the same size",
                      f"{s.median('normal'):.3f} s, ratio {s.ratio('hostile', 'normal'):.2f}×"))
        from convert_bench import set_aside  # noqa: PLC0415  (scripts/ is on the path when this runs)

        for n in csizes:
            src = os.path.join(tmp, f"conv-src{n}")
            make_store(src, n, "plain")
            for target, profile in TARGETS:
                dst = os.path.join(tmp, f"conv-dst{n}")
                conv = ["convert", src, dst, "--to", target, *(["--profile", profile] if profile else [])]
                cmds = {"real": (mmlint_cmd(*conv), None), "dry": (mmlint_cmd(*conv, "--dry-run"), None)}
                s = Series()

                def clean() -> None:
                    """DST set aside (deleting would slow the next run's creates: convert_bench),
                    then every dirty page on the machine written out: a real run ends with one
                    syncfs of its file system, which should pay for the files it wrote, not for
                    the stores this benchmark (or anything else) wrote before it."""
                    set_aside(dst, tmp)
                    if hasattr(os, "sync"):
                        os.sync()

                interleave(cmds, 1 if n >= 20000 else max(1, runs // 2 + 1), s, {"real": clean, "dry": clean}, warmup=n < 20000)
                clean()  # DST absent, as for every timed run
                verdict = convert_outcome(mmlint_cmd(*conv, "--dry-run", "--format", "json"))
                name = target + (f" ({profile})" if profile else "")
                show((f"convert {n:,} → {name}: {verdict}", *fmt(s, "real"), "dry run",
                      f"{s.median('dry'):.3f} s, ratio {s.ratio('real', 'dry'):.2f}×"))
            shutil.rmtree(src, ignore_errors=True)
    print(f"\nload at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
