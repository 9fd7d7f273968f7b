"""Layers point one way: nothing in the library imports the command line or the agents, the
episode loop sits below the agents, no module of the package imports itself round a circle, and
no written source module is over 1,000 lines.

The import graph is read from the source: every ``import`` and ``from ... import`` of every
module of ``mushgym/``, ``envs/`` (shipped as ``mushgym.envs``) and ``agents/``
(``mushgym.agents``), inside functions too, relative imports resolved, plus
``importlib.import_module("literal")``. Imports under ``if TYPE_CHECKING:`` are left out: they
never run. An edge goes to the module named, or to the package when the name is not a module.
"""

import ast
from pathlib import Path

import networkx as nx
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

ROOT = REPO_ROOT
PACKAGES = {"mushgym": "mushgym", "envs": "mushgym.envs", "agents": "mushgym.agents"}
COMMAND_LINE = ("mushgym/cli.py", "mushgym/__main__.py")
MAX_LINES = 1000

#: Import circles allowed, one set of modules per circle: none. A circle found must lie inside
#: one of these; an entry that is no longer (part of) a circle fails too.
KNOWN_CIRCLES: list[set[str]] = []
#: Modules allowed over MAX_LINES (the same rule for stale entries): none.
KNOWN_LONG_MODULES: list[str] = []


def source_files(root: Path = ROOT) -> list[Path]:
    return [p for folder in PACKAGES for p in sorted((root / folder).rglob("*.py")) if "__pycache__" not in p.parts]


def module_name(path: Path, root: Path = ROOT) -> str:
    """``envs/fungi/rules.py`` -> ``mushgym.envs.fungi.rules``; a package's ``__init__`` is the package."""
    rel = path.relative_to(root).with_suffix("")
    parts = [*PACKAGES[rel.parts[0]].split("."), *rel.parts[1:]]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (imports for annotations, never run)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                skip.update(id(n) for n in ast.walk(child))
    return skip


def import_statements(path: Path, root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """Each import of a source file as ``(module, names)``: ``import X`` -> ``(X, [])``,
    ``from X import y, z`` -> ``(X, [y, z])`` (relative imports resolved)."""
    tree = ast.parse(path.read_text())
    name = module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    skip = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            found.append((".".join(x for x in (base, node.module or "") if x), [a.name for a in node.names]))
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("importlib.import_module", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.args[0].value, []))
    return found


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Absolute names a source file imports: each module, and for ``from X import y`` also
    ``X.y`` (a submodule or a name in ``X``)."""
    return {n for mod, names in import_statements(path, root) for n in (mod, *(f"{mod}.{a}" for a in names))}


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module -> the package's modules it imports: ``import X.y`` -> ``X.y``; ``from X import y``
    -> ``X.y`` if that is a module, else ``X`` (a name defined in ``X``)."""
    modules = {module_name(p, root): p for p in source_files(root)}

    def module_of(target: str) -> str:
        while target and target not in modules:  # a name in a module -> that module
            target = target.rpartition(".")[0]
        return target

    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for mod, names in import_statements(path, root):
            targets = [f"{mod}.{a}" if f"{mod}.{a}" in modules else mod for a in names] or [mod]
            for target in map(module_of, targets):
                if target and target != name:
                    graph.add_edge(name, target)
    return graph


def circles(graph: nx.DiGraph) -> list[set[str]]:
    """The strongly connected components of more than one module: each an import circle."""
    return sorted((set(c) for c in nx.strongly_connected_components(graph) if len(c) > 1), key=sorted)


def describe(graph: nx.DiGraph, circle: set[str]) -> str:
    edges = sorted(graph.subgraph(circle).edges())
    return f"{sorted(circle)}:\n" + "\n".join(f"    {a} -> {b}" for a, b in edges)


LIBRARY = [p for p in source_files() if p.relative_to(ROOT).as_posix() not in COMMAND_LINE]


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_in_the_library_imports_the_command_line(path):
    bad = {m for m in imported_modules(path) if m == "mushgym.cli" or m.startswith("mushgym.cli.")}
    assert not bad, f"{path.relative_to(ROOT)} imports the command line ({sorted(bad)}): use mushgym.options"


def test_nothing_under_mushgym_imports_the_agents():
    bad = {}
    for path in LIBRARY:
        if path.relative_to(ROOT).parts[0] == "mushgym":
            found = sorted(
                m for m in imported_modules(path) if m == "mushgym.agents" or m.startswith("mushgym.agents.")
            )
            if found:
                bad[path.relative_to(ROOT).as_posix()] = found
    assert not bad, f"the library imports the agents (take a builder or a policy object instead): {bad}"


@pytest.mark.parametrize("name", ["episodes.py", "policies.py", "options.py"])
def test_the_episode_loop_sits_below_the_agents(name):
    bad = {m for m in imported_modules(ROOT / "mushgym" / name) if m.startswith("mushgym.agents")}
    assert not bad, f"mushgym/{name} imports {sorted(bad)}"


def test_no_import_circles():
    graph = import_graph()
    found = circles(graph)
    unknown = [c for c in found if not any(c <= known for known in KNOWN_CIRCLES)]
    assert not unknown, "import circles:\n" + "\n".join(describe(graph, c) for c in unknown)
    stale = [sorted(known) for known in KNOWN_CIRCLES if not any(c <= known for c in found)]
    assert not stale, f"these circles are gone: remove them from KNOWN_CIRCLES: {stale}"


def test_no_source_module_over_1000_lines():
    """Written modules only: the code in a ``generated/`` folder is one function per declared field,
    as long as the declaration it comes from (tests/engine/test_generated.py keeps it current)."""
    lengths = {
        p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines())
        for p in source_files()
        if "generated" not in p.relative_to(ROOT).parts[:-1]
    }
    long = {f: n for f, n in lengths.items() if n > MAX_LINES}
    assert set(long) <= set(KNOWN_LONG_MODULES), (
        f"modules over {MAX_LINES:,} lines (split them along their seams): {long}"
    )
    stale = [f for f in KNOWN_LONG_MODULES if f not in long]
    assert not stale, f"no longer over {MAX_LINES:,} lines: remove them from KNOWN_LONG_MODULES: {stale}"


def test_the_checker_sees_imports():
    names = imported_modules(ROOT / "agents" / "evaluate.py")
    assert "mushgym.agents.base" in names and "mushgym.options" in names
    assert module_name(ROOT / "envs" / "__init__.py") == "mushgym.envs"
    assert module_name(ROOT / "agents" / "base.py") == "mushgym.agents.base"


def test_the_checker_finds_circles_through_functions_and_packages(tmp_path):
    """The graph on a made-up tree: a circle closed by an import inside a function, a relative
    import two levels up, a name imported from a package, and a type-only import left out."""
    files = {
        "mushgym/a.py": "from .b import thing\n",
        "mushgym/b.py": "def f():\n    from mushgym import c\n",
        "mushgym/c.py": "import mushgym.a\n",
        "mushgym/sub/__init__.py": "",
        "mushgym/sub/d.py": "from .. import e\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import f\n",  # noqa: E501 (a literal that reads best on one line)
        "mushgym/sub/f.py": "from .d import x\n",
        "mushgym/e.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    graph = import_graph(tmp_path)
    assert circles(graph) == [{"mushgym.a", "mushgym.b", "mushgym.c"}]
    assert graph.has_edge("mushgym.sub.d", "mushgym.e") and not graph.has_edge("mushgym.sub.d", "mushgym.sub.f")
    assert "mushgym.b -> mushgym.c" in describe(graph, circles(graph)[0])


def test_the_library_points_nowhere_into_benchmarks():
    """``benchmarks/`` is the repository's benchmark suite, not part of the installed package: no
    default, message or docstring of the library names a file there (a user's own runs, or the
    docs, instead)."""
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in source_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "benchmarks/" in line
    ]
    assert not found, "\n".join(found)
