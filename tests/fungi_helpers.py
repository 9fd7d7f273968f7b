"""Build Fungi positions directly (hands, Forest line, decay, sticks, displays) for scenario tests."""

from __future__ import annotations

import numpy as np

from mushgym.core import rng_seed
from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.game import FungiGame, decode_action, encode_action  # noqa: F401

# Card names -> kinds (short and full names both work).
K: dict[str, int] = {}
for _k, _n in enumerate(C.KIND_SHORT):
    K[_n] = _k
for _k, _n in enumerate(C.KIND_NAMES):
    K[_n] = _k


def kind(x) -> int:
    return x if isinstance(x, (int, np.integer)) else K[x]


def setup(game: FungiGame | None = None, *, forest=(), decay=(), hands=({}, {}), known=({}, {}),
          sticks=(0, 0), baskets=(0, 0), pans=(1, 1), fly_new=(0, 0), fly_old=(0, 0),
          draw=None, night=None, cur=0, start=0, phase=R.PH_ACT, check=True) -> np.ndarray:
    """A state with exactly the given position; every other card is placed so that all
    94 cards are accounted for: the draw pile holds the remaining Forest cards (unless
    ``draw`` is given: a list, top last; then the rest go to the discard pile), the Night
    pile holds the remaining Night cards (unless ``night`` is given, top last)."""
    game = game or FungiGame()
    s = np.zeros(R.STATE_SIZE, np.int64)
    rng_seed(s, R.RNG, 12345)
    left = game.deck.copies.copy()

    def use(k, n=1):
        left[k] -= n
        if left[k] < 0:
            raise ValueError(f"scenario uses more {C.KIND_NAMES[k]} than the deck has")

    for i, c in enumerate(forest):
        s[R.FOREST + i] = kind(c)
        use(kind(c))
    s[R.FOREST_N] = len(forest)
    for j, c in enumerate(decay):
        s[R.DECAY + j] = kind(c)
        use(kind(c))
    s[R.DECAY_N] = len(decay)
    for p in range(2):
        for name, n in hands[p].items():
            k = kind(name)
            s[R.HAND + p * C.NHAND + k] += n
            s[R.HAND_N + p] += n
            use(k, n)
        for name, n in known[p].items():
            s[R.KNOWN + p * C.NHAND + kind(name)] = n
        s[R.STICKS + p] = sticks[p]
        s[R.BASKETS + p] = baskets[p]
        use(C.BASKET, baskets[p])
        s[R.EMPTY_PANS + p] = pans[p]
        use(C.PAN, pans[p])
        s[R.FLY_NEW + p] = fly_new[p]
        s[R.FLY_OLD + p] = fly_old[p]
        use(C.FLY, fly_new[p] + fly_old[p])
    if night is None:
        night = [k for k in range(C.NIGHT0, C.NIGHT0 + C.NNIGHT) for _ in range(left[k])]
    for i, c in enumerate(night):
        s[R.NIGHTP + i] = kind(c)
        use(kind(c))
    s[R.NIGHT_N] = len(night)
    if draw is None:
        # Moons beyond the Night cards left would be unplayable: those go to the discard pile.
        placed_moons = sum(kind(c) == C.MOON for c in list(forest) + list(decay))
        moons = max(0, min(int(left[C.MOON]), len(night) - placed_moons))
        draw = [k for k in range(C.NKINDS) if not C.NIGHT0 <= k < C.NIGHT0 + C.NNIGHT
                for _ in range(moons if k == C.MOON else left[k])]
    for i, c in enumerate(draw):
        s[R.DRAW + i] = kind(c)
        use(kind(c))
    s[R.DRAW_N] = len(draw)
    for k in range(C.NKINDS):
        s[R.DISCARD + k] = left[k]
    s[R.CUR] = cur
    s[R.START] = start
    s[R.PHASE] = phase
    if check:
        game.check_invariants(s)
    return s


def add_pan(s: np.ndarray, p: int, t, f: int, n: int = 0, b: int = 0, c: int = 0, game: FungiGame | None = None):
    """Record a cooked pan for player ``p`` taking its cards out of the discard pile."""
    game = game or FungiGame()
    t = kind(t)
    d = game.deck
    for k, m in ((t, f), (C.NIGHT0 + t, n), (C.BUTTER, b), (C.CIDRE, c), (C.PAN, 1)):
        if m:
            assert s[R.DISCARD + k] >= m, f"no {C.KIND_NAMES[k]} left in the discard pile for the pan"
            s[R.DISCARD + k] -= m
    r = R.PANS + (p * R.MAX_PANS + s[R.NCOOKED + p]) * R.PAN_REC
    s[r:r + 5] = (t, f, n, b, c)
    s[R.NCOOKED + p] += 1
    u = f + 2 * n
    s[R.COOKED_F + p * C.NTYPES + t] += f
    s[R.COOKED_NT + p * C.NTYPES + t] += n
    s[R.COOKED_B + p] += b
    s[R.COOKED_C + p] += c
    s[R.SCORE + p] += u * int(d.flavor[t]) + 3 * b + 5 * c
    s[R.UNITS + p] += u


def hand(s: np.ndarray, p: int) -> dict[str, int]:
    return {C.KIND_SHORT[k]: int(s[R.HAND + p * C.NHAND + k]) for k in range(C.NHAND) if s[R.HAND + p * C.NHAND + k]}


def legal_set(game: FungiGame, s: np.ndarray) -> set[tuple]:
    return {decode_action(a) for a in game.legal_actions(s)}


def forest(s: np.ndarray) -> list[str]:
    return [C.KIND_SHORT[int(k)] for k in s[R.FOREST:R.FOREST + int(s[R.FOREST_N])]]


def decay(s: np.ndarray) -> list[str]:
    return [C.KIND_SHORT[int(k)] for k in s[R.DECAY:R.DECAY + int(s[R.DECAY_N])]]
