"""``mushgym generate``: write the code generated from declarations as checked-in modules.

For every game package (the repository's ``envs/`` and the folders of ``MUSHGYM_GAMES_PATH``,
or the folders given), the modules that declare generated code (a layout's
``L.generated(globals())``, an action space's, the decision kinds', a kernel module's
``generated_loops(globals())``; :mod:`mushgym.core.codegen`) are imported with their
generated modules stood in for, and what they declare is written out:

* ``generated/<module>.py``: the declarations' code, which the module imports right after
  declaring it (the generator keeps that import statement's names in step, or adds it);
* ``generated/<module>_loops.py`` and ``generated/<module>_search.py``: the batch loops and
  the search loop over a kernel module;
* a region between two marker lines in the module itself, for code that calls the module's
  own functions (``kind_fits``).

A file is only written when its text changes (numba's cache keys on each file's time stamp),
so running the command twice changes nothing; files of ``generated/`` that nothing declares
any more are removed. :func:`stale_files` is the check (``mushgym generate --check``).
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

from .core import codegen

WIDTH = 110  # the generated imports' lines
FMT_OFF, FMT_ON = "# fmt: off", "# fmt: on"

DECLARING = re.compile(r"\.generated(?:_rules|_checks)?\(globals\(\)|\bgenerated_loops\(globals\(\)")


def package_dirs(paths: list[Path] | None = None) -> list[Path]:
    """The game packages to generate for: those under ``paths`` (each a package, or a folder of
    packages), by default every game folder's."""
    from .registry import game_folders

    folders = [f.resolve() for f in game_folders()]
    out: list[Path] = []
    for p in map(Path, folders if paths is None else paths):
        p = p.resolve()
        if (p / "__init__.py").is_file() and p not in folders:
            out.append(p)
        elif p.is_dir():
            out += sorted(d for d in p.iterdir() if (d / "__init__.py").is_file() and d.name != codegen.GENERATED)
        else:
            raise FileNotFoundError(f"mushgym generate: no package or folder {p}")
    return out


def package_name(folder: Path) -> str:
    """The importable name of the package in ``folder`` (a game folder's: ``mushgym.envs.<name>``)."""
    from .registry import game_folders

    if folder.parent in [f.resolve() for f in game_folders()]:
        return f"mushgym.envs.{folder.name}"
    parts, top = [], folder
    while (top / "__init__.py").is_file():
        parts.insert(0, top.name)
        top = top.parent
    if str(top) not in sys.path:
        sys.path.insert(0, str(top))
    return ".".join(parts)


def declaring_modules(folder: Path) -> list[tuple[str, Path]]:
    """``(module name, file)`` of each module of the package that declares generated code."""
    name = package_name(folder)
    found = []
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(folder)
        if "__pycache__" in rel.parts or codegen.GENERATED in rel.parts[:-1]:
            continue
        if DECLARING.search(path.read_text(errors="replace")):
            dotted = ".".join([name, *rel.with_suffix("").parts])
            found.append((dotted.removesuffix(".__init__"), path))
    return found


# --- the declaring module's own text: import statements and regions --------------------------


def _statement_end(tree: ast.Module, line: int) -> int:
    """The last line of the top-level statement holding ``line``."""
    for node in tree.body:
        if node.lineno <= line <= node.end_lineno:
            return node.end_lineno
    return line


def import_statement(target: str, names: list[str], keys: list[str]) -> str:
    """The import of a declaration's generated names, in the generator's own layout: between
    ``# fmt: off`` and ``# fmt: on`` and marked ``isort: skip``, so ruff keeps it as written."""
    head = f"from .{codegen.GENERATED}.{target} import ("
    comment = f"  # noqa: E402,F401  (generated from {', '.join(keys)} by `{codegen.COMMAND}`)  # isort: skip"
    lines, line = [], "   "
    for n in names:
        if len(line) + len(n) + 2 > WIDTH:
            lines.append(line)
            line = "   "
        line += f" {n},"
    lines.append(line)
    return f"{FMT_OFF}\n" + head + comment + "\n" + "\n".join(lines) + f"\n)\n{FMT_ON}"


def _statement_span(lines: list[str], node: ast.stmt) -> tuple[int, int]:
    """The lines (1-based, inclusive) of a generated import with its ``# fmt: off/on`` comments."""
    first, last = node.lineno, node.end_lineno
    if first >= 2 and lines[first - 2] == FMT_OFF:
        first -= 1
    if last < len(lines) and lines[last] == FMT_ON:
        last += 1
    return first, last


def rewrite_declaring(path: Path, module_parts: list[codegen.Part]) -> str:
    """The text of a declaring module with its imports of generated names and its regions in step."""
    text = path.read_text()
    tree = ast.parse(text)
    lines = text.splitlines()
    edits: list[tuple[int, int, str]] = []  # (first line, last line, new text): 1-based, inclusive
    generated_imports = sorted(
        (
            n
            for n in tree.body
            if isinstance(n, ast.ImportFrom)
            and n.level == 1
            and n.module
            and n.module.startswith(codegen.GENERATED + ".")
        ),
        key=lambda n: n.lineno,
    )
    imported = [p for p in module_parts if p.target and p.names]
    claimed: dict[int, list[codegen.Part]] = {}
    calls = sorted(p.line for p in module_parts)
    for part in sorted(imported, key=lambda p: p.line):
        stop = next((line for line in calls if line > part.line), float("inf"))  # the next declaring call
        node = next(
            (
                n
                for n in generated_imports
                if part.line < n.lineno < stop and n.module == f"{codegen.GENERATED}.{part.target}"
            ),
            None,
        )
        if node is None:  # no import yet: one right after the declaring call
            end = _statement_end(tree, part.line)
            claimed.setdefault(-end, []).append(part)
        else:
            claimed.setdefault(node.lineno, []).append(part)
    for key, ps in claimed.items():
        names = sorted({n for p in ps for n in p.names}, key=lambda n: (n.upper() != n, n))
        stmt = import_statement(ps[0].target, names, [p.key for p in ps])
        if key < 0:
            edits.append((-key + 1, -key, stmt))
        else:
            node = next(n for n in generated_imports if n.lineno == key)
            edits.append((*_statement_span(lines, node), stmt))
    for part in (p for p in module_parts if not p.target):
        new = codegen.region_text(part).rstrip("\n")
        # the region stands after the declaring call and blank lines (found by place: its key may have been renamed)
        end = _statement_end(tree, part.line)
        at = next((i for i in range(end + 1, len(lines) + 1) if lines[i - 1].strip()), None)
        if at is None or not lines[at - 1].startswith(codegen.REGION_BEGIN.split("{key}")[0]):
            edits.append((end + 1, end, "\n\n" + new))  # two blank lines, then the region
        else:
            stop = next(i for i, line in enumerate(lines[at:], at + 1) if line == codegen.REGION_END)
            edits.append((at, stop, new))
    for first, last, new in sorted(edits, key=lambda e: -e[0]):
        lines[first - 1 : last] = new.splitlines()
    return "\n".join(lines) + "\n"


# --- the whole package -----------------------------------------------------------------------


def expected_files(folder: Path) -> dict[Path, str]:
    """Every file ``mushgym generate`` writes for the package in ``folder``, with its text.
    Imports the package's declaring modules (in generation mode: call inside it)."""
    from .search import search_part

    out: dict[Path, str] = {}
    for module_name, path in declaring_modules(folder):
        module = importlib.import_module(module_name)
        module_parts = codegen.parts(module_name)
        if not module_parts:
            continue
        targets: dict[str, list[codegen.Part]] = {}
        for p in module_parts:
            if p.target:
                targets.setdefault(p.target, []).append(p)
        if any(p.key == "loops" for p in module_parts):
            search = search_part(module)
            targets[search.target] = [search]
        for target, ps in targets.items():
            purpose = {
                "loops": "The generic batch loops (mushgym.core.batch) over the game's kernels",
                "search": "The search loop (mushgym.core.search) over the game's kernels",
            }.get(ps[0].key, "The code generated from the declarations of the module")
            doc = codegen.docstring_for(module_name, ps, purpose)
            out[path.parent / codegen.GENERATED / f"{target}.py"] = codegen.module_text(ps, doc)
        new_text = rewrite_declaring(path, module_parts)
        if new_text != path.read_text():
            out[path] = new_text
    for gen_dir in {p.parent for p in out if p.parent.name == codegen.GENERATED}:
        out[gen_dir / "__init__.py"] = (
            f'"""Code generated by `{codegen.COMMAND}` from the declarations of the modules '
            f'beside this\nfolder: do not edit by hand."""\n'
        )
    return out


def _obsolete(folder: Path, expected: dict[Path, str]) -> list[Path]:
    return [p for p in sorted(folder.rglob(f"{codegen.GENERATED}/*.py")) if p not in expected]


def stale_files(paths: list[Path] | None = None) -> list[str]:
    """What ``mushgym generate`` would change (files to write or remove), as messages."""
    problems = []
    with codegen.generation_mode():
        for folder in package_dirs(paths):
            expected = expected_files(folder)
            for path, text in expected.items():
                if not path.is_file() or path.read_text() != text:
                    problems.append(f"{path}: {'missing' if not path.is_file() else 'stale'}")
            problems += [f"{p}: declared by nothing" for p in _obsolete(folder, expected)]
    return problems


def generate(paths: list[Path] | None = None, report=print) -> list[Path]:
    """Write every generated file of the packages under ``paths`` whose text changed (and remove
    obsolete ones); returns the paths written or removed."""
    changed = []
    with codegen.generation_mode():
        for folder in package_dirs(paths):
            expected = expected_files(folder)
            for path, text in sorted(expected.items()):
                if path.is_file() and path.read_text() == text:
                    continue
                path.parent.mkdir(exist_ok=True)
                path.write_text(text)
                changed.append(path)
                if report:
                    report(f"wrote {path}")
            for path in _obsolete(folder, expected):
                path.unlink()
                changed.append(path)
                if report:
                    report(f"removed {path}")
    return changed
