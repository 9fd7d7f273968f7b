"""mushgym: fast, faithful multi-agent RL environments for mushroom board and card games.

    import mushgym
    env = mushgym.make("fungi_v0")            # PettingZoo AEC env (standard wrappers)
    game = mushgym.game("fungi_v0")           # functional API over state arrays
    mushgym.list_envs()

``import mushgym`` alone loads neither numba nor a game, so the ``mushgym`` command line
answers at once. The engine is set up (:func:`setup`) on the first use of the names above,
or when ``mushgym.envs`` is imported (``from mushgym.envs import fungi_v0``): numba's TBB
threading layer, the one-line compile notice, the guard against corrupted cache files, and
the env ids in PettingZoo's registry (``pettingzoo.make("aec", "mushgym/fungi-v0")``).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

__version__ = "0.2.0"
__all__ = ["Game", "GameSpec", "game", "list_envs", "make", "make_raw", "setup", "__version__"]

# public name -> the module that defines it (imported on first use)
_ENGINE = {
    "Game": "game",
    "GameSpec": "game",
    "list_envs": "registry",
    "make": "registry",
    "make_raw": "registry",
    "register_with_pettingzoo": "registry",
}
_set_up = False


def setup() -> None:
    """Set up the engine once per process (see the module docstring); later calls do nothing."""
    global _set_up
    if _set_up:
        return
    _set_up = True
    from .core.tbb import preload_tbb

    preload_tbb()  # numba's TBB threading layer, from a venv's lib/ (see mushgym.core.tbb)
    from .compiling import install_compile_notice
    from .core.cache import install_cache_guard
    from .registry import register_with_pettingzoo

    install_compile_notice()  # one line on stderr when a game's kernels compile (cold numba cache)
    install_cache_guard()  # a corrupted numba cache file is dropped and recompiled, not an error
    register_with_pettingzoo()


def game(env_id: str, **options: Any):
    """The functional API (a :class:`mushgym.Game`) of ``env_id`` with ``options``."""
    setup()
    from .registry import game as registry_game

    return registry_game(env_id, **options)


def __getattr__(name: str):
    if name in _ENGINE:
        setup()
        value = getattr(importlib.import_module(f"{__name__}.{_ENGINE[name]}"), name)
        globals()[name] = value
        return value
    if importlib.util.find_spec(f"{__name__}.{name}") is not None:  # a submodule: mushgym.vector, ...
        setup()
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """``mushgym.game`` stays the function above when the submodule ``mushgym/game.py`` (the
    ``Game`` class) is imported: the import system would otherwise set the package's attribute
    ``game`` to that module (``from mushgym.game import Game`` keeps working either way)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "game" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
