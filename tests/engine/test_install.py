"""A plain (non-editable) `pip install .` into a fresh virtual environment imports the documented way."""

import ast
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

ROOT = REPO_ROOT


@pytest.mark.slow
def test_plain_install_into_fresh_venv(tmp_path):
    env_dir = tmp_path / "venv"
    # The dependencies (numpy, numba, pettingzoo...) come from the environment running the tests,
    # named by a .pth file. Not system_site_packages=True: inside a virtualenv that points at the
    # base interpreter, which need not have them. Only plain directories are added (the running
    # environment's own .pth files, such as an editable mushgym, are not processed), and the new
    # venv's site-packages comes first, so mushgym itself is the one built from the wheel below.
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    new_site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(new_site, "borrowed-dependencies.pth").write_text("\n".join(sorted(here)) + "\n")
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--prefix",
            str(env_dir),
            "--ignore-installed",
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert build.returncode == 0, build.stderr[-3000:]
    code = (
        "import mushgym, sys; from mushgym.envs import fungi_v0; "
        "assert 'site-packages' in mushgym.__file__, mushgym.__file__; "
        "e = fungi_v0.env(); e.reset(seed=0); "
        "import mushgym.envs.fungi as f, os; "
        "assert os.path.exists(os.path.join(os.path.dirname(f.__file__), 'cards.toml')); "
        "assert os.path.exists(os.path.join(os.path.dirname(mushgym.__file__), 'py.typed')); "
        "import mushgym.render, numpy as np; g = mushgym.game('fungi_v0'); "
        "assert mushgym.render.draw_state(g, g.new_state(0), 0).to_rgb().dtype == np.uint8; "
        "print(mushgym.__file__, mushgym.list_envs())"
    )
    # the pretrained networks ship as package data: each manifest with its weights file
    shipped = sorted(p.name for p in (ROOT / "agents" / "pretrained").iterdir() if p.suffix in (".pt", ".json"))
    assert shipped
    code += (
        f"; shipped = {shipped!r}"
        "; from mushgym.agents.pretrained_models import MODELS_DIR, manifests"
        "; assert 'site-packages' in str(MODELS_DIR), MODELS_DIR"
        "; assert sorted(os.listdir(MODELS_DIR)) == shipped, (sorted(os.listdir(MODELS_DIR)), shipped)"
        "; assert len(manifests()) * 2 == len(shipped)"
    )
    # every game of the source tree: registered, its data files shipped, its Game built from them
    games = {}
    for init in sorted((ROOT / "envs").glob("*/__init__.py")):
        declared = {}  # ENV_ID = "x_v0" (one version) or ENV_IDS = {"x_v0": "env", "x_v1": "env_v1"}
        for node in ast.parse(init.read_text()).body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in ("ENV_ID", "ENV_IDS"):
                value = ast.literal_eval(node.value)
                declared.update(value if isinstance(value, dict) else {value: "env"})
        for env_id in declared:
            games[env_id] = sorted(p.name for p in init.parent.iterdir() if p.suffix in (".toml", ".md"))
    assert len(games) >= 2
    code += (
        f"; games = {games!r}"
        "; assert sorted(games) == mushgym.list_envs(), (sorted(games), mushgym.list_envs())"
        "; import importlib, os"
        "\nfor env_id, files in games.items():"
        "\n    mod = importlib.import_module('mushgym.envs.' + env_id); pkg = os.path.dirname(mod.__file__)"
        "\n    missing = [f for f in files if not os.path.exists(os.path.join(pkg, f))]"
        "\n    assert not missing, (env_id, missing)"
        "\n    mod.Game()"
    )
    run = subprocess.run(
        [str(py), "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert run.returncode == 0, run.stderr[-3000:] + run.stdout[-2000:]
    assert str(env_dir) in run.stdout
