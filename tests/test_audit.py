"""Nothing outside the root is opened or listed, and nothing that is not a
regular file is opened, by any command on any hostile store: the whole
catalogue under an audit hook (``audit_run.py``, in a child process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_hostile_catalogue_under_an_audit_hook(tmp_path):
    proc = subprocess.run([sys.executable, str(HERE / "audit_run.py"), str(tmp_path)], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert proc.stdout.strip().endswith("; 0 violations"), proc.stdout[-2000:]
