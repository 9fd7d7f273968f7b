"""Build Mycology positions directly in the state array for scenario tests."""

from __future__ import annotations

import numpy as np

from mushgym.core import rng_below, rng_seed
from mushgym.envs.mycology import rules as R
from mushgym.envs.mycology.game import MycologyGame, decode_action, encode_action  # noqa: F401

OP, PP, WR, SY, SD = range(5)
WINTER, SPRING, SUMMER, FALL = range(4)


def card(game: MycologyGame, name: str) -> int:
    return game.deck.names.index(name)


def position(game: MycologyGame | None = None, *, seed: int = 7, season: int = WINTER, cur: int = 0,
             res=None, feast=None, magic=None, poison=None) -> np.ndarray:
    """A dealt game put at the start of player ``cur``'s actions (roll already made) with the
    given season and tokens (default: no resources, no tokens) and empty baskets."""
    game = game or MycologyGame()
    n = game.num_players
    s = game.new_state(seed)
    s[R.CUR] = cur
    s[R.FIRST] = cur
    s[R.SEASON] = season
    s[R.PHASE] = R.PH_MAIN
    s[R.ACTIONS_LEFT] = 2
    s[R.TURN] = 0
    for p in range(n):
        s[R.RES + p * 5:R.RES + p * 5 + 5] = 0 if res is None else res[p]
        s[R.FEAST + p] = 0 if feast is None else feast[p]
        s[R.MAGIC + p] = 0 if magic is None else magic[p]
        s[R.POISON + p] = 0 if poison is None else poison[p]
    rescore(game, s)
    return s


def rescore(game: MycologyGame, s: np.ndarray) -> None:
    R._update_scores(s, game.config)


def _locate(s: np.ndarray, c: int):
    for i in range(int(s[R.DECK_N])):
        if s[R.DECK + i] == c:
            return ("deck", R.DECK + i)
    for j in range(R.FIELD_SIZE):
        if s[R.FIELD + j] == c:
            return ("field", R.FIELD + j)
    raise ValueError(f"card {c} is neither in the deck nor in the field")


def set_field(s: np.ndarray, slot: int, c: int) -> None:
    """Put card ``c`` into field ``slot``; the card that was there takes ``c``'s old place."""
    _, where = _locate(s, c)
    old = s[R.FIELD + slot]
    s[where] = old
    s[R.FIELD + slot] = c


def give(game: MycologyGame, s: np.ndarray, p: int, season: int, c: int) -> None:
    """Put card ``c`` (from the deck or the field) on top of player p's basket of ``season``;
    a field slot it leaves is refilled from the deck top."""
    kind, where = _locate(s, c)
    if kind == "deck":
        i = where - R.DECK
        n = int(s[R.DECK_N])
        s[R.DECK + i:R.DECK + n - 1] = s[R.DECK + i + 1:R.DECK + n].copy()
        s[R.DECK + n - 1] = 0
        s[R.DECK_N] = n - 1
    else:
        n = int(s[R.DECK_N])
        s[where] = s[R.DECK + n - 1]
        s[R.DECK + n - 1] = 0
        s[R.DECK_N] = n - 1
    cnt = int(s[R.BCOUNT + p * 4 + season])
    assert cnt < R.CAPACITY[season], "basket full"
    s[R.BASKET + p * 10 + int(R.BASKET_OFF[season]) + cnt] = c
    s[R.BCOUNT + p * 4 + season] = cnt + 1
    rescore(game, s)


def next_roll_seed(total: int, start: int = 0) -> int:
    """A generator seed whose next two d6 make ``total``."""
    tmp = np.zeros(4, np.int64)
    for seed in range(start, start + 100000):
        rng_seed(tmp, 0, seed)
        d1 = rng_below(tmp, 0, 6) + 1
        d2 = rng_below(tmp, 0, 6) + 1
        if d1 + d2 == total:
            return seed
    raise AssertionError(f"no seed for total {total}")


def set_next_roll(s: np.ndarray, total: int) -> None:
    rng_seed(s, R.RNG, next_roll_seed(total))


def res_of(s: np.ndarray, p: int) -> list[int]:
    return [int(x) for x in s[R.RES + p * 5:R.RES + p * 5 + 5]]


def legal(game: MycologyGame, s: np.ndarray) -> set[int]:
    return set(int(a) for a in game.legal_actions(s))
