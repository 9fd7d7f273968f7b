"""mushgym: fast, faithful multi-agent RL environments for mushroom board and card games.

    import mushgym
    env = mushgym.make("fungi_v0")            # PettingZoo AEC env (standard wrappers)
    game = mushgym.game("fungi_v0")           # functional API over state arrays
    mushgym.list_envs()
"""

from .core.tbb import preload_tbb

preload_tbb()              # numba's TBB threading layer, from a venv's lib/ (see mushgym.core.tbb)

from .compiling import install_compile_notice  # noqa: E402
from .core.cache import install_cache_guard  # noqa: E402
from .game import Game, GameSpec  # noqa: E402
from .registry import game, list_envs, make, make_raw, register_with_pettingzoo  # noqa: E402

register_with_pettingzoo()
install_compile_notice()   # one line on stderr when a game's kernels compile (cold numba cache)
install_cache_guard()      # a corrupted numba cache file is dropped and recompiled, not an error

__version__ = "0.1.0"
__all__ = ["Game", "GameSpec", "game", "list_envs", "make", "make_raw", "__version__"]
