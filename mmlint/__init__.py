"""mmlint: read, lint and convert agent memory stores.

A store is a folder holding an index (``MEMORY.md``) and one markdown note per
memory, written in one of three dialects: ``mm`` (Memory Standard v1),
``engramory`` (profiles ``recall-v1``, ``upstream``, ``claude-code``) and
``workspace`` (per-workspace ``./memory/`` stores).

Importing this package is cheap: the heavy libraries (jsonschema, rich,
ruamel.yaml, markdown-it-py) are imported only by the code paths that need them.
"""

__version__ = "0.1.0"
