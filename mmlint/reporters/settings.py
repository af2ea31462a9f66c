"""``mmlint check --show-settings``: what a check would use, per store.

For each store (a :class:`mmlint.api.StoreResult` read but not linted):
where it is and how it was found, the configuration file that applies (or
none), the dialect and profile with the detection evidence (or that
``--dialect``/``--profile`` forced them), and every rule that would run with
its severity. Text, or with ``as_json`` one ``mmlint.settings/1`` object::

    {"format": "mmlint.settings/1",
     "stores": [{"path", "found", "config", "dialect", "profile", "evidence": [str] | null,
                 "rules": [{"code", "name", "severity"}]}]}
"""

from __future__ import annotations

from typing import Any, TextIO

from mmlint.reporters import Reporter, store_path

FORMAT_ID = "mmlint.settings/1"


def settings(res: Any, cwd: str) -> dict[str, Any]:
    """The settings of one store as the JSON object of the module docs."""
    from mmlint import rules

    active = [{"code": r.code, "name": r.name, "severity": rules.severity_for(r, res.store, res.options)}
              for r in rules.load().values() if rules.runs_on(r, res.store, res.options)]
    return {"path": store_path(res, cwd), "found": res.found.how, "config": res.config, "dialect": res.dialect,
            "profile": res.profile, "evidence": list(res.evidence.reasons) if res.evidence is not None else None,
            "rules": active}


class SettingsReporter(Reporter):
    """Writes the settings of each store (see module docs).

    Args:
        as_json: write the ``mmlint.settings/1`` object instead of text.
    """

    def __init__(self, as_json: bool = False) -> None:
        self.as_json = as_json

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:
        """Write the settings of ``result`` (a list of
        :class:`mmlint.api.StoreResult`) to ``stream``."""
        from mmlint.textutil import safe_path_text as esc

        docs = [settings(res, cwd) for res in result]
        if self.as_json:
            from mmlint.reporters.json import dumps

            stream.write(dumps({"format": FORMAT_ID, "stores": docs}, indent=2) + "\n")
            return
        for k, doc in enumerate(docs):
            if k:
                stream.write("\n")
            stream.write(f"store: {esc(doc['path'])} ({doc['found']})\n")
            stream.write(f"configuration: {esc(doc['config']) if doc['config'] else 'none'}\n")
            why = "; ".join(doc["evidence"]) if doc["evidence"] else "forced by --dialect/--profile or the configuration"
            stream.write(f"dialect: {doc['dialect']} ({esc(why)})\n")
            stream.write(f"profile: {doc['profile'] or 'none'}\n")
            stream.write(f"rules: {len(doc['rules'])} run\n")
            for r in doc["rules"]:
                stream.write(f"  {r['code']}  {r['name']:<28} {r['severity']}\n")
