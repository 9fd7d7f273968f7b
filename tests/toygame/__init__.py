"""A tiny two-player game used to test the engine itself, independently of the real games.

Secret race: each player is dealt one hidden card (0..9) from a shuffled deck;
players alternately add 1 or 2 to a shared counter; whoever brings it to 10 or
more wins. Option ``leak=True`` makes ``observe`` show the opponent's hidden
card, so the shared hidden-information check must fail on it.

It is also a complete game package: copied into a folder named in
``MUSHGYM_GAMES_PATH`` it registers itself (tests/harness/test_zero_touch.py).
"""

ENV_ID = "toyrace_v0"
ENV_MODULE = "game"

from pathlib import Path as _Path

from mushgym.core.cache import refresh_game_cache as _refresh

_refresh(_Path(__file__).resolve().parent, __name__)  # not under envs/: keep its numba cache fresh too
