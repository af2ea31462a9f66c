"""``--format github``: GitHub Actions workflow commands, one per diagnostic.

Each line is::

    ::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE name::MESSAGE

with ``warning`` for warnings and ``notice`` for infos. ``endLine`` and
``endColumn`` appear only when the rule gave an end (without them GitHub
marks the line from ``col``). ``PATH`` is relative to the current directory; run from
the repository root so GitHub can place the annotation on the file.

Escaping follows the Actions toolkit: in the message ``%`` -> ``%25``, CR ->
``%0D``, LF -> ``%0A``; in property values additionally ``:`` -> ``%3A`` and
``,`` -> ``%2C``. So no store text can end an annotation early or start a new
command. Characters other tools read as line breaks though the runner does not
(VT, FF, the ``\\x1c``-``\\x1e`` separators, NEL, U+2028, U+2029) and
file-name bytes that are not UTF-8 are written as ``\\xNN``/``\\uNNNN`` text, so
the output is valid UTF-8 with exactly one line per annotation. Every other
control character (ESC, so no escape sequence reaches the log), DEL, the C1
controls and the bidi controls are written as ``\\xNN``/``\\uNNNN`` text too.
"""

from __future__ import annotations

import re

from mmlint.reporters import Located, Reporter, escape_chars, located

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
#: Controls other than CR and LF (which are %-encoded), bidi controls and surrogates: written as text.
_UNSAFE = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                     "\ufeff\ud800-\udfff]")


def escape_data(text: str) -> str:
    """A message for a workflow command (see module docs)."""
    return escape_chars(text, _UNSAFE).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value for a workflow command (see module docs)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(item: Located) -> str:
    """The workflow command line for one diagnostic, without the newline."""
    d, s = item.diagnostic, item.diagnostic.span
    props = [("file", item.path), ("line", s.line), ("col", s.column), ("endLine", s.end_line),
             ("endColumn", s.end_column), ("title", f"{d.code} {d.name}")]
    text = ",".join(f"{k}={escape_property(str(v))}" for k, v in props if v is not None)
    return f"::{COMMANDS[d.severity]} {text}::{escape_data(d.message)}"


class GithubReporter(Reporter):
    """Writes one :func:`annotation` per diagnostic, in report order."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the annotations for ``result`` to ``stream``."""
        for item in located(result, cwd):
            stream.write(annotation(item) + "\n")
