"""Build and read Mycology positions for scenario tests (on MycologyGame.state_from and the layout)."""

from __future__ import annotations

import numpy as np

from mushgym.core import rng_seed
from mushgym.envs.mycology import rules as R
from mushgym.envs.mycology.actions import A
from mushgym.envs.mycology.game import MycologyGame, seed_for_roll
from mushgym.envs.mycology.layout import L

OP, PP, WR, SY, SD = range(5)
WINTER, SPRING, SUMMER, FALL = range(4)
encode_action = A.encode


def card(game: MycologyGame, name: str) -> int:
    return game.card_id(name)


def fields(s: np.ndarray) -> dict[str, np.ndarray]:
    """Writable named views of a state (``fields(s)["feast"][0] = 2``)."""
    return L.arrays(s)


def position(
    game: MycologyGame | None = None,
    *,
    seed: int = 7,
    season: int = WINTER,
    cur: int = 0,
    res=None,
    feast=None,
    magic=None,
    poison=None,
) -> np.ndarray:
    """A position at the start of player ``cur``'s actions (roll already made) with the
    given season and tokens (default: no resources, no tokens) and empty baskets."""
    game = game or MycologyGame()
    return game.state_from(
        season=season, turn_player=cur, resources=res, feast=feast, magic=magic, poison=poison, seed=seed
    )


def rescore(game: MycologyGame, s: np.ndarray) -> None:
    R.update_scores(s, game.config)


def _take(s: np.ndarray, c: int) -> None:
    """Take card ``c`` out of the deck or the field (a field slot is refilled from the deck top)."""
    v = fields(s)
    n = int(v["deck_count"])
    deck = v["deck"]
    hits = np.flatnonzero(deck[:n] == c)
    if hits.size:
        i = int(hits[0])
        deck[i : n - 1] = deck[i + 1 : n].copy()
    else:
        slots = np.flatnonzero(v["field"] == c)
        if not slots.size:
            raise ValueError(f"card {c} is neither in the deck nor in the field")
        v["field"][int(slots[0])] = deck[n - 1]
    deck[n - 1] = 0
    v["deck_count"][...] = n - 1


def set_field(s: np.ndarray, slot: int, c: int) -> None:
    """Put card ``c`` into field ``slot``; the card that was there takes ``c``'s old place."""
    v = fields(s)
    n = int(v["deck_count"])
    old = int(v["field"][slot])
    hits = np.flatnonzero(v["deck"][:n] == c)
    if hits.size:
        v["deck"][int(hits[0])] = old
    else:
        v["field"][int(np.flatnonzero(v["field"] == c)[0])] = old
    v["field"][slot] = c


def give(game: MycologyGame, s: np.ndarray, p: int, season: int, c: int) -> None:
    """Put card ``c`` (from the deck or the field) on top of player p's basket of ``season``;
    a field slot it leaves is refilled from the deck top."""
    _take(s, c)
    v = fields(s)
    cnt = int(v["basket_count"][p, season])
    assert cnt < R.CAPACITY[season], "basket full"
    v["basket"][p, season, cnt] = c
    v["basket_count"][p, season] = cnt + 1
    rescore(game, s)


def set_next_roll(s: np.ndarray, total: int) -> None:
    rng_seed(s, R.RNG, seed_for_roll(total))


def res_of(s: np.ndarray, p: int) -> list[int]:
    return [int(x) for x in fields(s)["resources"][p]]


def legal(game: MycologyGame, s: np.ndarray) -> set[int]:
    return set(int(a) for a in game.legal_actions(s))
