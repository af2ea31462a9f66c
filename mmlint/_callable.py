"""Modules that are also the public function of the same name.

``mmlint.convert`` is both the conversion module and the public function
``mmlint.convert(src, dst, to=...)``: importing a submodule binds its name on
the package, so a plain function of that name would be replaced as soon as
anything imports the module. :func:`make_callable` makes the module itself
callable instead; calling it calls the public function.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import importlib

        module, _, name = self.__dict__["__mmlint_call__"].rpartition(".")
        return getattr(importlib.import_module(module), name)(*args, **kwargs)


def make_callable(module_name: str, target: str) -> None:
    """Make ``sys.modules[module_name]`` callable as ``target``
    (``"package.module.function"``, imported on the first call)."""
    mod = sys.modules[module_name]
    mod.__dict__["__mmlint_call__"] = target
    mod.__class__ = _CallableModule
