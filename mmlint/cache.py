"""The result cache: a check of an unchanged store reuses its diagnostics.

Modelled on ruff's ``.ruff_cache`` (``../shared/research/linter-anchors.md``
§1.1), with one difference of place: a store is often read-only, or someone
else's, and mmlint never writes into what is not its own, so the cache lives
under the user's cache home, not in the store:

* ``$MMLINT_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/mmlint``, else
  ``~/.cache/mmlint``;
* the folder holds a ``CACHEDIR.TAG`` (backup tools skip it) and a
  ``.gitignore`` of ``*`` (harmless if it is put inside a repository);
* one JSON file per store and settings (as ruff keys on package root and
  settings) under ``<version>/<sha256 of store root, configuration path,
  dialect, profile and options>.json``; deleting any of it at any time is
  safe (the next check recomputes and rewrites it). Entries of other
  versions are never read.

An entry is trusted only when its key matches exactly. The key hashes the
mmlint version **and the size and modification time of every file of mmlint
itself** (so an edited checkout never reuses results of other code), the
dialect, profile and options (the configuration with the command line on
top), the configuration file's bytes, and, for every file of the store, its
path, its kind as the walk saw it and the SHA-256 of its content (or why it
could not be read), plus the folders not walked. Anything different means a
miss: the store is read and linted in full and the entry rewritten.

A hit gives the diagnostics exactly as a full run computed them (a test
checks cached and uncached runs side by side, including after a file
changes). ``--no-cache`` neither reads nor writes the cache; ``--fix`` and
``--diff`` bypass it, since they need the full model. A cache folder that
cannot be written is ignored silently: the cache is an optimisation only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from typing import Any

from mmlint import __version__

#: The cache entry format; bumped when the JSON shape changes.
FORMAT = 1
_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
        "# This file is a cache directory tag created by mmlint.\n"
        "# For information about cache directory tags see https://bford.info/cachedir/\n")


def cache_dir() -> str:
    """The cache folder (see the module docs); it may not exist yet."""
    env = os.environ.get("MMLINT_CACHE_DIR")
    if env:
        return os.path.abspath(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mmlint")


def _code_stamp() -> str:
    """Size and mtime (ns) of every file of the mmlint package and its
    schemas: a changed checkout is a different program."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = []
    for base in (here, os.path.join(os.path.dirname(here), "schemas")):
        for dirpath, dirnames, files in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".json")):
                    try:
                        st = os.stat(os.path.join(dirpath, name))
                    except OSError:
                        continue
                    parts.append(f"{os.path.relpath(os.path.join(dirpath, name), here)}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _options_text(options: Any) -> str:
    """A stable text of :class:`mmlint.rules.Options`."""
    if options is None:
        return "None"
    pis = sorted((pi.base, pi.pattern, sorted(pi.codes)) for pi in options.per_path_ignores)
    return repr((sorted(options.select), sorted(options.ignore), sorted(options.severity.items()),
                 sorted(options.caps.items()), pis))


def fingerprint(walk: Any, dialect: str, profile: str | None, options: Any, config: str | None) -> str:
    """The key of one check (see the module docs): hex SHA-256.

    ``walk`` is a :class:`mmlint.walk.Walk` of the store read with contents.
    """
    h = hashlib.sha256()
    h.update(f"mmlint {__version__} cache {FORMAT}\0{_code_stamp()}\0{walk.root}\0{dialect}\0{profile}\0".encode("utf-8", "surrogateescape"))
    h.update(_options_text(options).encode("utf-8", "surrogateescape") + b"\0")
    if config:
        try:
            with open(config, "rb") as fh:
                h.update(hashlib.sha256(fh.read()).digest())
        except OSError as exc:
            h.update(f"unreadable config {exc}".encode("utf-8", "surrogateescape"))
    h.update(b"\0")
    for rel, rec in walk.files.items():
        digest = hashlib.sha256(rec.data).hexdigest() if rec.data is not None else "-"
        h.update(f"{rel}\0{rec.kind}\0{rec.size}\0{digest}\0{rec.reason}\n".encode("utf-8", "surrogateescape"))
    for rel, reason in walk.skipped_dirs:
        h.update(f"dir {rel}\0{reason}\n".encode("utf-8", "surrogateescape"))
    for rel, msg in walk.errors:
        h.update(f"err {rel}\0{msg}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def slot(root: str, dialect: str, profile: str | None, options: Any, config: str | None) -> str:
    """The name of the entry of one store under one set of settings."""
    text = f"{root}\0{config}\0{dialect}\0{profile}\0{_options_text(options)}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _entry_path(name: str) -> str:
    return os.path.join(cache_dir(), __version__, name + ".json")


def _dump(d: Any) -> dict[str, Any]:
    s = d.span
    return {"code": d.code, "name": d.name, "severity": d.severity,
            "span": [s.path, s.line, s.column, s.end_line, s.end_column], "message": d.message, "hint": d.hint,
            "fix": d.fix, "anchor": d.anchor,
            "edits": None if d.edits is None else {p: base64.b64encode(b).decode("ascii") for p, b in d.edits.items()}}


def _load(x: dict[str, Any]) -> Any:
    from mmlint.model import Span
    from mmlint.rules import Diagnostic

    edits = None if x["edits"] is None else {p: base64.b64decode(b) for p, b in x["edits"].items()}
    return Diagnostic(x["code"], x["name"], x["severity"], Span(*x["span"]), x["message"], x["hint"], x["fix"],
                      edits, x["anchor"])


def load(name: str, key: str) -> dict[str, Any] | None:
    """The cached result in entry ``name`` (:func:`slot`) for ``key``: ``{"diagnostics": [Diagnostic],
    "notes": [path], "index": path or None}``, or ``None`` (no entry, another
    key, or an entry that cannot be read)."""
    try:
        with open(_entry_path(name), "r", encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        return {"diagnostics": [_load(x) for x in data["diagnostics"]], "notes": list(data["notes"]), "index": data["index"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(name: str, key: str, store: Any, diagnostics: list) -> None:
    """Record the result of a full check in entry ``name`` under ``key``
    (atomically; errors ignored)."""
    path = _entry_path(name)
    payload = {"format": FORMAT, "key": key, "diagnostics": [_dump(d) for d in diagnostics],
               "notes": [n.path for n in store.notes], "index": store.index.path if store.index is not None else None}
    try:
        top = cache_dir()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", "# Created by mmlint: the whole folder is a cache.\n*\n")):
            marker = os.path.join(top, name)
            if not os.path.exists(marker):
                with open(marker, "w", encoding="utf-8") as fh:
                    fh.write(text)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, ensure_ascii=True)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass
