"""Layers point one way: nothing in the library imports the command line, and the
episode loop sits below the agents."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    """Absolute names of the modules a source file imports (relative imports resolved)."""
    tree = ast.parse(path.read_text())
    rel = path.relative_to(ROOT).with_suffix("")
    package = {"agents": "mushgym.agents", "envs": "mushgym.envs"}.get(rel.parts[0], rel.parts[0])
    parts = [package, *rel.parts[1:]][:-1]  # the file's package (a module's or an __init__'s)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
            mod = ".".join(x for x in (base, node.module or "") if x)
            names.add(mod)
            names.update(f"{mod}.{a.name}" for a in node.names)
    return names


LIBRARY = [p for folder in ("mushgym", "agents", "envs") for p in sorted((ROOT / folder).rglob("*.py"))
           if p.relative_to(ROOT).as_posix() not in ("mushgym/cli.py", "mushgym/__main__.py")]


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_in_the_library_imports_the_command_line(path):
    bad = {m for m in imported_modules(path) if m == "mushgym.cli" or m.startswith("mushgym.cli.")}
    assert not bad, f"{path.relative_to(ROOT)} imports the command line ({sorted(bad)}): use mushgym.options"


@pytest.mark.parametrize("name", ["episodes.py", "policies.py", "options.py"])
def test_the_episode_loop_sits_below_the_agents(name):
    bad = {m for m in imported_modules(ROOT / "mushgym" / name) if m.startswith("mushgym.agents")}
    assert not bad, f"mushgym/{name} imports {sorted(bad)}"


def test_the_checker_sees_imports():
    names = imported_modules(ROOT / "agents" / "evaluate.py")
    assert "mushgym.agents.base" in names and "mushgym.options" in names
