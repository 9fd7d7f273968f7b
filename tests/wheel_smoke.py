"""Install a built wheel into a fresh virtual environment and play every env from it.

    python -m build                                     # dist/mushgym-<version>-py3-none-any.whl
    python tests/wheel_smoke.py dist/mushgym-*.whl      # a plain venv: dependencies from PyPI
    python tests/wheel_smoke.py --borrow dist/*.whl     # dependencies from this interpreter's site-packages

What it checks, in the new venv, outside the source tree: the wheel holds no test files, golden
playthroughs or caches, holds the pretrained networks with their manifests and is under 25 MB;
every registered env of the source tree imports from the wheel and plays a seeded game of random
legal moves through PettingZoo's AEC loop (in plain Python, ``NUMBA_DISABLE_JIT=1``); Fungi
compiles and runs its in-kernel rollouts; ``mushgym list`` and ``mushgym describe`` answer. Not
part of the pytest suite (it installs from PyPI and compiles from a cold cache: minutes); run it
before publishing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_WHEEL_BYTES = 25_000_000  # the pretrained networks included
FORBIDDEN = ("tests/", "golden", "__pycache__", ".nbi", ".nbc", ".pyc", "mushgym-sources.sha256")

PLAY = """
import sys, numpy as np, mushgym
assert "site-packages" in mushgym.__file__, mushgym.__file__
expected = sys.argv[1].split(",")
assert mushgym.list_envs() == expected, (mushgym.list_envs(), expected)
for env_id in expected:
    env = mushgym.make(env_id)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, termination, truncation, info = env.last()
        if step >= 40 or termination or truncation:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    print(env_id, "played", step, "decisions")
"""
ROLLOUTS = "import mushgym; print(mushgym.game('fungi_v0').random_rollouts(20, seed=0))"


def check_wheel(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    bad = [n for n in names if any(f in n for f in FORBIDDEN)]
    if bad:
        raise SystemExit(f"{wheel.name} holds files it should not: {bad[:10]}")
    size = wheel.stat().st_size
    if size > MAX_WHEEL_BYTES:
        raise SystemExit(f"{wheel.name} is {size:,} bytes, over the {MAX_WHEEL_BYTES:,} allowed")
    models = [n for n in names if n.startswith("mushgym/agents/pretrained/")]
    if not any(n.endswith(".pt") for n in models) or len(models) % 2:
        raise SystemExit(f"{wheel.name}: the pretrained networks and their manifests are missing: {models}")
    print(
        f"{wheel.name}: {size:,} bytes, {len(names)} files ({len(models) // 2} pretrained networks), "
        "no tests, golden files or caches"
    )


def run(python: Path, *args: str, cwd: Path, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environ.update(env)
    out = subprocess.run([str(python), *args], cwd=cwd, env=environ, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args)[:80]} failed:\n{out.stdout[-3000:]}{out.stderr[-3000:]}")
    return out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument(
        "--borrow",
        action="store_true",
        help="use this interpreter's installed packages (a venv with --system-site-packages)",
    )
    args = parser.parse_args()
    check_wheel(args.wheel)
    sys.path.insert(0, str(ROOT))
    expected = sorted(
        subprocess.run(
            [sys.executable, "-c", "import mushgym; print(','.join(mushgym.list_envs()))"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        .stdout.split()[-1]
        .split(",")
    )
    with tempfile.TemporaryDirectory(prefix="mushgym-wheel-") as tmp:
        home = Path(tmp)
        venv.EnvBuilder(with_pip=True, system_site_packages=args.borrow).create(home / "venv")
        python = home / "venv" / "bin" / "python"
        pip = [str(python), "-m", "pip", "install", "-q", str(args.wheel.resolve())]
        if args.borrow:
            pip += ["--no-deps", "--force-reinstall"]
        subprocess.run(pip, check=True, timeout=3600)
        isolated = {"NUMBA_CACHE_DIR": str(home / "numba"), "MUSHGYM_CACHE_DIR": str(home / "cache")}
        print(run(python, "-c", PLAY, ",".join(expected), cwd=home, NUMBA_DISABLE_JIT="1", **isolated), end="")
        print(run(python, "-c", ROLLOUTS, cwd=home, **isolated), end="")
        listing = run(python, "-m", "mushgym", "list", cwd=home, **isolated)
        assert all(env_id in listing for env_id in expected), listing
        run(python, "-m", "mushgym", "describe", "mycelia_v1", "--section", "action", cwd=home, **isolated)
        print(f"mushgym list and describe answer; {len(expected)} envs played from the wheel: ok")


if __name__ == "__main__":
    main()
