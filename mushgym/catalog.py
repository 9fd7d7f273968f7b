"""What ``mushgym list`` and ``mushgym describe`` print, without importing a game or numba.

The source of truth is the registry: each env module's docstring, its ``Game`` class's option
choices and, for the default options, its sizes. Reading them imports every game (numba and the
kernels' modules: seconds), so the result is kept in a JSON file in mushgym's cache folder
(``MUSHGYM_CACHE_DIR``, else ``$XDG_CACHE_HOME/mushgym`` or ``~/.cache/mushgym``), one file per
installed copy of mushgym, with a *fingerprint* of everything it was read from: the path, size and
modification time of every file of the ``mushgym`` package and of every game folder (``envs/``
and ``MUSHGYM_GAMES_PATH``), mushgym's version and Python's. A file edited, added or removed
changes the fingerprint, and the next call reads the registry again and rewrites the file; an
unreadable or malformed file is read again the same way. The file holds JSON strings and numbers
only: loading it runs nothing. Where the cache folder cannot be written, every call reads the
registry (correct, only slower).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

CACHE_VARIABLE = "MUSHGYM_CACHE_DIR"
FORMAT = 1  # bump when the entries' shape changes
PACKAGE_DIR = Path(__file__).resolve().parent


def cache_folder() -> Path:
    """Where mushgym keeps its own small caches (not numba's)."""
    if os.environ.get(CACHE_VARIABLE):
        return Path(os.environ[CACHE_VARIABLE])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mushgym"


def catalog_path() -> Path:
    """The catalog file of this installed copy of mushgym."""
    copy = hashlib.sha256(str(PACKAGE_DIR).encode()).hexdigest()[:16]
    return cache_folder() / f"catalog-{copy}.json"


def game_folders() -> list[Path]:
    """The folders game packages live in, found without importing ``mushgym.envs``."""
    from .registry import extra_game_folders

    spec = importlib.util.find_spec("mushgym.envs")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    return [Path(f) for f in dict.fromkeys([*folders, *extra_game_folders()])]


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith((".pyc", ".nbi", ".nbc"))
    )


def fingerprint() -> str:
    """A digest of every file the catalog is read from (see the module docstring)."""
    from . import __version__

    h = hashlib.sha256(f"{FORMAT} {__version__} {sys.version}".encode())
    for folder in [PACKAGE_DIR, *game_folders()]:
        h.update(f"\0folder {folder.resolve()}".encode())
        for path in _files(folder):
            st = path.stat()
            h.update(f"\0{path.relative_to(folder)} {st.st_size} {st.st_mtime_ns}".encode())
    return h.hexdigest()


def header(env_id: str, game: Any) -> str:
    """The first line of ``mushgym describe``: the options and sizes of ``game``."""
    return (
        f"{env_id} with {game.options}: {game.num_players} players, {game.num_actions} actions, "
        f"observation {game.observation_shape} float32, state {game.state_size} int64"
    )


def read_registry() -> dict[str, dict[str, Any]]:
    """``{env id: entry}`` read from the registry itself (imports every game). An entry holds the
    env module's docstring (``doc``), its option choices as printed (``options``: name -> text)
    and the ``header`` of its default options."""
    from . import registry

    entries = {}
    for env_id in registry.list_envs():
        module = registry.env_module(env_id)
        game_class = module.Game
        entries[env_id] = {
            "doc": (module.__doc__ or "").strip(),
            "options": {k: str(list(v)) for k, v in game_class.option_choices.items() if not k.endswith("_path")},
            "header": header(env_id, game_class()),
        }
    return entries


def _load(path: Path, digest: str) -> dict[str, dict[str, Any]] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("fingerprint") != digest or not isinstance(data.get("envs"), dict):
        return None
    envs = data["envs"]
    for entry in envs.values():
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("doc"), str)
            and isinstance(entry.get("header"), str)
            and isinstance(entry.get("options"), dict)
            and all(isinstance(v, str) for v in entry["options"].values())
        ):
            return None
    return envs


def catalog() -> dict[str, dict[str, Any]]:
    """``{env id: entry}`` (see :func:`read_registry`), from the cache file when its fingerprint
    matches, else from the registry (and the file is rewritten)."""
    digest = fingerprint()
    path = catalog_path()
    envs = _load(path, digest)
    if envs is not None:
        return envs
    envs = read_registry()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"fingerprint": digest, "envs": envs}, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only home: no cache, the registry is read every time
        pass
    return envs
