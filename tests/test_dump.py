"""``mmlint dump``: the model as ``mmlint.store/1`` JSON, valid against
``schemas/store.json``, reversible for bytes that are not UTF-8, and the mm
notes accepted by the mm reference schema."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from conftest import CORPUS, ROOT, SHARED, corpus_stores, make_store, needs_corpus, store_id
from mmlint import dialects, storejson
from mmlint.model import NOTE_FIELDS

SCHEMA = json.loads((ROOT / "schemas" / "store.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def dump(path) -> dict:
    p = subprocess.run([sys.executable, "-m", "mmlint", "dump", str(path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@needs_corpus
@pytest.mark.parametrize("src", [s for s in corpus_stores() if "khwoo-agent" not in str(s)][::6], ids=store_id)
def test_corpus_dumps_validate(src):
    from mmlint import api

    res = api.read_store(api.locate([str(src)])[0])
    doc = storejson.document(res.store)
    VALIDATOR.validate(doc)
    assert len(doc["notes"]) == len(res.store.notes)
    for n, d in zip(res.store.notes, doc["notes"]):
        assert {k for k in NOTE_FIELDS if getattr(n, k) is not None} == set(d["fields"])
        assert set(d["spans"]) == set(n.spans) and storejson.text(d["body"]) == n.body


@needs_corpus
def test_mm_reference_schema_accepts_the_notes_of_an_mm_store():
    ref = json.loads((SHARED / "research" / "mm-memory.schema.json").read_text(encoding="utf-8"))
    check = jsonschema.Draft202012Validator(ref, format_checker=jsonschema.FormatChecker())
    for store in (CORPUS / "real" / "b-mm" / "memory-standard-example", CORPUS / "mm" / "reference-example"):
        doc = dump(store)
        VALIDATOR.validate(doc)
        assert doc["notes"]
        for n in doc["notes"]:
            check.validate(n["protocol"])
            assert n["protocol"]["uri"] == f"mm://local/{n['slug']}"


def test_bytes_that_are_not_utf8_round_trip(tmp_path):
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — hook\n",
                          "a.md": b"---\nname: a\ndescription: caf\xe9\ntype: user\n---\n\nbody \xff\xfe\n",
                          "ledger.bin": b"\x00\x01\xff"})
    store = dialects.get("engramory").read(str(tmp_path), "claude-code")
    doc = json.loads(json.dumps(storejson.document(store)))  # through real JSON text
    VALIDATOR.validate(doc)
    note = doc["notes"][0]
    assert isinstance(note["body"], dict) and "utf8b" in note["body"]
    assert storejson.text(note["body"]) == store.notes[0].body
    assert storejson.text(note["fields"]["summary"]).encode("utf-8", "surrogateescape") == b"caf\xe9"
    assert [a for a in doc["aux"] if a["path"] == "ledger.bin"] == [{"path": "ledger.bin", "base64": "AAH/"}]
    assert note["spans"]["summary"]["line"] == 3


def test_schema_is_served_by_mmlint_schema():
    p = subprocess.run([sys.executable, "-m", "mmlint", "schema", "store"], capture_output=True, text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["title"] == "mmlint.store/1"
