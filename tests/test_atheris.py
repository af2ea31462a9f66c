"""The atheris targets (``atheris_targets.py``) run for a bounded number of
inputs when atheris is installed (``pip install atheris``); skipped, with
the reason, when it is not. The long runs are ``scripts/fuzz.py --atheris``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
RUNS = int(os.environ.get("MMLINT_ATHERIS_RUNS", "300"))


def _atheris_missing() -> str | None:
    try:
        import atheris  # noqa: F401
    except ImportError as exc:
        return f"atheris is not installed ({exc}); pip install atheris to run the coverage-guided targets"
    return None


@pytest.mark.skipif(_atheris_missing() is not None, reason=_atheris_missing() or "")
def test_atheris_targets_run_clean(tmp_path):
    proc = subprocess.run([sys.executable, str(HERE / "atheris_targets.py"), "all", f"-runs={RUNS}", "-seed=11",
                           f"-artifact_prefix={tmp_path}/"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Done" in proc.stderr, proc.stderr[-2000:]
    assert not list(tmp_path.glob("crash-*"))
