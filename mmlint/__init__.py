"""mmlint: read, lint, convert and merge agent memory stores.

A store is a folder holding an index (``MEMORY.md``) and one markdown note per
memory, written in one of three dialects: ``mm`` (Memory Standard v1),
``engramory`` (profiles ``recall-v1``, ``upstream``, ``claude-code``) and
``workspace`` (per-workspace ``./memory/`` stores).

The public API (``docs/api.md``)::

    import mmlint
    store = mmlint.read_store("path/to/memory")
    for d in mmlint.lint(store, select=["P", "H"]):
        print(d.span.path, d.span.line, d.code, d.message)

``read_store``, ``lint``, ``convert``, ``merge``, ``merge_index``, ``dump``
and the exceptions ``MmlintError``, ``CheckError``, ``Refused`` are loaded
on first use (module ``__getattr__``), so importing this package is cheap:
the heavy libraries (jsonschema, rich, ruamel.yaml, markdown-it-py) are
imported only by the code paths that need them.
"""

TYPE_CHECKING = False  # ``--version`` imports no typing

__version__ = "0.1.0"

#: Public name -> module that defines it.
_EXPORTS = {
    "read_store": "mmlint.public", "lint": "mmlint.public", "merge": "mmlint.public",
    "merge_index": "mmlint.public", "dump": "mmlint.public",
    "MmlintError": "mmlint.errors", "CheckError": "mmlint.errors", "Refused": "mmlint.errors",
    "Store": "mmlint.model", "Note": "mmlint.model", "Entry": "mmlint.model", "Index": "mmlint.model", "Span": "mmlint.model",
    "Diagnostic": "mmlint.rules",
}

__all__ = ["__version__", "convert", *_EXPORTS]

if TYPE_CHECKING:
    from typing import Any

    from mmlint.errors import CheckError, MmlintError, Refused
    from mmlint.model import Entry, Index, Note, Span, Store
    from mmlint.public import convert, dump, lint, merge, merge_index, read_store  # noqa: F811
    from mmlint.rules import Diagnostic


def __getattr__(name: str) -> "Any":
    # asked for every submodule a ``from mmlint import <submodule>`` has not imported yet, so the
    # answer (AttributeError) comes without importing anything; __import__ is importlib.import_module
    # for an absolute name, without importing importlib (and warnings)
    import sys

    if name == "convert":
        # the module mmlint.convert is callable as the public function (mmlint._callable)
        __import__("mmlint.convert")
        return sys.modules["mmlint.convert"]
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mmlint' has no attribute {name!r}")
    __import__(module)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_EXPORTS))
