"""Plain value classes with the repr and equality of a dataclass, built at no
import cost.

``@dataclass`` writes each class's ``__init__``, ``__repr__`` and ``__eq__``
as source text and compiles it when the module is imported: ~0.4 ms a class,
a tenth of a cold check of a small store once thirty classes are on its
import path. A class on that path instead derives from :class:`Record` (or
:class:`Frozen`), writes its ``__init__`` by hand (compiled into the byte
code cache like any function) and names its fields:

- ``_fields``: the fields in dataclass order, shown by ``repr``
  (``Name(a=1, b='x')``, as a dataclass shows them);
- ``_compare`` (default: ``_fields``): the fields ``==`` compares, as a
  tuple, only between instances of the very same class (else
  ``NotImplemented``), as a dataclass's ``__eq__`` does.

A :class:`Record` is unhashable (a dataclass with ``eq`` and without
``frozen``); a :class:`Frozen` refuses attribute assignment after
``__init__`` (which sets its fields with ``object.__setattr__``; ``copy``
and ``pickle`` restore them likewise) and hashes the ``_compare`` tuple. ``tests/test_records.py`` holds every such class to
the dataclass it replaces.
"""

from __future__ import annotations


TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Frozen", "FrozenError", "Record"]


class FrozenError(AttributeError):
    """Assignment to a field of a :class:`Frozen` instance."""


class Record:
    """Base of a plain value class (see the module docs)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _compare: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def _key(self) -> tuple:
        names = self._fields if self._compare is None else self._compare
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - mutable: unhashable, as a dataclass with eq


class Frozen(Record):
    """A :class:`Record` whose fields cannot be reassigned; hashable."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self._key())

    def __setstate__(self, state: Any) -> None:
        # copy and pickle restore fields through here, not through __setattr__
        attrs, slots = state if isinstance(state, tuple) else (state, None)
        for mapping in (attrs, slots):
            for name, value in (mapping or {}).items():
                object.__setattr__(self, name, value)
