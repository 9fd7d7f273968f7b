"""A plain (non-editable) `pip install .` into a fresh virtual environment imports the documented way."""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_plain_install_into_fresh_venv(tmp_path):
    env_dir = tmp_path / "venv"
    # system site-packages supplies numpy/numba/pettingzoo; mushgym itself comes from the wheel build
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--prefix", str(env_dir), "--ignore-installed", str(ROOT)],
        capture_output=True, text=True, timeout=600,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert build.returncode == 0, build.stderr[-3000:]
    code = (
        "import mushgym, sys; from mushgym.envs import fungi_v0; "
        "assert 'site-packages' in mushgym.__file__, mushgym.__file__; "
        "e = fungi_v0.env(); e.reset(seed=0); "
        "import mushgym.envs.fungi as f, os; "
        "assert os.path.exists(os.path.join(os.path.dirname(f.__file__), 'cards.toml')); "
        "print(mushgym.__file__, mushgym.list_envs())"
    )
    run = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=600,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 0, run.stderr[-3000:]
    assert str(env_dir) in run.stdout
