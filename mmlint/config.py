"""Configuration files: where they are, what they may say, what they mean.

A configuration is the ``[tool.mmlint]`` table of a ``pyproject.toml`` or the
top level of an ``mmlint.toml`` / ``.mmlint.toml``. For each store, mmlint
looks in the store folder and then in each parent up to the file-system
root; the nearest folder holding a configuration wins (``.mmlint.toml``
before ``mmlint.toml`` before a ``pyproject.toml`` with an ``mmlint`` table;
a ``pyproject.toml`` without one is passed over). Nothing is merged
implicitly: ``extend = "path"`` inherits another file, whose keys this file
overrides (``select``, ``ignore``, ``dialect``, ``profile``, ``jobs`` replace;
``severity``, ``caps``, ``hygiene`` and ``per-path-ignores`` merge key by key).

Keys are described by ``schemas/config.json`` (draft 2020-12), which every
file is validated against; rule codes, dialects and profiles are checked
after that. Any problem is a :class:`ConfigError` naming the file and the
dotted key (exit status 2). Relative paths (``extend``, ``per-path-ignores``
globs) are relative to the folder of the file that declares them.

The command line sits on top (:meth:`Config.options`): ``--select``
replaces the configured selection, ``--ignore`` adds to the ignores,
``--dialect``/``--profile``/``--jobs`` replace theirs; ``--isolated`` reads no file and
``--config FILE`` reads that one only. tomllib (tomli before Python 3.11) is
imported only when a candidate file exists, and a ``pyproject.toml`` that
does not mention ``mmlint`` is not parsed at all.
"""

from __future__ import annotations

import os
import re

from mmlint._record import Frozen, Record
from mmlint.errors import CheckError

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: Candidate file names in one folder, strongest first.
NAMES = (".mmlint.toml", "mmlint.toml", "pyproject.toml")
#: Largest configuration file read, in bytes.
MAX_BYTES = 1024 * 1024
#: Longest ``extend`` chain.
MAX_EXTEND = 16
SCHEMA = "config"


class ConfigError(CheckError):
    """An unreadable or invalid configuration file (exit status 2)."""

    def __init__(self, path: str, key: str | None, problem: str):
        where = f"{path}: {key}: " if key else f"{path}: "
        super().__init__(f"configuration error: {where}{problem}")
        self.path = path
        self.key = key


class PathIgnore(Frozen):
    """Rules to skip in the files a glob matches.

    Attributes:
        base: absolute folder the glob is relative to (the declaring file's).
        pattern: the glob as written: ``*`` and ``?`` stay within a path
            segment, ``**`` spans segments, ``[...]`` is a character class;
            a glob without ``/`` matches a file name at any depth.
        codes: rule selectors (codes, names, code prefixes).
    """

    __slots__ = ("base", "pattern", "codes", "regex")
    _fields = ("base", "pattern", "codes")  # ``regex`` (the compiled glob) is neither shown nor compared

    def __init__(self, base: str, pattern: str, codes: frozenset[str], regex: Any = None) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "base", base)
        setattr_(self, "pattern", pattern)
        setattr_(self, "codes", codes)
        setattr_(self, "regex", glob_regex(pattern))  # whatever ``regex`` says, as the dataclass's __post_init__ did

    def matches(self, path: str) -> bool:
        """Whether the absolute file ``path`` is one the glob names."""
        if "/" not in self.pattern:
            return self.regex.fullmatch(os.path.basename(path)) is not None
        rel = os.path.relpath(path, self.base).replace(os.sep, "/")
        return not rel.startswith("../") and rel != ".." and self.regex.fullmatch(rel) is not None


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A compiled regex for ``pattern`` (see :class:`PathIgnore`), matched
    against POSIX relative paths with ``fullmatch``."""
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and _class_end(pattern, i) > 0:
            j = _class_end(pattern, i)
            body = pattern[i + 1 : j].replace("\\", "\\\\").replace("[", "\\[")
            if body.startswith("!"):
                body = "^" + body[1:]
            elif body.startswith("^"):
                body = "\\" + body
            out.append("[" + body + "]")
            i = j + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out))


def _class_end(pattern: str, i: int) -> int:
    """Index of the ``]`` closing the class opened at ``i`` (-1: none; a
    ``]`` right after ``[`` or ``[!`` is a member, as in fnmatch)."""
    start = i + 1
    if pattern[start : start + 1] == "!":
        start += 1
    if pattern[start : start + 1] == "]":
        start += 1
    return pattern.find("]", start)


class Config(Record):
    """A configuration after ``extend``: the keys of the schema, checked.

    ``path`` is the file it came from (``None``: no file applies);
    ``severity`` keys are rule codes; ``select`` is ``None`` when not set.
    """

    __slots__ = _fields = ("path", "select", "ignore", "per_path_ignores", "severity", "dialect", "profile", "caps",
                           "hygiene", "jobs", "extended")

    def __init__(self, path: str | None = None, select: list[str] | None = None, ignore: list[str] | None = None,
                 per_path_ignores: list[PathIgnore] | None = None, severity: dict[str, str] | None = None,
                 dialect: str | None = None, profile: str | None = None, caps: dict[str, int] | None = None,
                 hygiene: dict[str, Any] | None = None, jobs: int | None = None,
                 extended: list[str] | None = None) -> None:
        # ``None`` for a list or dict field: a fresh empty one
        self.path = path
        self.select = select
        self.ignore = [] if ignore is None else ignore
        self.per_path_ignores = [] if per_path_ignores is None else per_path_ignores
        self.severity = {} if severity is None else severity
        self.dialect = dialect
        self.profile = profile
        self.caps = {} if caps is None else caps
        self.hygiene = {} if hygiene is None else hygiene
        #: ``jobs`` (0 = automatic), ``None`` when not configured (serial)
        self.jobs = jobs
        #: the absolute paths of the files ``path`` extends (directly or not),
        #: nearest first; empty without ``extend`` (the result cache records them)
        self.extended = [] if extended is None else extended

    def options(self, cli: Any = None) -> Any:
        """:class:`mmlint.rules.Options` for this configuration with the
        command line's ``cli`` options on top (see module docs)."""
        from mmlint.rules import Options

        cli = cli or Options()
        return Options(select=set(cli.select) if cli.select else set(self.select or ()),
                       ignore=set(self.ignore) | set(cli.ignore),
                       severity={**self.severity, **cli.severity},
                       caps={**self.caps, **cli.caps},
                       per_path_ignores=list(self.per_path_ignores) + list(cli.per_path_ignores),
                       hygiene={**self.hygiene, **getattr(cli, "hygiene", {})},
                       jobs=cli.jobs if getattr(cli, "jobs", None) is not None else self.jobs)

    def store_choice(self, dialect: str | None, profile: str | None) -> tuple[str | None, str | None]:
        """The ``(dialect, profile)`` to read a store with: the command
        line's when given, else this configuration's. A configured profile
        is dropped when the command line names another dialect."""
        if dialect is not None and self.dialect not in (None, dialect):
            return dialect, profile
        return dialect or self.dialect, profile or self.profile


def find(start: str) -> str | None:
    """The nearest configuration file for a store at folder ``start``, or
    ``None``. Reads (a little of) a ``pyproject.toml`` only to tell whether
    it has an ``mmlint`` table."""
    folder = os.path.abspath(start)
    while True:
        for name in NAMES:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and (name != "pyproject.toml" or _has_table(path)):
                return path
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_table(path: str) -> bool:
    data = _read(path)
    if b"mmlint" not in data:
        return False
    tool = _parse(path, data).get("tool")
    return isinstance(tool, dict) and "mmlint" in tool


def for_store(root: str, config_file: str | None = None, isolated: bool = False,
              cache: dict[str, Config] | None = None) -> Config:
    """The configuration that applies to the store at ``root``.

    Args:
        config_file: ``--config``: use this file only.
        isolated: ``--isolated``: use no file.
        cache: loaded configurations by path, shared between the stores of one run.

    Raises:
        ConfigError: unreadable or invalid file; both ``config_file`` and ``isolated``.
    """
    if isolated and config_file:
        raise CheckError("--config and --isolated exclude each other: --isolated reads no configuration")
    if isolated:
        return Config()
    path = os.path.abspath(config_file) if config_file else find(root)
    if path is None:
        return Config()
    if cache is not None and path in cache:
        return cache[path]
    conf = load(path, confine=None if config_file else _tree_holding(root, path))
    if cache is not None:
        cache[path] = conf
    return conf


def _tree_holding(root: str, path: str) -> str | None:
    """The real store ``root`` when the discovered configuration ``path``
    lies inside it (untrusted: it came with the store), else ``None`` (a
    file of the project around the store)."""
    from mmlint.walk import inside

    real_root = os.path.realpath(root)
    return real_root if inside(real_root, os.path.abspath(os.path.dirname(path))) else None


def load(path: str, confine: str | None = None) -> Config:
    """Read, validate and resolve the configuration file ``path``.

    Args:
        confine: for a file found inside a checked store (untrusted), that
            store's real root: the file and every file it extends must
            resolve inside it, so ``extend`` to an absolute path, a ``~``
            path or one that climbs out (``..``, a symlink) is an error.
            ``None`` for a file the user named or one found above the store.

    Raises:
        ConfigError: see module docs.
    """
    path = os.path.abspath(path)
    if confine is not None:
        _check_confined(path, None, path, confine)
    read: list[str] = []
    raw = _resolve(path, [], confine, read)
    conf = Config(path=path, extended=read[1:])
    conf.select = raw.get("select")
    conf.ignore = raw.get("ignore", [])
    conf.dialect = raw.get("dialect")
    conf.profile = raw.get("profile")
    conf.caps = raw.get("caps", {})
    conf.hygiene = raw.get("hygiene", {})
    conf.jobs = raw.get("jobs")
    conf.severity = raw.get("severity", {})
    conf.per_path_ignores = [PathIgnore(base, pattern, frozenset(codes)) for (base, pattern), codes in raw.get("per-path-ignores", {}).items()]
    if conf.dialect and conf.profile:
        _check_profile(conf.path, _prefix(path) + "profile", conf.dialect, conf.profile)
    return conf


def _read(path: str) -> bytes:
    from mmlint.walk import read_bounded

    data, size, err = read_bounded(path, MAX_BYTES)
    if data is None and size > MAX_BYTES:
        raise ConfigError(path, None, f"file is over {MAX_BYTES} bytes; not a configuration")
    if data is None:
        raise ConfigError(path, None, f"cannot read: {err}")
    return data


def _parse(path: str, data: bytes) -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, None, f"not valid TOML: not UTF-8 (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, None, f"not valid TOML: {exc}") from None


def _table(path: str, doc: dict[str, Any]) -> dict[str, Any]:
    """The mmlint settings of a parsed file: the whole document, or a
    ``pyproject.toml``'s ``[tool.mmlint]`` table (which must exist: a
    pyproject without one is only skipped by discovery)."""
    if os.path.basename(path) != "pyproject.toml":
        return doc
    tool = doc.get("tool")
    if not isinstance(tool, dict) or "mmlint" not in tool:
        raise ConfigError(path, "tool.mmlint", "no [tool.mmlint] table in this file")
    if not isinstance(tool["mmlint"], dict):
        raise ConfigError(path, "tool.mmlint", f"must be a table, got {type(tool['mmlint']).__name__}")
    return tool["mmlint"]


def _prefix(path: str) -> str:
    return "tool.mmlint." if os.path.basename(path) == "pyproject.toml" else ""


def _check_confined(path: str, key: str | None, target: str, confine: str) -> None:
    """Raise :class:`ConfigError` unless ``target`` resolves inside ``confine``."""
    from mmlint.walk import inside

    if not inside(confine, os.path.realpath(target)):
        raise ConfigError(path, key, f"{target} resolves outside the store {confine}; a configuration inside a "
                                     "store may only use files inside it")


def _resolve(path: str, chain: list[str], confine: str | None = None, read: list[str] | None = None) -> dict[str, Any]:
    """One file's checked settings merged over what it extends. Internal
    shape: ``per-path-ignores`` keyed by ``(base, glob)``, ``severity`` by
    rule code. ``read``, when given, gets every file read, in order."""
    if path in chain:
        raise ConfigError(chain[-1], _prefix(chain[-1]) + "extend", "extend cycle: " + " -> ".join(chain + [path]))
    if len(chain) >= MAX_EXTEND:
        raise ConfigError(path, None, f"extend chain longer than {MAX_EXTEND} files")
    if read is not None:
        read.append(path)
    table = _table(path, _parse(path, _read(path)))
    own = _check(path, table)
    if "extend" not in table:
        return own
    key = _prefix(path) + "extend"
    if confine is not None:
        if os.path.isabs(table["extend"]) or table["extend"].startswith("~"):
            raise ConfigError(path, key, f"{table['extend']!r} is an absolute path; a configuration inside a store "
                                         "may only extend a file inside it, by a relative path")
        target = os.path.join(os.path.dirname(path), table["extend"])
        _check_confined(path, key, target, confine)
    else:
        target = os.path.join(os.path.dirname(path), os.path.expanduser(table["extend"]))
    if not os.path.isfile(target):
        raise ConfigError(path, key, f"no file at {target}")
    base = _resolve(os.path.abspath(target), chain + [path], confine, read)
    merged = dict(base)
    for key, value in own.items():
        merged[key] = {**base.get(key, {}), **value} if key in ("severity", "caps", "per-path-ignores", "hygiene") else value
    return merged


def _check(path: str, table: dict[str, Any]) -> dict[str, Any]:
    """Validate one file's table; return it in the internal shape."""
    from mmlint import rules
    from mmlint.validate import validate

    pre = _prefix(path)
    errors = validate(SCHEMA, table)
    if errors:
        e = errors[0]
        key = pre + re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", ".".join(e.pointer.strip("/").split("/")))
        message = e.message
        top = e.pointer.strip("/")
        if e.keyword in ("oneOf", "anyOf") and top and "/" not in top:
            # "... is not valid under any of the given schemas" says nothing of what is: the key's own words do
            from mmlint.validate import load_schema

            said = load_schema(SCHEMA).get("properties", {}).get(top, {}).get("description")
            if said:
                message = f"{message.split(' is not valid', 1)[0]} is not allowed here: {said}"
        if e.keyword == "additionalProperties" and "/" not in e.pointer.strip("/"):
            from mmlint.suggest import did_you_mean

            message += f"{did_you_mean(e.pointer.strip('/'), _known_keys())}; known keys: {', '.join(sorted(_known_keys()))}"
        raise ConfigError(path, key, message)
    out: dict[str, Any] = {}
    for key in ("select", "ignore"):
        if key in table:
            _known_rules(path, pre + key, table[key])
            out[key] = list(table[key])
    folder = os.path.dirname(path)
    if "per-path-ignores" in table:
        out["per-path-ignores"] = {}
        for pattern, codes in table["per-path-ignores"].items():
            _known_rules(path, f"{pre}per-path-ignores.{pattern}", codes)
            out["per-path-ignores"][(folder, pattern)] = list(codes)
    if "severity" in table:
        out["severity"] = {}
        for name, sev in table["severity"].items():
            r = rules.lookup(name)
            if r is None:
                from mmlint.suggest import did_you_mean, rule_names

                raise ConfigError(path, f"{pre}severity.{name}",
                                  f"unknown rule {name!r}{did_you_mean(name, rule_names())}; 'mmlint rules' lists them")
            out["severity"][r.code] = sev
    if "dialect" in table:
        from mmlint import dialects

        try:
            dialects.get(table["dialect"])
        except dialects.UnknownDialect as exc:
            raise ConfigError(path, pre + "dialect", str(exc)) from None
        out["dialect"] = table["dialect"]
    if "profile" in table:
        _check_profile(path, pre + "profile", table.get("dialect"), table["profile"])
        out["profile"] = table["profile"]
    if "caps" in table:
        out["caps"] = dict(table["caps"])
    if "hygiene" in table:
        out["hygiene"] = dict(table["hygiene"])
    if "jobs" in table:
        jobs = table["jobs"]
        # JSON Schema's "integer" takes 2.0 too; TOML keeps it a float, which no count of processes is
        if jobs != "auto" and (type(jobs) is not int or jobs < 0):
            raise ConfigError(path, pre + "jobs", f"expected \"auto\" or a whole number of processes (0 = auto), not {jobs!r}")
        out["jobs"] = 0 if jobs == "auto" else jobs
    return out


def _known_keys() -> list[str]:
    from mmlint.validate import load_schema

    return list(load_schema(SCHEMA)["properties"])


def _known_rules(path: str, key: str, selectors: list[str]) -> None:
    from mmlint import rules

    unknown = rules.unknown_selectors(selectors)
    if unknown:
        from mmlint.suggest import did_you_mean, rule_names

        raise ConfigError(path, key, f"unknown rule {unknown[0]!r}{did_you_mean(unknown[0], rule_names())} "
                                     "(codes, names or code prefixes; 'mmlint rules' lists them)")


def _check_profile(path: str, key: str, dialect: str | None, profile: str) -> None:
    from mmlint import dialects

    names = [dialect] if dialect else dialects.names()
    if any(profile in dialects.get(n).PROFILES for n in names):
        return
    from mmlint.suggest import did_you_mean

    known = sorted({p for n in names for p in dialects.get(n).PROFILES})
    what = f"dialect {dialect!r} has no profile {profile!r}" if dialect else f"no dialect has a profile {profile!r}"
    raise ConfigError(path, key, f"{what}{did_you_mean(profile, known)}; profiles: {', '.join(known) or 'none'}")
