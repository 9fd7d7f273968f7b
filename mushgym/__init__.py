"""mushgym: fast, faithful multi-agent RL environments for mushroom board and card games.

    import mushgym
    env = mushgym.make("fungi_v0")            # PettingZoo AEC env (standard wrappers)
    game = mushgym.game("fungi_v0")           # functional API over state arrays
    mushgym.list_envs()
"""

from .compiling import install_compile_notice
from .game import Game, GameSpec
from .registry import game, list_envs, make, make_raw, register_with_pettingzoo

register_with_pettingzoo()
install_compile_notice()   # one line on stderr when a game's kernels compile (cold numba cache)

__version__ = "0.1.0"
__all__ = ["Game", "GameSpec", "game", "list_envs", "make", "make_raw", "__version__"]
