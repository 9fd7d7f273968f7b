"""Env ids -> modules. ``mushgym.make``, ``mushgym.game``, ``mushgym.list_envs``.

An env module (``mushgym.envs.<id>``) defines ``Game`` (a :class:`mushgym.Game`
subclass), ``raw_env`` and ``env``. Modules are imported lazily, so importing
mushgym compiles nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

# env id -> module path. A game joins the registry (and so the shared test
# harness, the CLI and the benchmarks) by adding one line here.
ENV_MODULES: dict[str, str] = {
    "fungi_v0": "mushgym.envs.fungi_v0",
    "mycology_v0": "mushgym.envs.mycology_v0",
    "mycelia_v0": "mushgym.envs.mycelia_v0",
}


def list_envs() -> list[str]:
    return sorted(ENV_MODULES)


def env_module(env_id: str):
    if env_id not in ENV_MODULES:
        raise ValueError(f"unknown env id {env_id!r}; registered envs: {list_envs()}")
    return importlib.import_module(ENV_MODULES[env_id])


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
    for env_id, module in ENV_MODULES.items():
        pz_id = pettingzoo_id(env_id)
        try:
            spec("aec", pz_id)
            continue  # already registered (re-import)
        except Exception:
            pass
        register("aec", pz_id, entry_point=f"{module}:env")
