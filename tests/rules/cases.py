"""One bad and one good store per rule: the bad one must raise the rule, the
good one must not. ``LINK`` values create symlinks."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from conftest import LINK


def N(name="a", type_="reference", extra="", body="body\n", dates=True, desc="a note"):
    d = "created: 2026-01-01\nupdated: 2026-01-02\n" if dates else ""
    return f"---\nname: {name}\ndescription: {desc}\ntype: {type_}\n{d}{extra}---\n\n{body}"


TODAY = datetime.date.today()
DUP = ("Deploys happen on Friday afternoons after the integration suite passes on the release branch; "
       "never deploy when the staging database migration has not finished, and announce it in the ops channel first.\n")
WH = "**Why:** reason.\n\n**How to apply:** step.\n"
ENG = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) — hook\n", "a.md": N()}
CC = {"MEMORY.md": "- [A](a.md) — hook\n", "a.md": N(dates=False)}
REC = {"MEMORY.md": "# Memory Index\n\n- [A](reference-a.md) — hook\n", "reference-a.md": N("a")}
MM_INDEX = ("# MEMORY.md\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: index\n"
            "## alpha\n- **summary:** s\n- **tags:** a\n- **file:** memories/alpha.md\n"
            "- **updated:** 2026-01-02T03:04:05.000Z\n- **budget:** 5/4000\n")
MM_NOTE = "# alpha\n\n> mm-id: local\n> mm-topic: alpha\n\nhello\n"
MM = {"MEMORY.md": MM_INDEX, "memories/alpha.md": MM_NOTE}
MM_NOTE_B = "# aardvark\n\n> mm-id: local\n> mm-topic: aardvark\n\nhi\n"
MM_ENTRY_B = "## aardvark\n- **summary:** s\n- **file:** memories/aardvark.md\n"
MM_UNSORTED = {"MEMORY.md": MM_INDEX + "\n" + MM_ENTRY_B, "memories/alpha.md": MM_NOTE, "memories/aardvark.md": MM_NOTE_B}
MM_SORTED = dict(MM_UNSORTED, **{"MEMORY.md": MM_INDEX.replace("## alpha", MM_ENTRY_B + "\n## alpha")})
WS_NOTE = "---\ntitle: 甲\ntags: a, b\ncreated: 2026-10-08T08:31:24.000Z\nupdated: 2026-10-08T08:31:24.000Z\n---\n\n正文\n"
WS_HEAD = ("# 记忆索引\n\n> 本文件由 dsh-bundle-memory 自动生成，手工改动会在下次保存记忆时被覆盖。\n\n"
           "- 工作区：`.`\n- 记忆根目录：`memory`\n")
#: A workspace store whose index is exactly the projection the plugin generates.
WS = {"MEMORY.md": WS_HEAD + f"- 共 1 条记忆\n\n## 未分类\n\n- [甲](./甲.md) — a, b · 2026-10-08 · {len(WS_NOTE.encode())} B\n",
      "甲.md": WS_NOTE}


def with_(base, **changes):
    out = dict(base)
    for k, v in changes.items():
        k = k.replace("__", "/").replace("_DOT_", ".")
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


@dataclass
class Case:
    dialect: str
    profile: str | None
    bad: dict
    good: dict
    caps: dict = field(default_factory=dict)
    hygiene: dict = field(default_factory=dict)


def idx(*lines):
    return "# Memory Index\n\n" + "".join(line + "\n" for line in lines)


CASES: dict[str, Case] = {
    # store
    "S101": Case("engramory", "upstream", with_(ENG, **{"b.md": LINK("/etc/hostname")}), ENG),
    "S102": Case("engramory", "upstream", with_(ENG, **{"b.md": LINK("nowhere.md")}), ENG),
    "S104": Case("engramory", "upstream", with_(ENG, **{"shared": LINK("/tmp")}), ENG),
    "S105": None,  # needs an unlistable folder; see test_unlistable_folder
    "S106": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="caf\xe9\n").encode("utf-8").replace(b"\xc3\xa9", b"\xe9")}), ENG),
    "S107": Case("engramory", "upstream", with_(ENG, **{"a.md": b"\x00" * 64}), ENG),
    "S108": Case("engramory", "upstream", with_(ENG, **{"a.md": ""}), ENG),
    "S109": Case("engramory", "upstream", with_(ENG, **{"a.md.bak": "old"}), ENG),
    "S110": Case("engramory", "recall-v1", with_(REC, **{".engramory-recall.jsonl": '{"ok":1}\n{"ts":"2026-\n'}),
                 with_(REC, **{".engramory-recall.jsonl": '{"ok":1}\n'})),
    "S111": Case("engramory", "upstream", with_(ENG, **{"a.md": N().replace("\n", "\r")}), ENG),
    "S112": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("<<<<<<< HEAD", "- [A](a.md) — x", "=======", "- [A](a.md) — y", ">>>>>>> main")}), ENG),
    "S116": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="body")}), ENG),
    "S113": Case("engramory", "upstream", with_(ENG, **{"a (conflicted copy 2026-01-02).md": N()}), ENG),
    "S114": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="token ghp_" + "A" * 36 + "\n")}),
                 with_(ENG, **{"a.md": N(body="the token is in 1Password\n")})),
    "S115": Case("engramory", "upstream", with_(ENG, **{"b.md": LINK("a.md"), "MEMORY.md": idx("- [A](a.md) — h", "- [B](b.md) — h")}), ENG),
    "S117": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "x" * (1024 * 1024 + 10))}), ENG),
    # index
    "I101": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": None}), ENG),
    "I102": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", *(["<!-- pad -->"] * 199))}),
                 with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", *(["<!-- pad -->"] * 147))})),
    "I103": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — " + "h" * 25600)}),
                 with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — " + "h" * 20000)})),
    "I104": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", *(["<!-- pad -->"] * 160))}), ENG),
    "I105": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- Always deploy from main.")}), ENG),
    "I106": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [A again](./a.md#x) — hook")}), ENG),
    "I107": Case("workspace", None, with_(WS, **{"乙.md": WS_NOTE.replace("甲", "乙"),
                                                 "MEMORY.md": WS["MEMORY.md"].replace(" B\n", " B\n- [丙](./丙.md) · 1 B\n")}), WS),
    "I108": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": None, "memory.md": ENG["MEMORY.md"]}), ENG),
    "I109": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": LINK("index-real.txt"), "index-real.txt": ENG["MEMORY.md"]}), ENG),
    "I111": Case("workspace", None, with_(WS, MEMORY_DOT_md=WS["MEMORY.md"] + "\n别忘了周五备份\n记得\n"), WS),
    "I110": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — " + "h" * 250)}), ENG),
    # pointers
    "P101": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [Gone](gone.md) — x")}), ENG),
    "P102": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [Out](../out.md) — x")}), ENG),
    "P103": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [S](file:///etc/x.md) — x")}),
                 with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [S](https://example.com/x.md) — x")})),
    "P104": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](/home/user/memory/a.md) — hook")}), ENG),
    "P105": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [B](sub\\b.md) — x")}), ENG),
    "P106": Case("engramory", "upstream", with_(ENG, **{"b.md": N("b")}),
                 with_(ENG, **{"b.md": N("b"), "MEMORY.md": idx("- [A](a.md) — hook", "- [B](b.md) — hook")})),
    "P107": Case("engramory", "upstream", with_(ENG, **{"archive/old.md": "# old\n", "MEMORY.md": idx("- [A](a.md) — hook", "- [Old](archive/old.md) — x")}), ENG),
    "P108": Case("engramory", "upstream", with_(ENG, **{"data.json": "{}", "MEMORY.md": idx("- [A](a.md) — hook", "- [D](data.json) — x")}), ENG),
    "P109": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="see [[nothere]]\n")}), with_(ENG, **{"a.md": N(body="see [[a]]\n")})),
    "P110": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="see [[b]]\n"), "b.md": N("b")}), ENG),
    "P111": Case("mm", None, with_(MM, **{"memories/alpha.md": MM_NOTE + "see [b](beta.md)\n"}),
                 with_(MM, **{"memories/alpha.md": MM_NOTE + "see [a](alpha.md#top) and [w](https://e.com/x.md)\n"})),
    "P112": Case("mm", None, with_(MM, **{"memories/alpha.md": MM_NOTE + "see mm:beta and mm://other/beta\n"}),
                 with_(MM, **{"memories/alpha.md": MM_NOTE + "see mm:alpha, mm://local/alpha and mm://other/beta\n"})),
    # naming
    "N101": Case("engramory", "recall-v1", with_(REC, **{"MEMORY.md": idx("- [A](Reference_A.md) — hook"), "reference-a.md": None, "Reference_A.md": N("a")}), REC),
    "N102": Case("engramory", "recall-v1", with_(REC, **{"MEMORY.md": idx("- [A](project-a.md) — hook"), "reference-a.md": None, "project-a.md": N("a")}), REC),
    "N103": Case("engramory", "upstream", with_(ENG, **{"a.md": N("other-name")}), ENG),
    "N104": Case("workspace", None, with_(WS, **{"a:b.md": WS_NOTE}), WS),
    "N105": Case("workspace", None, with_(WS, **{"a/b/c/d/x.md": WS_NOTE}), with_(WS, **{"a/b/c/x.md": WS_NOTE})),
    "N106": Case("engramory", "upstream", with_(ENG, **{"A.md": N("a")}), ENG),
    "N107": Case("engramory", "upstream", with_(ENG, **{"s1/dup.md": N("dup"), "s2/dup.md": N("dup")}), ENG),
    "N108": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](sub/a.md) — hook"), "a.md": None, "sub/a.md": N()}), ENG),
    "N109": Case("engramory", "upstream", with_(ENG, **{"notes.txt": "a fact"}), with_(ENG, **{".engramory-recall.jsonl": "{}\n"})),
    "N110": Case("engramory", "upstream", with_(ENG, **{"b.md": N("a"), "MEMORY.md": idx("- [A](a.md) — h", "- [B](b.md) — h")}), ENG),
    "N111": Case("engramory", "recall-v1", with_(REC, **{"gone-history.md": "# history\n"}), with_(REC, **{"reference-a-history.md": "# history\n"})),
    # frontmatter
    "F100": Case("engramory", "upstream", with_(ENG, **{"a.md": "---\nname: a\n----\nbody\n"}), ENG),
    "F101": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="tags:\n  - x\n  - y\n")}), with_(ENG, **{"a.md": N(extra="tags: x, y\n")})),
    "F102": Case("engramory", "upstream", with_(ENG, **{"a.md": N(desc='"oops no close')}), with_(ENG, **{"a.md": N(desc='"closed"')})),
    "F103": Case("engramory", "upstream", with_(ENG, **{"a.md": N(name='"a""')}), ENG),
    "F104": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="aliases: [a, b\n")}), with_(ENG, **{"a.md": N(extra="aliases: [a, b]\n")})),
    "F105": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra=": feedback\n")}), ENG),
    "F106": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="  scope: repo\n")}), with_(ENG, **{"a.md": N(extra="scope: repo\n")})),
    "F107": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="type: project\n")}), ENG),
    "F108": Case("engramory", "claude-code", with_(CC, **{"a.md": N(dates=False, extra="metadata:\n  type: user\n")}),
                 with_(CC, **{"a.md": "---\nname: a\ndescription: d\nmetadata:\n  type: reference\n---\n"})),
    "F109": Case("engramory", "upstream", with_(ENG, **{"a.md": "# A\n\nno frontmatter\n"}), ENG),
    "F111": Case("engramory", "upstream", with_(ENG, **{"a.md": "---\nname: a\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n"}), ENG),
    "F112": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="Reference")}), ENG),
    "F113": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="desciption: typo\n")}), with_(ENG, **{"a.md": N(extra="scope: repo\n")})),
    "F114": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="feedback", extra="scope: repo\n", body="do the thing\n```\n**Why:** in code\n```\n")}),
                 with_(ENG, **{"a.md": N(type_="feedback", extra="scope: repo\n", body="1. __Why__: r\n\n## How to apply\n\ns\n")})),
    "F115": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="feedback", body=WH)}),
                 with_(ENG, **{"a.md": N(type_="feedback", extra="scope: repo\n", body=WH)})),
    "F116": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="feedback", extra="scope: repo\n", body="**Why:** <!-- fill in -->\n\n**How to apply:** step\n")}),
                 with_(ENG, **{"a.md": N(type_="feedback", extra="scope: repo\n", body=WH)})),
    "F117": Case("engramory", "upstream", with_(ENG, **{"a.md": N(dates=False, extra="created: 2026-05-01\nupdated: 2026-04-01\n")}), ENG),
    "F118": Case("engramory", "upstream", with_(ENG, **{"a.md": N(dates=False, extra="created: 2026-01-01\nupdated: 2999-01-01\n")}), ENG),
    "F119": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="project", extra="scope: repo\n", body=WH + "Ships next week.\n")}),
                 with_(ENG, **{"a.md": N(type_="project", extra="scope: repo\n", body=WH + "Ships 2026-03-12.\n")})),
    # caps
    "C101": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="x" * (4 * 1024 * 1024))}), ENG),
    "C102": Case("engramory", "recall-v1", dict(REC, **{f"reference-n{i}.md": N(f"n{i}") for i in range(3)}), REC, caps={"notes": 2}),
    "C103": Case("mm", None, with_(MM, **{"memories/alpha.md": MM_NOTE + "x" * 70000}), MM),
    "C104": Case("mm", None, with_(MM, **{"memories/alpha.md": MM_NOTE.replace("hello\n", "y" * 4001)}), MM),
    "C105": Case("workspace", None, with_(WS, **{"甲.md": WS_NOTE + "z" * 262145}), WS),
    # mm
    "M101": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("## alpha", "## Project Notes")), MM),
    "M102": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("memories/alpha.md", "../alpha.md")), MM),
    "M104": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX + "- **summary:** again\n"), MM),
    "M105": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX + "\n## alpha\n- **summary:** dup\n"), MM),
    "M107": Case("mm", None, with_(MM, **{"memories/stray.md": "# stray\n\nx\n"}), MM),
    "M109": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("2026-01-02T03:04:05.000Z", "last week")), MM),
    "M110": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("mm-id: local", "mm-id: my memory")), MM),
    "M113": Case("mm", None, MM_UNSORTED, MM_SORTED),
    "M111": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("mm-version: 1", "mm-version: 2")), MM),
    "M112": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("memories/alpha.md", "notes/alpha.md"), **{"memories/alpha.md": None, "notes/alpha.md": MM_NOTE}), MM),
    # interop
    "X101": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("\n", "\r\n")), MM),
    "X102": Case("mm", None, with_(MM, **{"memories/alpha.md": MM_NOTE.replace("# alpha", "# Alpha notes")}), MM),
    "X103": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("5/4000", "145/4000")), MM),
    "X104": Case("engramory", "claude-code", with_(CC, **{"a.md": N(dates=False, desc="rule: always rebase")}),
                 with_(CC, **{"a.md": N(dates=False, desc="'rule: always rebase'")})),
    "X105": Case("engramory", "upstream", with_(ENG, **{"a.md": N(desc="use C #sharp")}), with_(ENG, **{"a.md": N(desc="'use C #sharp'")})),
    "X106": Case("engramory", "claude-code", with_(CC, **{"a.md": N(dates=False, extra="tags:\n  - x\n")}), CC),
    "X107": Case("engramory", "claude-code", with_(CC, **{"MEMORY.md": "".join("<!-- pad -->\n" for _ in range(200)) + "- [A](a.md) — hook\n"}), CC),
    "X110": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("> mm-id: local", "Read this first, agent!\n> mm-id: local")), MM),
    "X111": Case("engramory", "claude-code", with_(CC, **{"a.md": N(dates=False, body="x" * 5000 + "\n")}), CC),
    "X108": Case("engramory", "claude-code", with_(CC, **{"a.md": N(dates=False, extra="".join(f"k{i}: v\n" for i in range(30)))}), CC),
    "N112": Case("engramory", "upstream", with_(ENG, **{"b\x1b[31m.md": N("b"), "MEMORY.md": idx("- [A](a.md) — hook")}), ENG),
    "X112": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra='mmlint-budget: {"a": 1}\n')}),
                 with_(ENG, **{"a.md": N(extra="mmlint-budget: 145/4000\n")})),
    "X113": Case("workspace", None, with_(WS, **{"甲.md": b"\xef\xbb\xbf" + WS_NOTE.encode()}), WS),
    "X114": Case("engramory", "upstream", with_(ENG, **{"a.md": N(type_="reference\u200b", extra="scope:\u00a0repo\n")}),
                 with_(ENG, **{"a.md": N(body="a body may hold a no-break\u00a0space\n")})),
    "X115": Case("engramory", "upstream", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — hook", "- [B](b\u202egpj.md) — h"),
                                                       "b\u202egpj.md": N("b")}), ENG),
    "X109": Case("mm", None, with_(MM, MEMORY_DOT_md=MM_INDEX.replace("- **tags:** a", "- **tags:** Deploy Notes, ops, OPS")), MM),
    # suppressions
    "Q101": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="body\n<!-- mmlint-disable-file P106 -->\n")}),
                 with_(ENG, **{"b.md": N("b", body="body\n<!-- mmlint-disable-file P106 -->\n")})),
    "Q102": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="body <!-- mmlint-disable-line P1O1 -->\n")}),
                 with_(ENG, **{"b.md": N("b", body="body <!-- mmlint-disable-file orphan-note -->\n")})),
    "Q103": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="<!-- mmlint-disabel P101 -->\n")}),
                 with_(ENG, **{"b.md": N("b", body="<!-- mmlint-disable P106 -->\n")})),
    # hygiene
    "H101": Case("engramory", "upstream", with_(ENG, **{"b.md": N("b", body=DUP), "c.md": N("c", body=DUP.replace("Friday", "Thursday")),
                                                         "MEMORY.md": idx("- [A](a.md) — h", "- [B](b.md) — h", "- [C](c.md) — h")}),
                 with_(ENG, **{"b.md": N("b", body=DUP), "c.md": N("c", body="Release notes are written by the on-call engineer after the retro.\n"),
                               "MEMORY.md": idx("- [A](a.md) — h", "- [B](b.md) — h", "- [C](c.md) — h")})),
    "H102": Case("engramory", "upstream", with_(ENG, **{".git/HEAD": "ref: refs/heads/main\n", "src/app.py": "x = 1\n",
                                                         "a.md": N(body="The entry point is `src/main.py`.\n")}),
                 with_(ENG, **{".git/HEAD": "ref: refs/heads/main\n", "src/app.py": "x = 1\n",
                               "a.md": N(body="The entry point is `src/app.py:3`, see [it](src/app.py); run `make -C src`.\n")})),
    "H103": Case("engramory", "upstream", with_(ENG, **{"a.md": N(extra="expires: 2020-03-31\n")}),
                 with_(ENG, **{"a.md": N(extra=f"expires: {TODAY + datetime.timedelta(days=30)}\n")})),
    "H104": Case("engramory", "upstream", with_(ENG, **{"a.md": N(dates=False, extra="created: 2020-01-01\nupdated: 2020-01-02\n")}),
                 with_(ENG, **{"a.md": N(dates=False, extra=f"created: 2020-01-01\nupdated: {TODAY}\n")}), hygiene={"stale-days": 90}),
    "H105": Case("engramory", "claude-code", with_(CC, **{"MEMORY.md": "- [A](a.md) — Jenkins nightly job\n",
                                                          "a.md": N(dates=False, desc="Deploys run on GitHub Actions since March")}),
                 with_(CC, **{"MEMORY.md": "- [A](a.md) — deploys run on GitHub Actions\n",
                              "a.md": N(dates=False, desc="Deploys run on GitHub Actions since March")})),
    "H106": Case("engramory", "upstream", with_(ENG, **{"a.md": N(body="Write to alicia.m@hess-auto.fr or call +33 6 12 34 56 78.\n")}),
                 with_(ENG, **{"a.md": N(body="Alicia's contact details are in the CRM; the demo account is demo@example.com.\n")})),
}
