"""Packages are found, not listed: every folder with an ``__init__.py`` under mushgym/,
envs/ (shipped as ``mushgym.envs``) and agents/ (``mushgym.agents``), so a new game
folder is packaged with no edit here (metadata lives in pyproject.toml)."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
PACKAGE_DIRS = {"mushgym": "mushgym", "mushgym.envs": "envs", "mushgym.agents": "agents"}


def packages(name: str, folder: str) -> list[str]:
    base = ROOT / folder
    found = []
    for init in sorted(base.rglob("__init__.py")):
        rel = init.parent.relative_to(base)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        found.append(".".join([name, *rel.parts]) if rel.parts else name)
    return found


setup(
    packages=sorted({p for name, folder in PACKAGE_DIRS.items() for p in packages(name, folder)}),
    package_dir=PACKAGE_DIRS,
)
