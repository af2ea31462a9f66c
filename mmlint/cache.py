"""The result cache: a check of an unchanged store reuses its diagnostics
without reading a single file of the store.

Modelled on ruff's ``.ruff_cache`` (``../shared/research/linter-anchors.md``
§1.1), with one difference of place: a store is often read-only, or someone
else's, and mmlint never writes into what is not its own, so the cache lives
under the user's cache home, not in the store:

* ``$MMLINT_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/mmlint``, else
  ``~/.cache/mmlint``;
* the folder holds a ``CACHEDIR.TAG`` (backup tools skip it) and a
  ``.gitignore`` of ``*`` (harmless if it is put inside a repository);
* one JSON entry per store and command line (store path, its real path,
  ``--dialect``, ``--profile``, ``--config``, ``--isolated`` and the
  options given) under ``<version>/<hash>.json``; the entry repeats the text
  it was named after, so a hash collision is a miss. Deleting any of it at
  any time is safe (the next check recomputes and rewrites it); entries of
  other versions are never read; an entry that cannot be parsed is a miss.

**What a hit needs.** The entry records, for every file below the store
root (folders of other tools, :data:`UNWALKED`, are listed but not entered),
its ``lstat`` (size, ``mtime_ns``, ``ctime_ns``, inode, device, mode; for a
symlink also the ``stat`` of its target) and the BLAKE2b hash of the bytes the
check read; every folder with its mode and inode; the folders that could not
be listed; every configuration file that could apply (each name of
:data:`mmlint.config.NAMES` in the store folder and every folder above it,
or the ``--config`` file) with its ``stat`` and hash; and mmlint itself
(:func:`code_stamp`: the version, the interpreter, today's date, the
installed packages, and the size and ``mtime_ns`` of every file of the package and
its schemas). A later check is
a hit when the tree has the same files and folders and every file either has
the same ``stat`` as recorded or, read again, the same hash; then detection,
configuration, reading and linting are all skipped and the recorded
diagnostics are the result. Anything else is a miss: the store is
configured, detected, read and linted in full, and the entry rewritten.

**Beyond the tree.** H102 (stale-path) asks whether cited paths exist in
the project around the store, and the pointer resolver asks about targets
in folders the walk does not enter; those questions go through
:mod:`mmlint.outside`, which the recording check notes (``looked``), and a
hit needs every one of them to get the same answer again (a few ``lstat``
calls; a store whose notes cite no project path and point into no such
folder records only where its project root is).

**Racy timestamps** (git's "racy git" problem): a file changed within the
timestamp granularity of the moment the check looked at it can keep its
size and ``mtime``. Every ``stat`` is taken before the file is read, and a
recorded ``stat`` is trusted only when the file's ``mtime`` and ``ctime``
were more than :data:`RACY_NS` older than the moment that check began;
the others are listed as ``racy`` in the entry, and a later check reads
and hashes them again (and rewrites the entry, so the next one trusts
them once they are old enough).

**One changed note.** The entry also keeps (in a side file,
``<hash>.notes.json``, read only on a miss), per note, the raw findings of
the note rules (:data:`mmlint.rules.NOTE`: rules whose findings on a note
depend on that note alone) with the hash of the note's bytes, under a
context hash (:func:`note_context`: options, dialect, profile, the
configuration file, the paths of all notes and the hash of every file that
is not a note); and per file the raw findings of the file rules
(:data:`mmlint.rules.FILE`: byte scans) with the file's hash and kind,
under :func:`file_context` (a note or file without findings is recorded as
its hash alone, ``"<hash>"`` / ``"<hash> <kind>"``: at 20,000 notes that is
40,000 lists less to build and write). A check that misses reads the whole store and
runs every store rule, but runs the note and file rules only on the notes
and files whose bytes changed and takes the recorded findings of the others
(:class:`mmlint.rules.Partial`); ignores and suppressions then apply as in
a cold run. A changed index or any other non-note file changes the note
context: every note is checked again by the note rules.

**Facts of the store rules.** A check that misses still reads the whole
store and runs every store rule on it, but a store rule may keep what it
derives from one note alone as a *fact* of that note (:class:`Facts`, in a
third file, ``<hash>.facts``, also read only on a miss and never by a hit),
kept by the hash of the note's bytes under :func:`facts_context` (options,
dialect, profile, configuration file and the hash of every file that is not
a note), with what it concluded over all the notes. A later check that
misses takes the facts of the unchanged notes and derives them for the
changed ones only. H101 keeps each note's shingles and, when no two notes
were near-duplicates, that conclusion: after a few notes changed it
compares only those with the others instead of joining every note again
(a changed note that does pair sends it back to the whole join). The facts
file is written as the rules run, a line per chunk of rows, and ends with
the store-level facts and the hash of its rows and those; it is read a
line at a time, so neither the old table nor the new one is held
(:class:`Facts`); a file of another mmlint is not read, and one found
truncated or damaged as it is read is dropped: what was taken from it is
forgotten and derived again. Which notes changed, H101 takes from the
per-note table (:attr:`Facts.changed`) and checks against the facts.

The cache is never trusted for a store read by a third-party dialect
(its code is not in the stamp): such stores are always checked in full.
A configuration that uses ``extend`` (as the TOML parser reads it, whatever
the key's spelling) has every file of its chain recorded with the
configuration candidates (:attr:`mmlint.config.Config.extended`), so an
edit of an extended file is a miss.

A hit gives the diagnostics exactly as a full run computed them (tests run
cached and uncached checks side by side, including after files change).
``--no-cache`` neither reads nor writes the cache; ``--fix`` and ``--diff``
bypass it, since they need the full model. A cache folder that cannot be
written is ignored silently: the cache is an optimisation only.

This module imports nothing heavy at load (no model, no rules, no
:mod:`dataclasses`): a hit reports without loading them.
"""

from __future__ import annotations

import os
import stat
import sys
import time
import zlib
from itertools import chain, islice

from mmlint import __version__

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

#: The cache entry format; bumped when the JSON shape changes.
FORMAT = 7
#: A recorded ``stat`` is trusted only for a file whose ``mtime`` and
#: ``ctime`` are this much older than the check that recorded it (ns):
#: more than the coarsest common timestamp granularity (2 s on FAT) plus
#: some clock skew between this machine and a network file system.
RACY_NS = 3_000_000_000
#: Folders a check never enters (:data:`mmlint.walk.FOREIGN_DIRS`, which a
#: test holds this equal to): the tree lists them, not their files.
UNWALKED = frozenset({".git", ".hg", ".svn", ".obsidian", ".trash", ".Trash", ".claude", "node_modules", "__pycache__"})
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by mmlint.\n"
        "# For information about cache directory tags see https://bford.info/cachedir/\n")


_CODEC: list[Any] = []


def _json() -> tuple[Callable[[Any], Any], Callable[[Any], str]]:
    """``(loads, dumps)``: ``json.loads`` and ``json.dumps(value,
    ensure_ascii=True, separators=(",", ":"))`` made from the C functions
    of CPython's ``_json`` module, which the :mod:`json` package wraps:
    importing the package costs ~1 ms of every cached check (it compiles
    patterns), the C functions nothing. ``loads`` takes text or UTF-8
    bytes and raises :class:`ValueError` for anything but one JSON value
    (``NaN`` and the infinities read as :mod:`json` reads them); ``dumps``
    raises :class:`TypeError` for a value JSON cannot hold. Without
    ``_json``, the :mod:`json` package's own."""
    if _CODEC:
        return _CODEC[0], _CODEC[1]
    try:
        from _json import encode_basestring_ascii, make_encoder, make_scanner
    except ImportError:  # not CPython
        import json

        _CODEC[:] = [json.loads, lambda value: json.dumps(value, ensure_ascii=True, separators=(",", ":"))]
        return _CODEC[0], _CODEC[1]

    class Context:  # what the scanner asks of json.decoder.JSONDecoder (its defaults)
        strict = True
        object_hook = object_pairs_hook = None
        parse_float, parse_int = float, int
        parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__

    scan = make_scanner(Context)

    def loads(data: Any) -> Any:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        try:
            value, end = scan(text, 0)
        except (StopIteration, SystemError):
            # CPython 3.11's scanner reports most malformed JSON through json.decoder, which it
            # looks up among the imported modules only: without the json package (a cached check
            # never imports it) that is a SystemError, not a JSONDecodeError
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError("more than one JSON value")
        return value

    def unknown(value: Any) -> Any:
        raise TypeError(f"{type(value).__name__} is not JSON")

    encode = make_encoder(None, unknown, encode_basestring_ascii, None, ":", ",", False, False, True)

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    _CODEC[:] = [loads, dumps]
    return loads, dumps


def is_own_cache(folder: str) -> bool:
    """Whether ``folder`` is a cache folder mmlint made: it holds the
    ``CACHEDIR.TAG`` mmlint writes (:func:`_write`). A store walk skips such
    a folder (a cache put inside a store is not store content). One
    ``open`` of a small file; never raises."""
    try:
        fd = os.open(os.path.join(folder, "CACHEDIR.TAG"),
                     os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, len(_TAG) + 1) == _TAG.encode("ascii")
    except OSError:
        return False
    finally:
        os.close(fd)


def cache_dir() -> str:
    """The cache folder (see the module docs); it may not exist yet."""
    env = os.environ.get("MMLINT_CACHE_DIR")
    if env:
        return os.path.abspath(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mmlint")


_STAMP: list[str] = []


def code_stamp() -> str:
    """mmlint's identity as text: the version, the interpreter, today's
    local date (some rules compare dates with today, so a result holds for
    the day it was computed), the ``mtime_ns`` of each ``site-packages`` folder on ``sys.path`` (a package
    installed or removed: a third-party dialect can change what detection
    decides), and the size and ``mtime_ns`` of every ``.py`` and ``.json``
    file of the package and of its schemas (a changed checkout is a
    different program). The file-system part is computed once per process;
    the date is asked on every call (one ``strftime``), so a long-running
    process does not answer today with yesterday's results."""
    if _STAMP:
        return _STAMP[0] + time.strftime("%Y-%m-%d")
    here = os.path.dirname(os.path.abspath(__file__))
    # the local date: rules compare dates with today (future-date, expired or stale notes)
    parts = [f"mmlint {__version__} cache {FORMAT}", sys.version, sys.prefix]
    for entry in sys.path:  # installing or removing a package (a third-party dialect) touches these
        if entry and os.path.basename(entry) in ("site-packages", "dist-packages"):
            try:
                parts.append(f"{entry}:{os.stat(entry).st_mtime_ns}")
            except OSError:
                pass
    # each file as its path relative to the package (schemas: "../schemas/..."), cut from the scanned
    # path: os.path.relpath asks the working folder twice a file (~1 ms of ~110 files at start-up)
    for base, tag in ((here, ""), (os.path.join(os.path.dirname(here), "schemas"), "../schemas/")):
        cut = len(base) + 1
        stack = [base]
        while stack:
            folder = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        stack.append(e.path)
                elif e.name.endswith((".py", ".json")):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    parts.append(f"{tag}{e.path[cut:]}:{st.st_size}:{st.st_mtime_ns}")
    _STAMP.append("\n".join(parts) + "\n")
    return _STAMP[0] + time.strftime("%Y-%m-%d")


def options_text(options: Any) -> str:
    """A stable text of :class:`mmlint.options.Options` (``None`` reads as
    empty options, as the engine reads it)."""
    if options is None:
        from mmlint.options import Options

        options = Options()
    pis = sorted((pi.base, pi.pattern, sorted(pi.codes)) for pi in options.per_path_ignores)
    return repr((sorted(options.select), sorted(options.ignore), sorted(options.severity.items()),
                 sorted(options.caps.items()), pis, sorted((k, repr(v)) for k, v in options.hygiene.items())))


def slot_text(found_path: str, dialect: str | None, profile: str | None, options: Any, config: str | None,
              isolated: bool) -> str:
    """What an entry is named after: the store as given and its real path,
    and the command line's choices (not the configuration's)."""
    conf = os.path.abspath(config) if config else None
    return "\0".join((found_path, os.path.realpath(found_path), repr(dialect), repr(profile), repr(conf),
                      repr(bool(isolated)), options_text(options)))


def _name(text: str) -> str:
    data = text.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _entry_path(text: str, part: str = "") -> str:
    """The entry named after ``text``; ``part="notes"``: its per-note table
    (read only when a check misses, so a hit parses less); ``part="facts"``:
    its per-note facts (:class:`Facts`, read only when a check misses),
    named ``<hash>.facts`` (no ``.json``: the entry and its per-note table
    are the JSON files of a slot)."""
    name = _name(text) + (f".{part}" if part else "") + (".json" if part != "facts" else "")
    return os.path.join(cache_dir(), __version__, name)


def _row(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, st.st_mode]


def stat_tree(root: str, racy_after: int) -> tuple[dict[str, str], dict[str, str], list[list[str]], set[str]]:
    """Every file and folder below the folder ``root`` without reading any:
    ``(files, folders, errors, racy)``.

    ``files``: store-relative POSIX path -> its ``lstat`` as text
    (``size:mtime_ns:ctime_ns:inode:device:mode``), a symlink's followed by
    ``>`` and its target's (or ``>!errno``), ``!errno`` when it cannot be
    ``stat``-ed. ``folders``: path -> ``mode:inode:device``; a folder of
    :data:`UNWALKED` is listed, not entered; a symlinked folder is a file
    (never followed). ``errors``: ``[path, message]`` of folders that could
    not be listed (``"."`` for the root). ``racy``: the files whose
    ``mtime`` or ``ctime`` (or their target's) is not older than
    ``racy_after`` (ns). A cache folder of mmlint (:func:`is_own_cache`)
    is left out, as the walk leaves it out. Never raises.
    """
    files: dict[str, str] = {}
    folders: dict[str, str] = {}
    errors: list[list[str]] = []
    racy: set[str] = set()
    stack = [("", root)]
    while stack:
        rel_dir, path = stack.pop()
        try:
            it = os.scandir(path)
        except OSError as exc:
            errors.append([rel_dir or ".", exc.strerror or str(exc)])
            continue
        with it:
            for e in it:
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError as exc:
                    files[rel] = f"!{exc.errno or 0}"
                    continue
                mode = st.st_mode
                if stat.S_ISDIR(mode):
                    if is_own_cache(e.path):
                        continue  # mmlint's own cache inside the store: not store content (the walk skips it too)
                    folders[rel] = f"{mode}:{st.st_ino}:{st.st_dev}"
                    if e.name not in UNWALKED:
                        stack.append((rel, e.path))
                    continue
                row = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}:{mode}"
                if st.st_mtime_ns >= racy_after or st.st_ctime_ns >= racy_after:
                    racy.add(rel)
                if stat.S_ISLNK(mode):
                    try:
                        t = os.stat(e.path)
                    except OSError as exc:
                        row += f">!{exc.errno or 0}"
                    else:
                        row += f">{t.st_size}:{t.st_mtime_ns}:{t.st_ctime_ns}:{t.st_ino}:{t.st_dev}:{t.st_mode}"
                        if t.st_mtime_ns >= racy_after or t.st_ctime_ns >= racy_after:
                            racy.add(rel)
                files[rel] = row
    return files, folders, errors, racy


def _trusted(row: list, old: list, limit: int) -> bool:
    """``row`` equals the recorded ``old`` and its times are older than
    ``limit`` (not racy)."""
    return row == old and row[1] < limit and row[2] < limit


_BLAKE2B: list[Any] = []


def _blake2b() -> Any:
    """BLAKE2b from CPython's own ``_blake2`` module (what
    :func:`hashlib.blake2b` is): importing :mod:`hashlib` loads OpenSSL's
    libcrypto, +3.6 MiB of peak RSS for a cached check, for a hash no faster."""
    if not _BLAKE2B:
        try:
            from _blake2 import blake2b
        except ImportError:  # an interpreter without it (not CPython)
            from hashlib import blake2b
        _BLAKE2B.append(blake2b)
    return _BLAKE2B[0]


def _sha(data: bytes) -> str:
    """The hex BLAKE2b-128 of ``data`` (128 bits: plenty against accidents)."""
    return _blake2b()(data, digest_size=16).hexdigest()


def _read(path: str) -> bytes | None:
    from mmlint.walk import read_bounded

    return read_bounded(path)[0]


def _read_listed(path: str) -> bytes | None:
    """The bytes of ``path`` when it is a regular file and no symlink (the
    open does not follow a link), else ``None``: a file of the store's tree
    is re-hashed without ever opening anything a link points to."""
    from mmlint.walk import read_bounded

    return read_bounded(path, regular=True)[0]


def _read_inside(root: str, rel: str) -> bytes | None:
    """The bytes of the store file ``rel`` when it resolves to a regular
    file inside ``root`` (a symlink within the store is followed, one
    leading out of it is not), else ``None``."""
    from mmlint.walk import contained, read_bounded

    real = contained(root, os.path.join(root, *rel.split("/")))
    return read_bounded(real)[0] if real is not None else None


def config_candidates(found_path: str, config: str | None, isolated: bool) -> list[str]:
    """Every configuration file that could apply to the store at
    ``found_path`` (see :func:`mmlint.config.for_store`): none when
    ``isolated``, the ``--config`` file, else each name of
    :data:`mmlint.config.NAMES` in the store folder and every folder above."""
    if isolated:
        return []
    if config:
        return [os.path.abspath(config)]
    from mmlint.config import NAMES

    out = []
    folder = os.path.abspath(found_path)
    while True:
        out += [os.path.join(folder, n) for n in NAMES]
        parent = os.path.dirname(folder)
        if parent == folder:
            return out
        folder = parent


def _config_row(path: str) -> list | None:
    try:
        return _row(os.stat(path))
    except OSError:
        return None


class Probe:
    """One store looked at for the cache: its tree ``stat``-ed (nothing
    read) and the entry recorded for it, if any.

    Attributes:
        text: the entry's name text (:func:`slot_text`).
        scan_ns: wall-clock time (ns) before the first ``stat``.
        files, folders, errors, racy: :func:`stat_tree` of the store.
        entry: the recorded entry (a dict) when its format, version, code
            stamp and name text match, else ``None`` (also once :meth:`missed`).
        trusted: whether that entry was recorded for a built-in dialect
            (:func:`reusable` takes its per-note tables only then).
    """

    def __init__(self, found_path: str, text: str):
        self.root = os.path.realpath(found_path)
        self.text = text
        self.scan_ns = time.time_ns()
        self.files, self.folders, self.errors, self.racy = stat_tree(self.root, self.scan_ns - RACY_NS)
        self.entry = _load(text)
        self.trusted = bool(self.entry is not None and self.entry.get("trusted"))
        self._dirty = False
        self._frozen: tuple[Raw, list[str], list[str]] | None = None

    def fresh(self) -> dict[str, Any] | None:
        """The entry when it still holds (module docs: same tree, every file
        trusted by ``stat`` or by hash, same configuration files, a trusted
        dialect), else ``None``. Files it had to hash again are re-recorded
        (see :meth:`refresh`)."""
        e = self.entry
        if e is None or not e.get("trusted") or e["folders"] != self.folders or e["errors"] != self.errors:
            return None
        recorded, hashes = e["files"], e["hashes"]
        if recorded.keys() != self.files.keys():
            return None
        racy = set(e["racy"])
        stale = [rel for rel, row in self.files.items() if row != recorded[rel] or rel in racy]
        if stale and e.get("mtime_sensitive"):
            return None  # a rule read modification times (not-updated): a touched file is a change
        for rel in stale:
            sha = hashes.get(rel)
            if recorded[rel].__class__ is not str or sha.__class__ is not str:
                return None  # a damaged entry
            if sha == "-" or self.files[rel].startswith("!") or ">" in self.files[rel]:
                return None  # a symlink is never re-hashed (it may lead out of the store): a miss
            data = _read_listed(os.path.join(self.root, *rel.split("/")))
            if data is None or _sha(data) != sha:
                return None
            recorded[rel] = self.files[rel]
            racy.discard(rel)
            if rel in self.racy:
                racy.add(rel)
        limit = e["scan_ns"] - RACY_NS
        for item in e["config_files"]:
            path, old, sha = item
            row = _config_row(path)
            if row is None or old is None:
                if row is not old:
                    return None
                continue
            if _trusted(row, old, limit):
                continue
            data = _read(path)
            if data is None or _sha(data) != sha:
                return None
            item[1] = row
            stale.append(path)
        if e["looked"]:
            from mmlint import outside

            if not outside.holds(e["looked"]):
                return None  # the project around the store, or a folder the walk skips, changed
        if stale:
            e["scan_ns"] = self.scan_ns
            e["racy"] = sorted(racy)
            self._dirty = True
        return e

    def missed(self) -> None:
        """Let go of the entry once :meth:`fresh` said no: a check that
        misses reads the store, its per-note tables (:func:`reusable`) and
        facts (:class:`Facts`) afresh and records a new entry, so holding
        the old one (~8 MiB at 20,000 notes) through the read and the rules
        only raised the check's peak memory. :attr:`trusted` stays."""
        self.entry = None

    def refresh(self) -> None:
        """Rewrite the entry when :meth:`fresh` re-hashed files (so the next
        check trusts their new ``stat``); errors ignored."""
        if self._dirty and self.entry is not None:
            _write(self.text, self.entry)
            self._dirty = False

    def freeze(self, store: Any) -> None:
        """Keep the tree's ``stat`` rows as the entry's JSON text only (a
        few hundred rows a piece, :class:`Raw`), with the paths the walk of
        ``store`` (the model read after this probe) and the tree do not
        share, and drop :attr:`files`: 20,000 notes' rows take ~1.5 MiB as
        text, ~4 MiB as a mapping, which a check that misses would hold
        through its rules. For :meth:`record`; :meth:`fresh` cannot be
        asked after it."""
        tree = self.files
        # the files a hit's summary lists are the walk's (a symlinked folder is a file of the tree, not of the walk)
        unwalked = sorted(rel for rel in tree if rel not in store.files)
        extra = [rel for rel in store.files if rel not in tree]
        dumps = _json()[1]
        items = iter(tree.items())
        pieces = []
        for start in range(0, len(tree), _CHUNK):
            text = dumps(dict(islice(items, _CHUNK)))[1:-1]
            pieces.append(("," if start else "") + text)
        self._frozen = (Raw(pieces), unwalked, extra)
        self.files = {}

    def record(self, res: Any, config: str | None, isolated: bool, shas: dict[str, str] | None = None,
               partial: Any = None, note_ctx: str | None = None, extended: list[str] | None = None,
               looked: list | None = None) -> None:
        """Record the full check ``res`` (a :class:`mmlint.results.StoreResult`
        with its model and diagnostics) of this store; ``config`` and
        ``isolated`` are the command line's. ``shas`` are the hashes of the
        bytes the check read (:func:`file_hashes`; computed when not given),
        while the ``stat`` rows are the ones taken before it read them.
        With ``partial`` (the :class:`mmlint.rules.Partial` the check ran
        with) and its ``note_ctx`` (:func:`note_context`), the note rules'
        findings are kept per note for :func:`reusable`. ``extended``: the
        files the configuration extends (:attr:`mmlint.config.Config.extended`,
        from the parsed TOML), recorded with the candidates. ``looked``: the
        questions the check asked beyond the store's tree
        (:func:`mmlint.outside.dump`), asked again by :meth:`fresh`. Errors
        ignored."""
        from mmlint import dialects

        store = res.store
        if shas is None:
            shas = file_hashes(store)
        if self._frozen is None:
            self.freeze(store)
        rows, unwalked, extra = self._frozen
        walked_extra = {rel: shas.get(rel) for rel in extra}
        # written as they are built (:class:`Rows`): no table per file is held beside the store
        hashes = Rows(lambda: chain(((rel, sha) for rel, sha in shas.items() if rel not in walked_extra),
                                    ((rel, None) for rel in unwalked)))
        keep = partial is not None and not partial.stray and note_ctx is not None
        note_diags = Rows(lambda: _note_rows(partial, shas)) if keep else {}
        file_diags = Rows(lambda: _file_rows(partial, shas, store.files)) if keep else {}
        cands = config_candidates(res.found.path, config, isolated)
        cands += [p for p in (extended or ()) if p not in cands]
        cfiles = []
        for path in cands:
            row = _config_row(path)
            data = _read(path) if row is not None else None
            cfiles.append([path, row, _sha(data) if data is not None else None])
        ev = res.evidence
        from mmlint.rules.hygiene import DEFAULTS

        stale_days = (res.options.hygiene if res.options is not None else {}).get("stale-days", DEFAULTS["stale-days"])
        entry = {"mtime_sensitive": bool(stale_days),"format": FORMAT, "stamp": code_stamp(), "slot": self.text, "scan_ns": self.scan_ns,
                 "trusted": res.dialect in dialects.BUILTIN,
                 "files": rows, "hashes": hashes, "racy": sorted(self.racy), "folders": self.folders, "errors": self.errors,
                 "config_files": cfiles, "unwalked": unwalked, "walked_extra": walked_extra,
                 "looked": looked or [],
                 "dialect": res.dialect, "profile": res.profile, "config": res.config, "warnings": list(res.warnings),
                 "evidence": [ev.dialect, ev.profile, ev.score, list(ev.reasons)] if ev is not None else None,
                 "diagnostics": [_dump(d) for d in res.diagnostics],
                 "notes": [n.path for n in store.notes], "index": store.index.path if store.index is not None else None}
        self.entry = None  # written as it was built: there is no entry dict to keep
        _write(self.text, entry)
        any_note = keep and any(True for _ in _note_rows(partial, shas))
        any_file = keep and any(True for _ in _file_rows(partial, shas, store.files))
        _write(self.text, {"format": FORMAT, "stamp": entry["stamp"], "slot": self.text,
                           "note_ctx": note_ctx if any_note else None, "note_diags": note_diags if any_note else {},
                           "file_ctx": file_context(res) if any_file else None,
                           "file_diags": file_diags if any_file else {}}, "notes")


class Raw:
    """A mapping already encoded: the JSON text of its items (without the
    braces) in consecutive pieces, written as they are (:func:`_json_pieces`)."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: list[str]):
        self.pieces = pieces


class Rows:
    """A mapping written to an entry as it is built: ``items()`` (a
    callable) gives its ``(key, value)`` pairs afresh on each call, and
    :func:`_json_pieces` encodes them a chunk at a time, so the whole
    mapping (20,000 ``[row, hash]`` lists at 20,000 notes) never exists
    at once."""

    __slots__ = ("items",)

    def __init__(self, items: Any):
        self.items = items


def _note_rows(partial: Any, shas: dict[str, str]) -> Iterator[tuple[str, Any]]:
    """The per-note table's rows: note path -> ``[hash, findings]``, or the
    hash alone for a note without findings."""
    for part in (partial.reuse, partial.fresh):
        for path, ds in part.items():
            sha = shas.get(path)
            if sha not in (None, "-"):  # a note without findings: its hash alone (20,000 lists less)
                yield path, ([sha, [_dump(d) for d in ds]] if ds else sha)


def _file_rows(partial: Any, shas: dict[str, str], files: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The per-file table's rows: file path -> ``[hash, kind, findings]``,
    or ``"<hash> <kind>"`` for a file without findings."""
    for part in (partial.reuse_files, partial.fresh_files):
        for path, ds in part.items():
            sha, rec = shas.get(path), files.get(path)
            if sha not in (None, "-") and rec is not None:
                yield path, ([sha, rec.kind, [_dump(d) for d in ds]] if ds else f"{sha} {rec.kind}")


def file_hashes(store: Any) -> dict[str, str]:
    """Store-relative path -> the hex hash (:func:`_sha`) of the bytes read, ``"-"`` for
    a file that was not read, for every file of ``store`` (a model)."""
    blake2b = _blake2b()  # what _sha does, without a call of it a file (20,000 calls: ~10 ms)
    return {rel: (blake2b(rec.data, digest_size=16).hexdigest() if rec.data is not None else "-")
            for rel, rec in store.files.items()}


def note_context(res: Any, shas: dict[str, str]) -> str:
    """What the note rules' findings on every note depend on besides the
    note itself (:data:`mmlint.rules.NOTE`): the options, dialect, profile
    and configuration file of ``res`` (a :class:`mmlint.results.StoreResult`),
    the paths of all notes, and the hash of every file that is not a note
    (the index, auxiliary files). Hex BLAKE2b-256."""
    notes = sorted({n.path for n in res.store.notes})
    note_set = set(notes)
    parts = [options_text(res.options), res.dialect, repr(res.profile), repr(res.config), *notes]
    parts += [f"{rel}\0{shas[rel]}" for rel in sorted(rel for rel in shas if rel not in note_set)]
    return _blake2b()("\0\n".join(parts).encode("utf-8", "surrogateescape"), digest_size=32).hexdigest()


def file_context(res: Any) -> str:
    """What the file rules' findings on every file depend on besides the
    file itself (:data:`mmlint.rules.FILE`): the options, dialect, profile
    and configuration file of ``res``."""
    return repr((options_text(res.options), res.dialect, res.profile, res.config))


def facts_context(res: Any, shas: dict[str, str]) -> str:
    """What a per-note fact of a store rule (:class:`Facts`)
    depends on besides the note's bytes: the options, dialect, profile and
    configuration file of ``res``, the hash of every file that is not a
    note (the index: a dialect may read note values from it), and the
    machine's byte order (facts may hold packed numbers). Unlike
    :func:`note_context`, not the paths of the other notes: a fact is the
    note's own (adding a note keeps the others' facts). Hex BLAKE2b-256."""
    notes = {n.path for n in res.store.notes}
    parts = [options_text(res.options), res.dialect, repr(res.profile), repr(res.config), sys.byteorder]
    parts += [f"{rel}\0{shas[rel]}" for rel in sorted(rel for rel in shas if rel not in notes)]
    return _blake2b()("\0\n".join(parts).encode("utf-8", "surrogateescape"), digest_size=32).hexdigest()


class Facts:
    """Per-note facts of the store rules, kept by the hash of the note's
    bytes in the entry's facts file (``<hash>.facts``, read only by a check
    that misses, never by a hit): what a store rule derives from one note
    alone (H101's shingles), so that a check
    after one note changed derives it for that note only, and what a rule
    concluded over all notes (H101: no two are near-duplicates).

    :meth:`each` streams the facts recorded by the previous check under the
    same :func:`facts_context` for notes whose bytes hash the same, a chunk
    at a time, and carries them over as it goes; :meth:`put` records one
    just derived; :meth:`get_store` and :meth:`put_store` do the same for
    what a rule concluded over the whole store (not carried over: a rule
    records it again when it still holds); :meth:`restart` drops what this
    check recorded. Facts are JSON values: the rule that derives a fact
    encodes and decodes it. Neither the previous table nor the new one is
    ever held in memory: at 20,000 notes H101's would take ~8 MiB.

    **The file** (:data:`FORMAT` 7): a header line (format, code stamp,
    entry name text, context) ending ``"rows":[``; one line per chunk of
    :data:`_CHUNK` rows, ``[kind,{path:[hash,fact]}]`` (after the first
    with a leading comma); a last line
    ``],"store":{kind:fact},"sum":"<hex>"}``, where the sum is BLAKE2b-128
    of the chunk lines and the store text. The whole is one JSON document
    (``\\n`` on every platform), and a reader takes it a line at a time: a
    chunk's line, not the file (~0.1 MB for 500 notes of a few sentences).
    It is written as the rules run to a temporary file; :meth:`close`
    renames it into place, or drops it. A file whose format, mmlint, code
    stamp or context differs is not read beyond its first line; one whose
    sum does not hold, that is truncated, or that is not the file
    :meth:`get_store` read, is found so by :meth:`each` at its end, which
    then raises: the rule forgets what it took (:meth:`restart`) and
    derives every fact again, and the file is not used again. A worker
    process of ``--jobs`` (a fork) writes nothing: it keeps what it records
    (:meth:`worker_rows`), which the parent writes when the worker sends it
    back (:meth:`merge`). Errors writing the file are ignored.

    Args:
        text: the entry's name text (:func:`slot_text`).
        ctx: :func:`facts_context` of the check.
        shas: :func:`file_hashes` of the check.
        reuse: whether the previous check's facts may be used (``False``
            for a store read by a third-party dialect).
        changed: the note paths whose bytes are not those the previous
            check recorded in its per-note table (:func:`reusable`; a note
            added or renamed is one), or ``None`` when there is no such
            table: a hint for a rule that compares the changed notes with
            the others (H101), which must still check that :meth:`each` gave
            every other note (the two files may disagree).
    """

    def __init__(self, text: str, ctx: str, shas: dict[str, str], reuse: bool = True,
                 changed: list[str] | None = None):
        self.text = text
        self.ctx = ctx
        self.changed = changed
        self._shas = shas
        self._pid = os.getpid()
        self._forked: dict[str, dict[str, list]] = {}  # in a forked worker: what it recorded, for the parent
        self._reuse = reuse
        self._old: Any = None  # _facts_ends of the previous file, when a rule first asks; False: none to use
        self._store: dict[str, Any] = {}  # the store-level facts of this check, written last
        self._rows: dict[str, list] = {}  # rows of ``_kind`` not written yet
        self._kind = ""
        self._fh: Any = None
        self._tmp: str | None = None
        self._sum: Any = None
        self._count = 0

    def each(self, kind: str, paths: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The recorded facts ``kind`` of the previous check, as mappings of
        note path -> fact (one per chunk of the file, none empty), for the
        note paths that are keys of ``paths`` and whose bytes are unchanged
        since; each path given is removed from ``paths`` (so it is given,
        and carried over to the new facts file, once: what is left at the
        end had no fact). Nothing when there is no file to use.

        Raises:
            ValueError: at the end, when the file turned out damaged (its
                sum does not hold, it is truncated, or it is not the file
                :meth:`get_store` read): what was given is not to be trusted
                and the caller must :meth:`restart`. The file is not used
                again by this check.
        """
        old = self._previous()
        if not old:
            return
        _, head, last = old
        shas = self._shas
        loads = _json()[0]
        total = _blake2b()(digest_size=16)
        try:
            fh = open(_entry_path(self.text, "facts"), "rb")
        except OSError:
            self._old = False
            return
        with fh:
            if fh.readline() != head:
                self._old = False
                raise ValueError("the facts file was replaced")
            for line in fh:
                if line.startswith(_STORE_OPEN):
                    total.update(line[len(_STORE_OPEN):-_SUM_TAIL])
                    if line == last and not fh.read(1) and total.hexdigest() == _tail_sum(last):
                        return
                    break
                total.update(line)
                try:
                    got_kind, table = loads(line[1:-1] if line[:1] == b"," else line[:-1])
                except (ValueError, TypeError, RecursionError):
                    continue  # not a chunk: the sum decides at the end
                if got_kind != kind or table.__class__ is not dict:
                    continue
                out: dict[str, Any] = {}
                carried: dict[str, list] = {}
                for path, got in table.items():
                    if got.__class__ is list and len(got) == 2 and path in paths and got[0] == shas.get(path):
                        del paths[path]
                        out[path] = got[1]
                        carried[path] = got
                self._add(kind, carried)
                if out:
                    yield out
        self._old = False
        raise ValueError("the facts file is damaged")

    def put(self, kind: str, path: str, value: Any) -> None:
        """Record the fact ``kind`` (a JSON value) of the note at ``path``
        under the hash of its bytes (nothing for a note not read)."""
        sha = self._shas.get(path)
        if sha not in (None, "-"):
            self._add(kind, {path: [sha, value]})

    def get_store(self, kind: str) -> Any:
        """The store-level fact ``kind`` the previous check recorded, else
        ``None``: read from the first and last lines of its file (once), so
        it holds only if :meth:`each` then finds the file sound."""
        old = self._previous()
        return old[0].get(kind) if old else None

    def put_store(self, kind: str, value: Any) -> None:
        """Record the store-level fact ``kind`` (a JSON value) of this check."""
        self._add(kind, {"": ["", value]})

    def restart(self) -> None:
        """Forget every fact this check recorded so far (what :meth:`each`
        carried over included): a rule that took facts and then derives them
        all again records each once. In a ``--jobs`` worker, what it kept."""
        self._forked = {}
        if os.getpid() != self._pid or self._tmp == "":
            return
        self._drop()
        self._tmp, self._count, self._kind, self._store = None, 0, "", {}

    def _previous(self) -> Any:
        """:func:`_facts_ends` of the previous check's file, on the first
        call (a check whose rules ask for none never reads it); ``False``
        when there is none to use."""
        if self._old is None:
            self._old = (self._reuse and _facts_ends(self.text, self.ctx)) or False
        return self._old

    def worker_rows(self) -> dict[str, dict[str, list]]:
        """In a forked ``--jobs`` worker: kind -> rows it recorded (what
        :meth:`put`, :meth:`put_store` and the carrying-over of :meth:`each`
        gave; a store-level fact under the path ``""``), for its parent's
        :meth:`merge`; ``{}`` in the process that owns the file."""
        return self._forked if os.getpid() != self._pid else {}

    def merge(self, rows: Any) -> None:
        """Record ``rows`` (a worker's :meth:`worker_rows`) as if recorded
        here; anything else is ignored."""
        if isinstance(rows, dict):
            for kind, table in rows.items():
                if isinstance(kind, str) and isinstance(table, dict):
                    self._add(kind, table)

    def _add(self, kind: str, rows: dict[str, list]) -> None:
        if self._tmp == "" or not rows:
            return  # the file failed
        if os.getpid() != self._pid:  # a forked worker: its rows would interleave with the parent's in the file
            self._forked.setdefault(kind, {}).update(rows)
            return
        whole = rows.get("")
        if whole is not None:
            if whole.__class__ is list and len(whole) == 2:
                self._store[kind] = whole[1]
            rows = {path: row for path, row in rows.items() if path}
            if not rows:
                return
        if self._kind != kind:
            self._flush()
            self._kind = kind
        self._rows.update(rows)
        if len(self._rows) >= _CHUNK:
            self._flush()

    def _start(self) -> None:
        """Open the temporary file and write the header line. Raises :class:`OSError`."""
        path = _entry_path(self.text, "facts")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self._fh, self._tmp = _open_tmp(path)
        self._sum = _blake2b()(digest_size=16)
        self._fh.write(_json()[1]({"format": FORMAT, "stamp": code_stamp(), "slot": self.text, "ctx": self.ctx})[:-1]
                       + _ROWS_OPEN.decode("ascii"))

    def _flush(self) -> None:
        """Write the pending rows, a line of ``[kind, {path: [hash, fact]}]``
        for every few hundred (the JSON scanner then builds each table in C)."""
        rows, self._rows = self._rows, {}
        if not rows:
            return
        dumps = _json()[1]
        try:
            if self._fh is None:
                self._start()
            kind = dumps(self._kind)
            items = iter(rows.items())
            for _ in range(0, len(rows), _CHUNK):
                text = (("," if self._count else "") + "[" + kind + ","
                        + dumps(dict(islice(items, _CHUNK))) + "]\n")
                self._fh.write(text)
                self._sum.update(text.encode("ascii"))
                self._count += 1
        except (OSError, TypeError, ValueError):
            self._drop()

    def _drop(self) -> None:
        fh, tmp = self._fh, self._tmp
        self._fh, self._tmp, self._rows = None, "", {}
        if fh is not None:
            try:
                fh.close()
            except OSError:
                pass
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass

    def close(self, keep: bool = True) -> None:
        """Write what is left and rename the file into place (``keep``),
        or drop it (a check that failed); errors ignored. Afterwards the
        object records nothing."""
        if os.getpid() != self._pid:
            return
        if keep and self._tmp != "":
            self._flush()
        if keep and self._fh is None and self._tmp is None and self._store:
            try:
                self._start()
            except OSError:
                self._drop()
        if keep and self._fh is None and self._tmp is None:
            try:
                os.unlink(_entry_path(self.text, "facts"))  # nothing to record: no older facts left behind
            except OSError:
                pass
        if keep and self._fh is not None:
            try:
                store = _json()[1](self._store)
                self._sum.update(store.encode("ascii"))
                self._fh.write(f'{_STORE_OPEN.decode("ascii")}{store},"sum":"{self._sum.hexdigest()}"}}\n')
                self._fh.close()
                self._fh = None
                os.replace(self._tmp, _entry_path(self.text, "facts"))
                self._tmp = None
            except (OSError, TypeError, ValueError):
                pass
        self._drop()
        self._old = False


#: How a facts file's header line ends, and how its last line begins (:class:`Facts`).
_ROWS_OPEN = b',"rows":[\n'
_STORE_OPEN = b'],"store":'
#: How the last line ends after the store text: ``,"sum":"<32 hex digits>"}\n``.
_SUM_TAIL = len(',"sum":"') + 32 + len('"}\n')


def _tail_sum(last: bytes) -> str:
    """The sum a facts file's last line ends with (:data:`_SUM_TAIL`)."""
    return last[-_SUM_TAIL + len(',"sum":"'):-len('"}\n')].decode("ascii", "replace")


#: Most bytes of a facts file's last line (the store-level facts and the sum) that :func:`_facts_ends` reads.
_TAIL_MAX = 65536


def _facts_ends(text: str, ctx: str) -> tuple[dict[str, Any], bytes, bytes] | None:
    """``(kind -> store-level fact, the header line, the last line)`` of the
    facts file of the entry named after ``text`` (:class:`Facts` has its
    layout), when its header says this format, mmlint and code stamp, names
    ``text`` and context ``ctx``, and its last line is well formed; ``None``
    otherwise (a missing file too). Reads those two lines only (the last
    one from at most :data:`_TAIL_MAX` bytes before the end): whether the
    rows between hold their sum, :meth:`Facts.each` finds as it reads them."""
    loads = _json()[0]
    try:
        with open(_entry_path(text, "facts"), "rb") as fh:
            head = fh.readline()
            if not head.endswith(_ROWS_OPEN):
                return None
            meta = loads(head[:-len(_ROWS_OPEN)] + b"}")
            if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("slot") != text \
                    or meta.get("stamp") != code_stamp() or meta.get("ctx") != ctx:
                return None
            size = os.fstat(fh.fileno()).st_size
            start = max(len(head), size - _TAIL_MAX)
            fh.seek(start)
            end = fh.read()
        cut = end.rfind(b"\n", 0, len(end) - 1)
        if cut < 0 and start != len(head):
            return None  # a last line longer than _TAIL_MAX: not read
        last = end[cut + 1:]
        if not last.startswith(_STORE_OPEN) or not last.endswith(b'"}\n') or len(last) < len(_STORE_OPEN) + _SUM_TAIL:
            return None
        tail = loads(b"{" + last[2:-1])
        if not isinstance(tail, dict) or not isinstance(tail.get("store"), dict) or tail.get("sum") != _tail_sum(last):
            return None
        return tail["store"], head, last
    except (OSError, ValueError, TypeError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None


def reusable(pr: Probe, res: Any, shas: dict[str, str],
             note_ctx: str) -> tuple[dict[str, list], dict[str, list], list[str] | None]:
    """``(by note, by file, changed)``: the raw diagnostics recorded for the
    store of probe ``pr`` (its per-note table) that still hold: the note
    rules' for every note of ``res`` whose bytes are unchanged, when the
    table was recorded under the same ``note_ctx`` (:func:`note_context`);
    the file rules' for every file with the same bytes and kind, when
    recorded under the same :func:`file_context`. Empty when the entry is
    not trusted or the table is not of this mmlint. ``changed``: the notes
    of ``res`` (paths) whose bytes the table does not record, under any
    context (a note added or renamed is one; for :attr:`Facts.changed`),
    ``None`` without a table. For :class:`mmlint.rules.Partial`."""
    if not pr.trusted:
        return {}, {}, None
    side = _load(pr.text, "notes")
    if side is None:
        return {}, {}, None
    by_note: dict[str, list] = {}
    by_file: dict[str, list] = {}
    changed: list[str] | None = None
    try:
        table = side.get("note_diags")
        same = side.get("note_ctx") == note_ctx
        changed = [] if isinstance(table, dict) else None
        for n in res.store.notes if changed is not None else ():
            got = table.get(n.path)
            sha = shas.get(n.path)
            if sha in (None, "-") or got is None or (got if isinstance(got, str) else got[0]) != sha:
                changed.append(n.path)
            elif not same:
                continue
            elif isinstance(got, str):  # no findings: the hash alone
                by_note[n.path] = ()  # one shared empty tuple, not 20,000 empty lists
            else:
                by_note[n.path] = [_load_diag(x) for x in got[1]]
        if side.get("file_ctx") == file_context(res):
            table = side["file_diags"]
            for path, rec in res.store.files.items():
                got = table.get(path)
                sha = shas.get(path)
                if isinstance(got, str):  # no findings: "<hash> <kind>"
                    if sha not in (None, "-") and got == f"{sha} {rec.kind}":
                        by_file[path] = ()
                elif got is not None and sha not in (None, "-") and got[0] == sha and got[1] == rec.kind:
                    by_file[path] = [_load_diag(x) for x in got[2]]
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        return {}, {}, None
    return by_note, by_file, changed


def probe(found_path: str, dialect: str | None, profile: str | None, options: Any, config: str | None,
          isolated: bool) -> Probe:
    """A :class:`Probe` of the store at ``found_path`` for these command-line
    choices (see :func:`slot_text`)."""
    return Probe(found_path, slot_text(found_path, dialect, profile, options, config, isolated))


def result(found: Any, entry: dict[str, Any], with_evidence: bool = False) -> Any:
    """The :class:`mmlint.results.StoreResult` of a fresh entry: the recorded
    diagnostics, warnings, dialect and configuration file, ``cached`` set,
    and a summary store (:class:`Summary`). ``with_evidence`` rebuilds the
    detection evidence (importing the dialects); else it is ``None``."""
    from mmlint.results import StoreResult

    ev = None
    if with_evidence and entry["evidence"] is not None:
        from mmlint.dialects import Evidence

        ev = Evidence(*entry["evidence"])
    store = Summary(os.path.realpath(found.path), entry)
    return StoreResult(found, entry["dialect"], entry["profile"], ev, store, [_load_diag(x) for x in entry["diagnostics"]],
                       None, entry["config"], list(entry["warnings"]), cached=True)


class _Named:
    __slots__ = ("path",)

    def __init__(self, path: str):
        self.path = path


class Summary:
    """The store of a cached result: ``root``, ``dialect``, ``profile``;
    ``notes`` and ``index`` as objects with a ``path`` only; ``files`` a
    mapping of every file's path to its :class:`mmlint.model.FileRecord`,
    each read (bounded) on first access only, for reporters that quote
    lines (SARIF, baselines)."""

    def __init__(self, root: str, entry: dict[str, Any]):
        self.root = root
        self.dialect = entry["dialect"]
        self.profile = entry["profile"]
        self.notes = [_Named(p) for p in entry["notes"]]
        self.index = _Named(entry["index"]) if entry["index"] is not None else None
        hashes = entry["hashes"]
        if entry["unwalked"] or entry["walked_extra"]:
            hashes = dict(hashes)
        for rel in entry["unwalked"]:
            hashes.pop(rel, None)
        hashes.update(entry["walked_extra"])
        self.files = _LazyFiles(root, hashes)


class _LazyFiles(dict):
    """path -> FileRecord, read on first access (see :class:`Summary`)."""

    def __init__(self, root: str, hashes: dict[str, str | None]):
        super().__init__((rel, None) for rel in hashes)
        self._root = root
        self._sha = hashes

    def __getitem__(self, rel: str) -> Any:
        rec = super().__getitem__(rel)
        if rec is None:
            from mmlint.model import FileRecord

            sha = self._sha.get(rel)
            data = _read_inside(self._root, rel) if sha not in (None, "-") else None
            if data is not None and _sha(data) != sha:
                data = None  # changed since the check: quote nothing rather than the wrong text
            rec = FileRecord(rel, "file" if data is not None else "unreadable", size=len(data or b""), data=data)
            super().__setitem__(rel, rec)
        return rec

    def get(self, rel: str, default: Any = None) -> Any:
        return self[rel] if rel in self else default

    def values(self):  # type: ignore[override]
        return [self[k] for k in self]

    def items(self):  # type: ignore[override]
        return [(k, self[k]) for k in self]


def _dump(d: Any) -> list:
    s = d.span
    edits = None
    if d.edits is not None:
        import base64

        edits = {p: base64.b64encode(b).decode("ascii") for p, b in d.edits.items()}
    return [d.code, d.name, d.severity, [s.path, s.line, s.column, s.end_line, s.end_column], d.message, d.hint,
            d.fix, edits, d.anchor]


def _load_diag(x: list) -> Any:
    from mmlint.diagnostic import Diagnostic
    from mmlint.span import Span

    edits = x[7]
    if edits is not None:
        import base64

        edits = {p: base64.b64decode(b) for p, b in edits.items()}
    return Diagnostic(x[0], x[1], x[2], Span(*x[3]), x[4], x[5], x[6], edits, x[8])


def _load(text: str, part: str = "") -> dict[str, Any] | None:
    """The entry named after ``text`` (or its ``part``) when it is of this
    format, version and code and names ``text``; ``None`` otherwise (or when
    it cannot be read)."""
    try:
        with open(_entry_path(text, part), "rb") as fh:
            body = fh.read().decode("utf-8")  # not the bytes beside the text and the parsed value (~2.4 MB at 20,000 notes)
        data = _json()[0](body)
        del body
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("slot") != text \
                or data.get("stamp") != code_stamp():
            return None
        if part:
            return data
        for key, kind in (("files", dict), ("hashes", dict), ("folders", dict), ("errors", list), ("config_files", list),
                          ("diagnostics", list), ("notes", list), ("warnings", list), ("scan_ns", int), ("racy", list),
                          ("unwalked", list), ("walked_extra", dict), ("looked", list)):
            if not isinstance(data.get(key), kind):
                return None
        return data
    except (OSError, ValueError, RecursionError):
        return None


#: Items of a top-level mapping or list encoded by one ``json.dumps`` call
#: in :func:`_json_pieces` (the encoder holds every token of what it
#: encodes: ~0.45 KiB an entry file row, so 500 rows take ~0.2 MiB).
_CHUNK = 500


def _json_pieces(payload: dict[str, Any], chunk: int | None = None) -> Iterator[str]:
    """``json.dumps(payload, ensure_ascii=True, separators=(",", ":"))`` as
    consecutive pieces whose concatenation is that very text: a top-level
    value that is a mapping or list of more than ``chunk`` items, or a
    :class:`Rows` (encoded as the mapping of its pairs), is encoded
    ``chunk`` items at a time, so that writing an entry of 20,000 files
    holds one piece of text, not the whole document and the encoder's
    tokens for it (~7 MiB at 20,000 notes)."""
    chunk = chunk or _CHUNK
    dumps = _json()[1]
    yield "{"
    for n, (key, value) in enumerate(payload.items()):
        head = ("," if n else "") + dumps(key) + ":"
        if isinstance(value, list) and len(value) > chunk:  # the encoder holds a token per item
            yield head + "["
            for start in range(0, len(value), chunk):
                yield ("," if start else "") + dumps(value[start:start + chunk])[1:-1]
            yield "]"
            continue
        if isinstance(value, Raw):
            yield head + "{"
            yield from value.pieces
            yield "}"
            continue
        if isinstance(value, Rows):
            items = iter(value.items())
        elif isinstance(value, dict) and len(value) > chunk:
            items = iter(value.items())
        else:
            yield head + dumps(value)
            continue
        yield head + "{"
        first = True
        while True:
            part = dict(islice(items, chunk))
            if not part:
                break
            yield ("" if first else ",") + dumps(part)[1:-1]
            first = False
        yield "}"
    yield "}"


def _open_tmp(path: str) -> tuple[Any, str]:
    """``(text file, its path)``: a new temporary file beside ``path``,
    readable by its owner only. The name is made here, not by
    :mod:`tempfile` (which imports :mod:`shutil`, :mod:`random`, bz2 and
    lzma: +2.4 MiB of peak RSS). Raises :class:`OSError`."""
    tmp = os.path.join(os.path.dirname(path), f".tmp-{os.getpid()}-{os.urandom(6).hex()}.json")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    return os.fdopen(fd, "w", encoding="utf-8", newline=""), tmp  # "\n" written as is on every platform


def _write(text: str, payload: dict[str, Any], part: str = "") -> None:
    """Write an entry (or its ``part``) atomically (a unique temporary file,
    then a rename, :func:`_open_tmp`); errors ignored."""
    path = _entry_path(text, part)
    try:
        top = cache_dir()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        for name, body in (("CACHEDIR.TAG", _TAG), (".gitignore", "# Created by mmlint: the whole folder is a cache.\n*\n")):
            marker = os.path.join(top, name)
            if not os.path.exists(marker):
                with open(marker, "w", encoding="utf-8") as fh:
                    fh.write(body)
        fh, tmp = _open_tmp(path)
        try:
            with fh:
                for piece in _json_pieces(payload):
                    fh.write(piece)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, TypeError, ValueError):
        pass
