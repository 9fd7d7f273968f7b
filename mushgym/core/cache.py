"""Keep numba's on-disk cache of a game's kernels in step with every source they inline.

numba judges a cached function fresh by the timestamp of the one file that
defines it. A game's kernels inline code from ``mushgym/core`` (generator,
piles), from sibling modules of the game at any depth (card constants, board
geometry, the generated helpers and loops of its ``generated/`` folder), and
possibly from another game (an expansion importing its base game). So an edit there would keep serving
stale machine code.

The one scheme: a game's *sources* are the modules of its package (at any
depth) that define compiled code, every file of ``mushgym/core``, and,
transitively, every module of the ``mushgym`` tree that those files import
(found by reading their import statements; a pure-Python module such as the
game's picture is left out unless compiled code imports it). Their digest is stamped into each of the game's cache
folders
(wherever numba puts them: ``__pycache__``, ``NUMBA_CACHE_DIR`` or the
user-wide fallback of a read-only install); when it differs, that game's cache
files are deleted before anything is loaded from them.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent
MUSHGYM_DIR = CORE_DIR.parent
STAMP_NAME = "mushgym-sources.sha256"


def _package_roots() -> dict[str, Path]:
    """Top-level dotted names -> folders, for resolving imports inside the mushgym tree."""
    roots = {"mushgym": MUSHGYM_DIR}
    try:  # envs/ is mapped into the package (and may live elsewhere): looked up, not imported
        spec = importlib.util.find_spec("mushgym.envs")
        roots["mushgym.envs"] = Path(spec.submodule_search_locations[0]).resolve()
    except Exception:  # pragma: no cover - no mushgym.envs to be found
        pass
    return roots


def _resolve(module: str, roots: dict[str, Path], extra_envs: list[Path]) -> list[Path]:
    """Files of ``module`` (and of its package ``__init__``s) inside the mushgym tree."""
    candidates = []
    for prefix, root in sorted(roots.items(), key=lambda kv: -len(kv[0])):
        if module == prefix or module.startswith(prefix + "."):
            rest = module[len(prefix) :].lstrip(".").split(".") if module != prefix else []
            bases = [root] + (extra_envs if prefix == "mushgym.envs" else [])
            for base in bases:
                path = base.joinpath(*rest) if rest else base
                for f in (path.with_suffix(".py"), path / "__init__.py"):
                    if rest and f.is_file():
                        candidates.append(f)
                    elif not rest and f.name == "__init__.py" and f.is_file():
                        candidates.append(f)
            break
    return candidates


def _imports(path: Path, package: str) -> set[str]:
    """Absolute dotted names imported by the file ``path`` (a module of ``package``)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)  # `from pkg import module`
    return out


def _compiles(path: Path) -> bool:
    """Whether a module defines compiled code (the roots of the import walk): pure-Python
    modules such as a game's picture are left out unless a compiled module imports them."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    return "njit" in text or "generated_loops(" in text or ".generated(" in text


def _module_name(path: Path, game_dir: Path, game_package: str) -> str:
    rel = path.relative_to(game_dir).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join([game_package] + parts)


def game_sources(game_dir: Path, game_package: str | None = None) -> list[Path]:
    """Every source file a game's kernels may inline (see the module docstring)."""
    game_dir = Path(game_dir).resolve()
    game_package = game_package or f"mushgym.envs.{game_dir.name}"
    roots = _package_roots()
    extra = [game_dir.parent] if roots.get("mushgym.envs") != game_dir.parent else []
    todo: list[tuple[Path, str]] = []
    for f in sorted(game_dir.rglob("*.py")):
        if "__pycache__" not in f.parts and _compiles(f):
            todo.append((f, _module_name(f, game_dir, game_package)))
    for f in sorted(CORE_DIR.glob("*.py")):
        todo.append((f, "mushgym.core." + f.stem))
    seen: set[Path] = set()
    while todo:
        f, modname = todo.pop()
        f = f.resolve()
        if f in seen:
            continue
        seen.add(f)
        package = modname if f.name == "__init__.py" else modname.rpartition(".")[0]
        for imported in _imports(f, package):
            if not imported.startswith("mushgym"):
                continue
            for g in _resolve(imported, roots, extra):
                todo.append((g, imported))
    return sorted(seen)


def sources_digest(game_dir: Path, game_package: str | None = None) -> str:
    h = hashlib.sha256()
    for path in game_sources(game_dir, game_package):
        h.update(str(path.name).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_dirs(source_dir: Path) -> list[Path]:
    """Where numba keeps (or would keep) the cache of functions defined in ``source_dir``:
    the folder numba's own locators choose, plus the in-tree and user-wide ones."""
    from numba.core import caching

    def _probe():  # a stand-in function: the locators only read its first line number
        pass

    py_file = str(Path(source_dir) / "__init__.py")
    out: list[Path] = []
    for cls in caching.CacheImpl._locator_classes:
        try:
            loc = cls(_probe, py_file)
            path = Path(loc.get_cache_path())
        except Exception:
            continue
        if cls.__name__ == "UserProvidedCacheLocator" and not caching.config.CACHE_DIR:
            continue
        if path not in out:
            out.append(path)
    return out


def clear_cache_files(cache_dir: Path) -> int:
    """Delete numba's cache files (``*.nbi``, ``*.nbc``) in ``cache_dir``; return how many."""
    removed = 0
    if not cache_dir.is_dir():
        return 0
    for path in list(cache_dir.glob("*.nbi")) + list(cache_dir.glob("*.nbc")):
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def _game_source_dirs(game_dir: Path) -> list[Path]:
    return [
        d
        for d in [game_dir, *sorted(p for p in game_dir.rglob("*") if p.is_dir())]
        if d.name != "__pycache__" and "__pycache__" not in d.parts and any(d.glob("*.py"))
    ]


def numba_cache_dir(source_dir: Path) -> Path | None:
    """The folder numba will cache functions of ``source_dir`` in (its first locator that
    applies, as numba chooses), created if missing; None if no locator applies."""
    from numba.core import caching

    def _probe():
        pass

    py_file = str(Path(source_dir) / "__init__.py")
    for cls in caching.CacheImpl._locator_classes:
        try:
            loc = cls.from_function(_probe, py_file)
        except Exception:
            continue
        if loc is not None:
            return Path(loc.get_cache_path())
    return None


def refresh_game_cache(game_dir: Path, game_package: str | None = None) -> int:
    """Drop one game's numba cache if its sources changed; return the files removed.

    The folder numba is about to use is created and stamped now when it is missing: a
    folder that numba created later would hold its first process's files without a stamp,
    and the next process would drop them all (every kernel compiled twice on a new cache)."""
    digest = None
    removed = 0
    for src in _game_source_dirs(game_dir):
        numba_cache_dir(src)
        for cdir in cache_dirs(src):
            if not cdir.is_dir():
                continue
            stamp = cdir / STAMP_NAME
            try:
                if digest is None:
                    digest = sources_digest(game_dir, game_package)
                if stamp.is_file() and stamp.read_text() == digest:
                    continue
                removed += clear_cache_files(cdir)
                stamp.write_text(digest)
            except OSError:  # read-only folder: numba will not cache there either
                continue
    return removed


def refresh_game_caches(envs_dir: Path) -> None:
    """For each game package under ``envs_dir``, drop its numba cache if its sources changed."""
    for game_dir in sorted(p for p in Path(envs_dir).iterdir() if (p / "__init__.py").exists()):
        refresh_game_cache(game_dir)


def clear_all_caches(folders: list[Path]) -> int:
    """Delete every numba cache file of the games under ``folders`` and of the library."""
    removed = 0
    dirs = [*_game_source_dirs_all(MUSHGYM_DIR), *[d for f in folders for d in _game_source_dirs_all(Path(f))]]
    for d in dirs:
        for cdir in cache_dirs(d):
            removed += clear_cache_files(cdir)
    return removed


def _game_source_dirs_all(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return [
        d
        for d in [folder, *sorted(p for p in folder.rglob("*") if p.is_dir())]
        if d.name != "__pycache__" and "__pycache__" not in d.parts
    ]


# --- a corrupted cache file: drop the game's cache and recompile ---------------------------

_dropped: set[str] = set()


def _game_dir_of(source_file: str) -> Path | None:
    """The game package folder (``envs/<game>``) a compiled function's source file lies in."""
    path = Path(source_file).resolve()
    roots = [p for p in _package_roots().values() if p.name == "envs"]
    for root in roots:
        try:
            rel = path.relative_to(root)
        except ValueError:
            continue
        if len(rel.parts) >= 2:
            return root / rel.parts[0]
    return None


def drop_corrupted_cache(source_file: str, cache_dir: str | Path, exc: BaseException) -> int:
    """A cache file of a function defined in ``source_file`` failed to load: delete that game's
    whole numba cache (or, outside a game, the cache folder at fault) and say so in one line on
    stderr (once per game and process). Returns the files removed."""
    import sys

    game_dir = _game_dir_of(source_file)
    removed = 0
    if game_dir is not None:
        for src in _game_source_dirs(game_dir):
            for cdir in cache_dirs(src):
                removed += clear_cache_files(cdir)
        what = f"of the game {game_dir.name!r}"
    else:
        removed = clear_cache_files(Path(cache_dir))
        what = f"in {cache_dir}"
    key = str(game_dir or cache_dir)
    if key not in _dropped:
        _dropped.add(key)
        print(
            f"mushgym: the numba cache {what} could not be loaded ({type(exc).__name__}: "
            f"{str(exc)[:80]}); dropped it ({removed} files), recompiling",
            file=sys.stderr,
            flush=True,
        )
    return removed


def install_cache_guard() -> None:
    """Make numba treat a cache file that fails to load (UnpicklingError, EOFError, a truncated
    or foreign file...) as a cache miss after dropping the game's cache, instead of raising in
    every process (:func:`drop_corrupted_cache`). Installed by ``mushgym.setup()`` (the first use of a game)."""
    from numba.core import caching

    cache_cls = caching.Cache
    if getattr(cache_cls.load_overload, "_mushgym_guard", False):
        return
    load, save = cache_cls.load_overload, cache_cls.save_overload

    def load_overload(self, sig, target_context):
        try:
            return load(self, sig, target_context)
        except Exception as exc:  # noqa: BLE001 - any failure to load is a corrupted cache
            drop_corrupted_cache(self._py_func.__code__.co_filename, self._cache_path, exc)
            return None

    def save_overload(self, sig, data):
        try:
            return save(self, sig, data)
        except Exception as exc:  # noqa: BLE001 - a corrupted index: drop it, save afresh
            drop_corrupted_cache(self._py_func.__code__.co_filename, self._cache_path, exc)
            try:
                return save(self, sig, data)
            except Exception:  # noqa: BLE001 - not cached this time; the next process retries
                return None

    load_overload._mushgym_guard = True
    cache_cls.load_overload = load_overload
    cache_cls.save_overload = save_overload
