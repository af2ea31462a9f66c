"""Tool reading of a workspace store: what the dsh-bundle-memory plugin sees
(``specs/workspace-memory.md``; see :mod:`mmlint.dialects._reading`).

The plugin has "deliberately no YAML parser: the format is only ``key:
value`` lines ... a line you break by hand is ignored rather than fatal"
(spec "The shape of one memory"). So:

* a note is any ``*.md`` below the root except the index (``MEMORY.md``, the
  plugin's projection, which it regenerates and never reads back) and
  mmlint's parked files;
* frontmatter is the lines between a first ``---`` line and the next
  ``---`` line; each line holding ``:`` after a non-empty key is
  ``key: value`` split at the first ``:``, both sides trimmed; nothing is
  unquoted or unescaped (``"a"`` keeps its quotes, ``[a, b]`` its brackets);
  any other line is ignored;
* ``tags`` is a comma list: split on ``,``, each part trimmed, empty parts
  dropped;
* with no ``title`` the title is the file name without ``.md`` ("Files with
  no front matter are still indexed, with the title falling back to the
  file name");
* the category is the folder path (spec "What it looks like").
"""

from __future__ import annotations

from mmlint.dialects._reading import NoteView, Reading, text_of


def plugin_note(path: str, data: bytes) -> NoteView:
    """One note as the plugin reads it (see the module docstring); the view's
    fields always hold ``title`` and ``category`` (``a/b``, ``""`` at the root)."""
    text = text_of(data).replace("\r\n", "\n")
    lines = text.split("\n")
    view = NoteView(path)
    close = None
    if lines and lines[0].rstrip() == "---":
        close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if close is None:
        view.body = text
    else:
        view.body = "\n".join(lines[close + 1:])
        for line in lines[1:close]:
            key, sep, value = line.partition(":")
            if not sep or not key.strip():
                continue
            view.fields[key.strip()] = value.strip()
    if "tags" in view.fields:
        view.fields["tags"] = [p.strip() for p in view.fields["tags"].split(",") if p.strip()]
    name = path.rsplit("/", 1)[-1]
    if not view.fields.get("title"):
        view.fields["title"] = name[:-3]
    view.fields["category"] = path.rsplit("/", 1)[0] if "/" in path else ""
    return view


def plugin(files: dict[str, bytes], profile: str | None = None) -> Reading:
    """The store ``files`` (POSIX path -> bytes) as the workspace plugin sees
    it: every note by :func:`plugin_note`; no pointers (its index is a
    projection of the notes)."""
    out = Reading("the workspace plugin", values=values)
    for path in sorted(files):
        if path.endswith(".md") and path != "MEMORY.md" and not path.startswith(".mmlint-aux/"):
            out.notes[path] = plugin_note(path, files[path])
    return out


KEYMAP = {"title": "title", "tags": "tags", "created": "created", "updated": "updated"}


def values(view: NoteView) -> dict:
    """:func:`mmlint.dialects._reading.model_values` of one note as the
    plugin sees it (``category`` is the folder path, not a key)."""
    from mmlint.dialects._reading import model_values

    return model_values(NoteView(view.path, {k: v for k, v in view.fields.items() if k != "category"}, view.body), KEYMAP)
