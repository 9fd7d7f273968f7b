"""Env ids -> env modules, found by looking: ``mushgym.make``, ``mushgym.game``, ``mushgym.list_envs``.

A game is its folder. Every package directly under ``mushgym.envs`` (the
repository's ``envs/``, plus any folder named in the ``MUSHGYM_GAMES_PATH``
environment variable, ``os.pathsep``-separated) whose ``__init__.py`` sets
``ENV_ID = "<name>_v<N>"`` is a registered game; its env module is
``<package>.env`` (or the module named by ``ENV_MODULE``), which defines
``Game`` (a :class:`mushgym.Game` subclass), ``raw_env`` and ``env``. A package
may also declare ``ENV_IDS = {"<name>_v1": "env", ...}`` (an env id with its env
module each); the games of this repository keep one current id each. Game
packages' ``__init__`` must stay light (no kernels), so that listing the
games compiles nothing; env modules are imported on first use.

``from mushgym.envs import fungi_v0`` and ``import mushgym.envs.fungi_v0``
resolve the env id to its env module (see ``mushgym/envs/__init__.py``), so no
version shim is written by hand.

**One current version per game.** PettingZoo keeps only the newest version of an env
importable; an older id raises an error that names the new one (its ``DeprecatedModule``).
A game package retires an id by declaring ``RETIRED_IDS = {"<name>_v0": "<name>_v1"}``
(or ``{"<name>_v0": ("<name>_v1", {"option": value})}`` when the current id needs options
to play as the old one did): ``mushgym.make``, ``mushgym.game``, ``import
mushgym.envs.<name>_v0`` and ``<name>_v0.env()`` then raise :class:`RetiredEnvError`
naming the current id, and :func:`list_envs` lists current ids only.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from pathlib import Path
from typing import Any

ENV_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*_v\d+$")
GAMES_PATH_VARIABLE = "MUSHGYM_GAMES_PATH"

_found: dict[str, str] | None = None
_packages: dict[str, str] = {}
_retired: dict[str, tuple[str, dict[str, Any]]] = {}


class RetiredEnvError(ImportError, ValueError):
    """An env id that a newer version of its game replaced (PettingZoo's ``DeprecatedEnv`` is an
    ``ImportError`` too; a ``ValueError`` like every other unknown env id)."""


def retired_message(env_id: str) -> str:
    """The error text of a retired env id: the current id, and the options that play as it did."""
    current, options = _retired[env_id]
    how = f"mushgym.make({current!r}" + "".join(f", {k}={v!r}" for k, v in options.items()) + ")"
    return (
        f"{env_id} is retired: use {current} instead ({how}); "
        f"its changes are in the version history of {current}'s docs"
    )


def game_folders() -> list[Path]:
    """Every folder a game package may live in, as ``mushgym.envs.__path__`` lists them: the
    package's own folder (looked up, not imported: ``mushgym.envs`` imports this module) and
    those of ``MUSHGYM_GAMES_PATH``."""
    folders = list(importlib.util.find_spec("mushgym.envs").submodule_search_locations)
    folders += [p for p in extra_game_folders() if p not in folders]
    return [Path(p) for p in folders]


def _discover() -> dict[str, str]:
    found: dict[str, str] = {}
    for folder in game_folders():
        if not folder.is_dir():
            continue
        for pkg in sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file()):
            name = f"mushgym.envs.{pkg.name}"
            module = importlib.import_module(name)
            for env_id, env_module_name in package_env_ids(module, pkg / "__init__.py").items():
                if env_id in found:
                    raise ValueError(
                        f"env id {env_id!r} is declared by two game packages: {_packages[env_id]} and {name}"
                    )
                found[env_id] = f"{name}.{env_module_name}"
                _packages[env_id] = name
            for old, current in package_retired_ids(module, pkg / "__init__.py").items():
                _retired[old] = current
    clash = sorted(set(_retired) & set(found))
    if clash:
        raise ValueError(f"env ids {clash} are declared both current and retired")
    unknown = {old: cur for old, (cur, _) in _retired.items() if cur not in found}
    if unknown:
        raise ValueError(f"retired env ids point to ids that are not registered: {unknown}")
    return found


def package_retired_ids(module: Any, where: Any = None) -> dict[str, tuple[str, dict[str, Any]]]:
    """``{retired env id: (current env id, options)}`` a game package declares in ``RETIRED_IDS``."""
    where = where or getattr(module, "__file__", module)
    declared = getattr(module, "RETIRED_IDS", {})
    if not isinstance(declared, dict):
        raise ValueError(f"{where}: RETIRED_IDS must be a dict {{retired id: current id}}, got {declared!r}")
    retired = {}
    for old, current in declared.items():
        options: dict[str, Any] = {}
        if isinstance(current, tuple) and len(current) == 2 and isinstance(current[1], dict):
            current, options = current
        if not (
            isinstance(old, str)
            and ENV_ID_PATTERN.match(old)
            and isinstance(current, str)
            and ENV_ID_PATTERN.match(current)
        ):
            raise ValueError(
                f"{where}: RETIRED_IDS entries must be 'name_vN': 'name_vM' (or "
                f"'name_vN': ('name_vM', {{options}})), got {old!r}: {current!r}"
            )
        retired[old] = (current, dict(options))
    return retired


def retired_envs() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{retired env id: (current env id, options that play as the retired one)}``."""
    env_modules()
    return dict(_retired)


def check_current(env_id: str) -> None:
    """Raise :class:`RetiredEnvError` (naming the current id) for a retired id, ``ValueError``
    (listing the registered ids) for an unknown one."""
    modules = env_modules()
    if env_id in _retired:
        raise RetiredEnvError(retired_message(env_id))
    if env_id not in modules:
        raise ValueError(f"unknown env id {env_id!r}; registered envs: {list_envs()}")


class RetiredEnv:
    """What ``from mushgym.envs import <retired id>`` gives (PettingZoo's ``DeprecatedModule``):
    every constructor raises :class:`RetiredEnvError` naming the current id."""

    def __init__(self, env_id: str) -> None:
        self.env_id = env_id
        self.current_id = _retired[env_id][0]

    def _refuse(self, *args: Any, **kwargs: Any):
        raise RetiredEnvError(retired_message(self.env_id))

    env = raw_env = parallel_env = Game = _refuse

    def __repr__(self) -> str:
        return f"<retired env {self.env_id}: use {self.current_id}>"


def package_env_ids(module: Any, where: Any = None) -> dict[str, str]:
    """``{env id: env module name}`` a game package declares (``ENV_ID`` [+ ``ENV_MODULE``], or
    ``ENV_IDS``); empty for a helper package. ``where`` names the file in errors."""
    where = where or getattr(module, "__file__", module)
    env_id, env_ids = getattr(module, "ENV_ID", None), getattr(module, "ENV_IDS", None)
    if env_id is not None and env_ids is not None:
        raise ValueError(f"{where}: set ENV_ID (one version) or ENV_IDS (several), not both")
    if env_ids is None:
        if env_id is None:
            return {}  # a helper package, not a game
        env_ids = {env_id: getattr(module, "ENV_MODULE", "env")}
    elif not isinstance(env_ids, dict) or not env_ids:
        raise ValueError(f"{where}: ENV_IDS must be a non-empty dict {{env id: env module name}}, got {env_ids!r}")
    for e, m in env_ids.items():
        if not isinstance(e, str) or not ENV_ID_PATTERN.match(e):
            raise ValueError(f"{where}: an env id must look like 'name_v0', got {e!r}")
        if not isinstance(m, str) or not m.isidentifier():
            raise ValueError(f"{where}: the env module of {e!r} must be a module name in the package, got {m!r}")
    return dict(env_ids)


def env_modules() -> dict[str, str]:
    """``{env id: env module path}`` of every registered game (discovered once per process)."""
    global _found
    if _found is None:
        _found = _discover()
    return _found


def list_envs() -> list[str]:
    return sorted(env_modules())


def env_module(env_id: str):
    check_current(env_id)
    return importlib.import_module(env_modules()[env_id])


def game_package(env_id: str):
    """The game's package (``mushgym.envs.fungi``): where its greedy agent, simulation and data live."""
    check_current(env_id)
    return importlib.import_module(_packages[env_id])


def game_module(env_id: str, name: str):
    """The module ``name`` of a game's package (e.g. ``greedy``), or None if the game has none."""
    pkg = game_package(env_id)
    try:
        return importlib.import_module(f"{pkg.__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{pkg.__name__}.{name}":
            return None
        raise


def game(env_id: str, **options: Any):
    """The functional API (a :class:`mushgym.Game`) of ``env_id`` with ``options``."""
    return env_module(env_id).Game(**options)


def make(env_id: str, **options: Any):
    """The PettingZoo AEC env of ``env_id``, with PettingZoo's standard wrappers."""
    return env_module(env_id).env(**options)


def make_raw(env_id: str, **options: Any):
    """The unwrapped AEC env (illegal actions raise ``ValueError``)."""
    return env_module(env_id).raw_env(**options)


def pettingzoo_id(env_id: str) -> str:
    """``fungi_v0`` -> ``mushgym/fungi-v0``, the id format of PettingZoo's own registry."""
    name, _, version = env_id.rpartition("_v")
    return f"mushgym/{name}-v{version}"


def extra_game_folders() -> list[str]:
    """Folders named by ``MUSHGYM_GAMES_PATH`` (games outside the package)."""
    value = os.environ.get(GAMES_PATH_VARIABLE, "")
    return [p for p in value.split(os.pathsep) if p]


def register_with_pettingzoo() -> None:
    """Make ``pettingzoo.make("aec", "mushgym/fungi-v0")`` work, where PettingZoo has a registry."""
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    register = getattr(pettingzoo, "register", None)
    spec = getattr(pettingzoo, "spec", None)
    if register is None:  # PettingZoo < 1.25 has no registry
        return
    for env_id, module in env_modules().items():
        pz_id = pettingzoo_id(env_id)
        try:
            spec("aec", pz_id)
            continue  # already registered (re-import)
        except Exception:
            pass
        register("aec", pz_id, entry_point=f"{module}:env")


def sibling_module(module_name: str, name: str):
    """The module ``name`` in the package of ``module_name`` (``envs/<game>/<name>.py`` beside a
    game's kernels or class), or None if there is none; an import error inside it propagates."""
    package = module_name.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as err:
        if err.name == f"{package}.{name}":
            return None
        raise
