"""The tree passes ruff's lint and format checks as configured in pyproject.toml (what the pre-commit
hooks of .pre-commit-config.yaml run on each commit)."""

import shutil
import subprocess
import sys

import pytest
from paths import REPO_ROOT


def _ruff() -> list[str]:
    try:
        import ruff  # noqa: F401  (the dev extra installs it)
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.skip("ruff is not installed (the dev extra)")
        return ["ruff"]
    return [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("check", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff_passes_on_the_whole_tree(check):
    run = subprocess.run([*_ruff(), *check], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_pre_commit_runs_ruff_and_guards_large_files():
    text = (REPO_ROOT / ".pre-commit-config.yaml").read_text()
    for hook in ("ruff-check", "ruff-format", "check-added-large-files"):
        assert f"id: {hook}" in text, hook
