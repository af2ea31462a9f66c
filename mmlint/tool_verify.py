"""Verification of a conversion by the owning tools (issue 8 item 2).

A conversion reads SRC with the source tool's reading and the rendered DST
with the target tool's reading (``reading`` of each dialect module, see
:mod:`mmlint.dialects._reading`) and compares every value
(``../shared/DESIGN.md`` "The loss policy"). Comparing mmlint's model with
itself is not verification: a writer bug that mmlint's reader mirrors would
pass. Each difference is a refusal naming the note, the field, both values
and the tool that would see it, or, for a field in ``--allow-loss``, a
listed loss.

Before rendering, :func:`adopt` makes the values the source tool sees the
values that are converted: where mmlint's lenient reader and the owning
tool disagree (Claude Code unescapes ``\\"`` in a YAML double-quoted value,
the workspace plugin keeps quotes it never strips, the mm reference
lower-cases tags), the tool is the reference for what the value is.
"""

from __future__ import annotations

from typing import Any

from mmlint import carriers, dialects
from mmlint.dialects._reading import COMPARED, Difference, Reading, as_list, compare
from mmlint.model import Note, Store


def source_reading(source: Store) -> Reading | None:
    """SRC as its owning tool sees it, from the bytes already read (no I/O),
    or ``None`` for a dialect without a reading."""
    module = dialects.get(source.dialect)
    if not hasattr(module, "reading"):
        return None
    return module.reading({p: r.data for p, r in source.files.items() if r.data is not None}, source.profile)


def _model_view(note: Note) -> dict[str, Any]:
    """mmlint's own values of ``note`` in the shape of
    :func:`mmlint.dialects._reading.model_values`: the stand-in for a note
    its tool cannot read (or does not list, e.g. an mm orphan detail file)."""
    out: dict[str, Any] = {}
    for f in COMPARED:
        v = getattr(note, f)
        if v not in (None, "", []):
            out[f] = list(v) if f in ("tags", "aliases") else v
    for k, v in note.extra.items():
        if isinstance(v, dict):
            for child, cv in v.items():
                if cv not in ("", [], None) and not isinstance(cv, dict):
                    out.setdefault("extra:" + str(child), cv)
        elif v not in ("", [], None):
            out["extra:" + k] = v
    out["body"] = note.body.replace("\r\n", "\n").strip("\n")
    return out


def _as_read(note: Note, fname: str) -> Any:
    """The value mmlint's reader found for ``fname`` (from the note's layout),
    or ``None`` when unknown; a value changed in memory since differs."""
    lay = note.layout
    read = getattr(lay, "read", None) if not isinstance(lay, dict) else lay.get("read")
    return read.get(fname) if isinstance(read, dict) else None


def adopt(model: Store, reading: Reading | None) -> list[tuple[str, str, Any, Any]]:
    """Give ``model``'s notes the values the source tool sees where mmlint's
    reader read them otherwise (fields in :data:`COMPARED` that both hold;
    a value changed in memory since it was read is left alone). Returns
    ``(path, field, mmlint's value, the tool's value)`` for each value
    changed."""
    changed: list[tuple[str, str, Any, Any]] = []
    if reading is None:
        return changed
    for note in model.notes:
        seen = reading.note_values(note.path)
        if seen is None:
            continue
        # A title left out because it equalled the name (Note.derived_title)
        # is still the index's text: a name the tool reads otherwise must not
        # change the title too. Likewise a hook left out because it equalled
        # the summary (the index entry's hook) stays the index's text.
        shown = note.derived_title() if note.title is None else None
        summary_adopted = False
        for f in COMPARED:
            mine, theirs = getattr(note, f), seen.get(f)
            if mine is None or theirs is None or isinstance(theirs, dict):
                continue
            if f in ("tags", "aliases"):
                theirs = as_list(theirs)
            # the layout (what mmlint read) is asked only where the tool disagrees: building it reads the note again
            if theirs != mine and mine == _as_read(note, f):
                if f == "summary" and note.index_hook is None and note.entry is not None \
                        and getattr(note.entry, "hook", None) == mine:
                    note.index_hook = mine  # the index shows the hook as it was: it stays, not the new summary
                summary_adopted = summary_adopted or f == "summary"
                setattr(note, f, theirs)
                changed.append((note.path, f, mine, theirs))
        if shown is not None and note.title is None and note.derived_title() != shown:
            note.title = shown
        if summary_adopted and note.index_hook is not None and note.index_hook == note.summary:
            note.index_hook = None  # a hook equal to the summary is no hook of its own, as the readers give it
    return changed


def misread_keys(source: Store, reading: Reading | None) -> list[tuple[str, list[str]]]:
    """Notes with frontmatter keys that mmlint's reader reads and the
    source's tool does not see at all: ``(path, keys)``, keys sorted
    (top-level keys other than ``mmlint-*`` carriers; a parent such as
    ``metadata:`` whose children the tool lifts is not one).

    A quoted value that runs over several lines (``name: "`` then
    ``a: 9"``) is one value to YAML and two keys to a line grammar: no
    value-by-value adoption (:func:`adopt`) makes the two readings agree,
    and writing the swallowed key would show the target's tool a key the
    source's tool never had, so a conversion refuses such a note
    (``E_LOSS``). Keys only the tool reads (indented children that a line
    grammar takes as keys) are :func:`adopt`'s and not listed, and so is a
    note in which the tool finds no frontmatter at all (a CR-only file,
    which mmlint reads as the recall-v1 spec §2 asks). Returns ``[]``
    without a reading.
    """
    out: list[tuple[str, list[str]]] = []
    if reading is None:
        return out
    from mmlint import carriers

    for note in source.notes:
        view = reading.notes.get(note.path)
        fm = note.frontmatter
        if view is None or not view.readable or fm is None or not view.fields:
            continue  # a tool that finds no frontmatter at all (a CR-only file) reads no keys to disagree on
        seen = set(view.fields) | set(view.nested)
        # the items are loaded (and kept) only for a note with a key the tool does not see
        lost = sorted({k for k in fm.top_keys() if k not in seen and not k.startswith(carriers.PREFIX)
                       and getattr(fm.get(k), "kind", None) in ("scalar", "yaml")})
        if lost:
            out.append((note.path, lost))
    return out


def differences(model: Store, target: Any, profile: str | None, files: dict[str, bytes]) -> list[Difference]:
    """Every value the target tool would see differently from the source.

    Args:
        model: the converted copy of SRC: its values are what the source
            tool sees (:func:`adopt`), with the plan's fills applied and
            allowed losses dropped.
        target: the target dialect module, ``profile`` its profile.
        files: the rendered DST (POSIX path -> bytes).

    Returns ``[]`` when the target dialect has no reading.
    """
    if not hasattr(target, "reading"):
        return []
    dst = target.reading(files, profile)
    if dst.refused:
        return [Difference("MEMORY.md", "store", "the store", dst.refused, dst.tool)]
    paths = target.note_paths(model, profile)
    want = {note.path: _model_view(note) for note in model.notes}
    dst_values = {p: dst.values(v) for p, v in dst.notes.items() if v.readable}
    form = getattr(target, "native_form", None)
    found = compare(want, dst, dst_values, paths, (lambda f, v: form(f, v, profile)) if form is not None else None)
    # A note given back its source bytes (its values unchanged, see
    # mmlint.carriers.origin_note) reads as the source did, even where its
    # own tool could not read it: that is not the conversion's doing.
    origin = carriers.origin_for(model, target.NAME, profile)
    back = {n.path for n in model.notes if origin is not None and n.slug in origin["notes"]
            and files.get(paths.get(n.path, "")) == carriers.rebuild(origin["notes"][n.slug], n.body)}
    return [d for d in found if d.path not in back]
