"""The long fuzzing campaign (issue 11): hostile stores through every reader,
the rules, every reporter, ``--fix`` and every writer.

Usage::

    nice -n 19 python scripts/fuzz.py --inputs 100000 [--deep-every 50] [--seconds N] [--seed S] [--out DIR]
    python scripts/fuzz.py --atheris READER --seconds N   # one coverage-guided target

Inputs come from two sources: the structure-aware hypothesis strategies of
``tests/strategies.py`` (a share of the inputs, drawn once as seeds), and
cheap structure-aware mutations of those seeds, of ``fixtures/`` and of the
real stores in ``../shared/corpus`` (line-end changes, hostile tokens and
bytes spliced in, lines duplicated, dropped and swapped, carriers of every
type, odd file names). Every input runs through every reader
(:func:`fuzzing.check_reader`); every ``--deep-every``-th also through the
reporters, ``--fix`` and the writers. Each target gets 10 s of CPU time
(``ITIMER_VIRTUAL``, so a starved niced run on a busy machine is not taken
for a hang): one that uses it up is a hang. Crashes (exceptions), hangs and mismatches are counted per
target, the first few saved under ``--out`` with a traceback, and a JSON
summary is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

import fuzzing  # noqa: E402

TOKENS = [b"\r", b"\r\n", b"\n", b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"---\n", b"](", b"[[", b"]]",
          b"[", b"]", b"(", b")", b"<", b">", b"`", b"```\n", b"\x1b[2J", b"\x1b]0;t\x07", "\u202e".encode(), b"\t",
          b"\\", b'"', b"'", b": ", b"- ", b"## ", b"> mm-id: x\n", b"- **mmlint-slug:** [\"a\"]\n",
          b"mmlint-type: {a: 1}\n", b"mmlint-tags: \"x\"\n", b'mmlint-title: "\\ud800"\n', b"metadata:\n  type: user\n",
          b"tags: [a, [b, {c: d}]]\n", b"a: &a [1]\nb: *a\n", b"- [x](../../etc/passwd)\n", b"- [y](/dev/zero)\n",
          b"<!-- mmlint-disable -->\n", b"x" * 3000, b"](" * 300, b"[" * 200, b"- **file:** ../x.md\n"]
NAMES = ["a\nb.md", "x\x1b[31m.md", "bidi\u202e.md", "sp ace.md", "中文.md", "CON.md", "a..md", "sub/deep/n.md",
         "memories/odd topic.md", "memories/a\rb.md", "README.md", "archive/x.md", ".mmlint-index-lines.txt", "n.txt"]


def mutate(rng: random.Random, files: dict[str, bytes]) -> dict[str, bytes]:
    """A structure-aware mutation of ``files`` (a few edits)."""
    out = dict(files)
    for _ in range(rng.randint(1, 4)):
        op = rng.randint(0, 7)
        if not out or op == 7:
            out[rng.choice(NAMES)] = rng.choice(list(out.values()) or [b""])
            continue
        path = rng.choice(sorted(out))
        data = out[path]
        if op <= 2:
            at = rng.randint(0, len(data))
            out[path] = data[:at] + rng.choice(TOKENS) + data[at:]
        elif op == 3:
            nl = rng.choice([b"\n", b"\r\n", b"\r"])
            out[path] = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").replace(b"\n", nl)
        elif op == 4:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            k = rng.randint(0, 2)
            if k == 0:
                lines.insert(j, lines[i])
            elif k == 1 and len(lines) > 1:
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            out[path] = b"\n".join(lines)
        elif op == 5 and data:
            at = rng.randrange(len(data))
            out[path] = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
        elif op == 6:
            new = rng.choice(NAMES)
            if new not in out:
                out[new] = out.pop(path)
    return out


def seeds(n_hypothesis: int) -> list[dict[str, bytes]]:
    """Hypothesis-drawn stores, the fixtures and the small real stores."""
    from hypothesis import HealthCheck, given, settings

    import strategies

    drawn: list[dict[str, bytes]] = []

    @settings(max_examples=max(1, n_hypothesis), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategies.ANY_STORE)
    def draw(files):
        drawn.append(files)

    if n_hypothesis:
        draw()
    for base in [ROOT / "fixtures", ROOT.parent / "shared" / "corpus"]:
        for index in sorted(base.rglob("MEMORY.md")) if base.is_dir() else []:
            store = index.parent
            files = {p.relative_to(store).as_posix(): p.read_bytes() for p in store.rglob("*") if p.is_file() and not p.is_symlink()}
            if sum(len(v) for v in files.values()) < 30_000 and len(files) <= 12:
                drawn.append(files)
    return drawn


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def campaign(args) -> dict:
    rng = random.Random(args.seed)
    pool = seeds(args.hypothesis)
    n_seeds = len(pool)
    stats: dict[str, dict[str, int]] = {}
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    saved = 0
    signal.signal(signal.SIGVTALRM, _alarm)
    t_end = time.time() + args.seconds if args.seconds else None

    def count(target: str, kind: str) -> None:
        stats.setdefault(target, {"inputs": 0, "crashes": 0, "hangs": 0, "mismatches": 0})[kind] += 1

    def run(target: str, fn, files) -> None:
        nonlocal saved
        count(target, "inputs")
        signal.setitimer(signal.ITIMER_VIRTUAL, 10)
        try:
            bad = fn()
        except Hang:
            count(target, "hangs")
            bad, tb = ["hang"], "hang"
        except Exception:
            count(target, "crashes")
            bad, tb = ["crash"], traceback.format_exc()
        else:
            tb = ""
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        if isinstance(bad, tuple):
            bad = bad[0]
        if bad and not tb:
            count(target, "mismatches")
        if bad and saved < 50:
            saved += 1
            (out_dir / f"{saved:03d}-{target.replace('/', '_')}.json").write_text(json.dumps(
                {"target": target, "problems": bad[:10], "traceback": tb,
                 "files": {k: v.decode("latin-1") for k, v in files.items()}}, indent=1))

    t0 = time.time()
    for i in range(args.inputs):
        if t_end and time.time() > t_end:
            break
        files = pool[i] if i < n_seeds else mutate(rng, rng.choice(pool))
        if i >= n_seeds and rng.random() < 0.02:
            pool.append(files)  # keep some mutants as seeds
        results = {}
        for dialect, profile in fuzzing.READERS:
            name = f"read:{dialect}/{profile or '-'}"

            def reader(d=dialect, p=profile):
                if args.readers_only:
                    return fuzzing.check_read_render(files, d, p)
                bad, res = fuzzing.check_reader(files, d, p)
                results[(d, p)] = res
                return bad

            run(name, reader, files)
        if i % args.deep_every == 0 and not args.readers_only:
            for (dialect, profile), res in results.items():
                tag = f"{dialect}/{profile or '-'}"
                run(f"report:{tag}", lambda r=res: fuzzing.check_reporters(r), files)
                run(f"fix:{tag}", lambda r=res: fuzzing.check_fix(r), files)
                run(f"write:{tag}->others", lambda r=res: fuzzing.check_writers(r), files)
        if args.progress and i and i % args.progress == 0:
            rate = i / (time.time() - t0)
            print(f"{i} inputs, {rate:.0f}/s", file=sys.stderr, flush=True)
    return {"inputs": i + 1, "seconds": round(time.time() - t0, 1), "seeds": n_seeds, "targets": stats}


def atheris_target(reader: str, seconds: int) -> int:
    """Run the coverage-guided target of one reader for ``seconds``
    (``atheris`` must be installed: ``pip install atheris``)."""
    try:
        import atheris
    except ImportError:
        print("atheris is not installed (pip install atheris); skipped", file=sys.stderr)
        return 0
    sys.path.insert(0, str(ROOT / "tests"))
    import atheris_targets

    fn = atheris_targets.TARGETS[reader]
    atheris.instrument_all() if os.environ.get("MMLINT_ATHERIS_INSTRUMENT") else None
    atheris.Setup([sys.argv[0], f"-max_total_time={seconds}", "-rss_limit_mb=2048"], fn)
    atheris.Fuzz()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000, help="inputs to run (each through every reader)")
    ap.add_argument("--hypothesis", type=int, default=300, help="seeds drawn from the hypothesis strategies")
    ap.add_argument("--deep-every", type=int, default=50, help="run reporters, --fix and writers on every N-th input")
    ap.add_argument("--readers-only", action="store_true",
                    help="each input through every reader and same-dialect writer only (no rules): the fast mode")
    ap.add_argument("--seconds", type=int, default=0, help="stop after this many seconds (0: no limit)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default="/tmp/mmlint-fuzz", help="folder for saved failing inputs")
    ap.add_argument("--progress", type=int, default=5000)
    ap.add_argument("--atheris", metavar="READER", help="run one atheris target instead (see tests/atheris_targets.py)")
    args = ap.parse_args()
    if args.atheris:
        return atheris_target(args.atheris, args.seconds or 60)
    summary = campaign(args)
    print(json.dumps(summary, indent=1))
    bad = sum(t["crashes"] + t["hangs"] + t["mismatches"] for t in summary["targets"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
