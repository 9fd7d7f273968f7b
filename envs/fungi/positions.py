"""Fungi positions from a readable description (``FungiGame.state_from``), for puzzles,
endgame studies, search tests and scenario tests.

Cards are named by kind number or by name, full or short (``"Honey fungus"``,
``"Honey"``, ``"Night Shiitake"``, ``"N-Shiitake"``, ``"Pan"``, ``"Fly agaric"`` /
``"FlyAgaric"``, ...). Everything the description leaves out is filled in so that
every card of the deck is somewhere exactly once: the remaining Night cards go to
the Night pile, the remaining Forest-deck cards to the draw pile (Moons beyond the
Night cards left to draw would be unplayable: those go to the discard pile), and
the state is checked by the game's validator (``validate.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mushgym.core import rng_seed

from . import rules as R
from .cards import BASKET, BUTTER, CIDRE, FLY, KIND_NAMES, KIND_SHORT, MOON, NIGHT0, NKINDS, NNIGHT, NTYPES, PAN

if TYPE_CHECKING:
    from .game import FungiGame

CARD_KINDS: dict[str, int] = {}
for _k, _n in enumerate(KIND_SHORT):
    CARD_KINDS[_n.lower()] = _k
for _k, _n in enumerate(KIND_NAMES):
    CARD_KINDS[_n.lower()] = _k


def card_kind(card: Any) -> int:
    """A card kind from its number or its (full or short, any case) name; a clear error otherwise."""
    if isinstance(card, (int, np.integer)) and not isinstance(card, bool):
        if not 0 <= int(card) < NKINDS:
            raise ValueError(f"fungi_v0: card kind {card} is outside 0..{NKINDS - 1}")
        return int(card)
    if isinstance(card, str) and card.lower() in CARD_KINDS:
        return CARD_KINDS[card.lower()]
    raise ValueError(
        f"fungi_v0: unknown card {card!r}; cards are {', '.join(KIND_NAMES)} "
        f"(or short names {', '.join(KIND_SHORT)}), or kind numbers 0..{NKINDS - 1}"
    )


def _cards(cards: Mapping | Iterable) -> list[int]:
    """``{"Honey": 2, "Pan": 1}`` or ``["Honey", "Honey", "Pan"]`` -> a list of kinds."""
    if isinstance(cards, Mapping):
        out = []
        for name, n in cards.items():
            if int(n) < 0:
                raise ValueError(f"fungi_v0: negative count {n} of {name!r}")
            out += [card_kind(name)] * int(n)
        return out
    return [card_kind(c) for c in cards]


def _pair(value, what: str) -> tuple:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"fungi_v0: {what} must be a pair (player 0, player 1), got {value!r}")
    return tuple(value)


def describe_pending(state: np.ndarray) -> tuple | None:
    """The top of the decision stack: None, ("cook", type, night, forest) or ("trim", cards to discard)."""
    kind = int(R.top_kind(state))
    if kind == R.D_COOK:
        return (
            "cook",
            int(R.top_arg(state, R.COOK_TYPE)),
            int(R.top_arg(state, R.COOK_NIGHT)),
            int(R.top_arg(state, R.COOK_FOREST)),
        )
    if kind == R.D_TRIM:
        p = int(R.top_player(state))
        return ("trim", int(state[R.hand_n_at(p)] - R.trim_limit(state, p)))
    return None


def state_from(
    game: FungiGame,
    *,
    hands=({}, {}),
    forest=(),
    decay=(),
    known=({}, {}),
    sticks=(0, 0),
    baskets=(0, 0),
    pans=(1, 1),
    cooked=((), ()),
    fly_new=(0, 0),
    fly_old=(0, 0),
    to_act=0,
    start=0,
    pending=None,
    draw=None,
    night=None,
    discard=None,
    seed=12345,
    check=True,
) -> np.ndarray:
    """A Fungi state with exactly the position described.

    hands      per player, the cards in hand (``{"Honey": 2, "N-Hen": 1}`` or a list)
    known      per player, which of them the opponent has seen (taken face up); default none
    forest     the Forest line, position 0 (next to the decay pile) first; at most 8
    decay      the decay pile, oldest first; at most 4
    sticks, baskets, pans (empty Pans in the display), fly_new (Fly agaric taken this own
               turn), fly_old (expiring at the end of the next own turn): one number per player
    cooked     per player, the cooked pans: ``(type, forest)``, ``(type, forest, night)`` or
               ``(type, forest, night, butter, cidre)``, type a number or a mushroom's name;
               scores and totals follow from them
    to_act     the player whose turn it is; ``start`` the start player
    pending    None (``to_act`` chooses one of the five actions), ``("cook", type, night, forest)``
               (those cards are in the pan being cooked; the follow-up is asked) or ``("trim",)``
               (``to_act`` took a Fly agaric and discards down to its limit)
    draw       the draw pile, top last (default: every remaining Forest-deck card, in kind order);
    night      the Night pile, top last (default: every remaining Night card);
    discard    cards in the discard pile (default: whatever is left over)
    seed       seeds the state's generator (Fungi only uses it for the deal)

    Raises ValueError naming the problem when the description uses more cards than the deck
    has, names an unknown card, or describes a position the rules cannot reach (the
    invariants of the validator, ``validate.py``; pass ``check=False`` to build it anyway).
    """
    s = game.stamp_header(np.zeros(game.state_size, np.int64))  # the header: mushgym.core.header
    v = R.L.arrays(s)
    rng_seed(s, R.RNG, int(seed))
    left = game.deck.copies.astype(np.int64).copy()

    def use(k: int, n: int = 1, where: str = "") -> None:
        left[k] -= n
        if left[k] < 0:
            raise ValueError(
                f"fungi_v0: the position uses {int(game.deck.copies[k] - left[k])} {KIND_NAMES[k]}"
                f"{' (' + where + ')' if where else ''}; the deck has {int(game.deck.copies[k])}"
            )

    def place(field: str, count: str, cards: list[int], cap: int, what: str) -> None:
        if len(cards) > cap:
            raise ValueError(f"fungi_v0: {what} holds at most {cap} cards, got {len(cards)}")
        for i, k in enumerate(cards):
            v[field][i] = k
            use(k, where=what)
        v[count][...] = len(cards)

    place("forest", "forest_n", _cards(forest), R.FOREST_SIZE, "the Forest")
    place("decay", "decay_n", _cards(decay), R.DECAY_MAX, "the decay pile")
    hands, known, cooked = _pair(hands, "hands"), _pair(known, "known"), _pair(cooked, "cooked")
    per_player = {
        name: _pair(val, name)
        for name, val in (
            ("sticks", sticks),
            ("baskets", baskets),
            ("pans", pans),
            ("fly_new", fly_new),
            ("fly_old", fly_old),
        )
    }
    for p in range(2):
        for k in _cards(hands[p]):
            if k >= R.NHAND:
                raise ValueError(f"fungi_v0: a {KIND_NAMES[k]} is never held in a hand")
            v["hand"][p, k] += 1
            use(k, where=f"player {p}'s hand")
        v["hand_n"][p] = v["hand"][p].sum()
        for k in _cards(known[p]):
            v["known"][p, k] += 1
        v["sticks"][p] = per_player["sticks"][p]
        for field, kind in (("baskets", BASKET), ("pans", PAN), ("fly_new", FLY), ("fly_old", FLY)):
            n = int(per_player[field][p])
            v["empty_pans" if field == "pans" else field][p] = n
            use(kind, n, f"player {p}'s display")
        for pan in cooked[p]:
            _cook(game, v, p, (card_kind(pan[0]), *(int(x) for x in pan[1:])), use)
    if not (to_act in (0, 1) and start in (0, 1)):
        raise ValueError(f"fungi_v0: to_act and start are players 0 or 1, got {to_act!r}, {start!r}")
    s[R.TURN_PLAYER] = to_act
    s[R.START] = start
    s[R.LAST] = 1 - to_act
    if pending is not None:
        _push_pending(s, to_act, tuple(pending), use)
    if discard is not None:
        for k in _cards(discard):
            v["discard"][k] += 1
            use(k, where="the discard pile")
    night = [k for k in range(NIGHT0, NIGHT0 + NNIGHT) for _ in range(left[k])] if night is None else _cards(night)
    place("night_pile", "night_n", night, R.MAX_NIGHT_DECK, "the Night pile")
    if draw is None:
        placed_moons = sum(k == MOON for k in v["forest"][: int(v["forest_n"])]) + sum(
            k == MOON for k in v["decay"][: int(v["decay_n"])]
        )
        moons = max(0, min(int(left[MOON]), len(night) - int(placed_moons)))
        draw = [
            k
            for k in range(NKINDS)
            if not NIGHT0 <= k < NIGHT0 + NNIGHT
            for _ in range(moons if k == MOON else left[k])
        ]
    else:
        draw = _cards(draw)
    place("draw_pile", "draw_n", draw, R.MAX_DRAW, "the draw pile")
    v["discard"][:] += left  # whatever is still unplaced
    if check:
        try:
            game.validate(s)
        except ValueError as e:
            why = str(e).removeprefix(f"{game.env_id}: invalid state: ")
            raise ValueError(f"{game.env_id}: the described position breaks a rule of the game: {why}") from None
    return s


def _cook(game: FungiGame, v: dict, p: int, pan: tuple, use) -> None:
    if not 2 <= len(pan) <= 5:
        raise ValueError(f"fungi_v0: a cooked pan is (type, forest[, night[, butter, cidre]]), got {pan}")
    t, f, n, b, c = pan + (0,) * (5 - len(pan))
    if not 0 <= t < NTYPES:
        raise ValueError(f"fungi_v0: mushroom type {t} is outside 0..{NTYPES - 1}")
    i = int(v["cooked_pans"][p])
    if i >= R.MAX_PANS:
        raise ValueError(f"fungi_v0: at most {R.MAX_PANS} cooked pans per player")
    d = game.deck
    where = f"player {p}'s cooked pans"
    for k, m in ((t, f), (NIGHT0 + t, n), (BUTTER, b), (CIDRE, c), (PAN, 1)):
        if m and (k != NIGHT0 + t or t < NNIGHT):
            use(k, m, where)
    if n and t >= NNIGHT:
        raise ValueError("fungi_v0: there are no Night Morels")
    u = f + (n * int(d.units[NIGHT0 + t]) if t < NNIGHT else 0)
    v["pan_records"][p, i] = (t, f, n, b, c)
    v["cooked_pans"][p] = i + 1
    v["cooked_forest"][p, t] += f
    v["cooked_night"][p, t] += n
    v["cooked_butter"][p] += b
    v["cooked_cidre"][p] += c
    v["score"][p] += u * int(d.flavor[t]) + b * int(d.flavor[BUTTER]) + c * int(d.flavor[CIDRE])
    v["mushrooms_cooked"][p] += u


def _push_pending(s: np.ndarray, p: int, pending: tuple, use) -> None:
    if pending[:1] == ("trim",) and len(pending) == 1:
        R.push_decision(s, R.D_TRIM, p)
    elif pending[:1] == ("cook",) and len(pending) == 4:
        t, n, f = card_kind(pending[1]), int(pending[2]), int(pending[3])
        if not (0 <= t < NTYPES and 0 <= n < R.N_VALUES and 0 <= f < R.F_VALUES) or (n and t >= NNIGHT):
            raise ValueError(
                f"fungi_v0: pending cook {pending}: type 0..{NTYPES - 1}, night 0..{R.N_VALUES - 1} "
                f"(no Night Morel), forest 0..{R.F_VALUES - 1}"
            )
        use(t, f, "the pan being cooked")
        if n:
            use(NIGHT0 + t, n, "the pan being cooked")
        R.push_decision(s, R.D_COOK, p, t, n, f)
    else:
        raise ValueError(f"fungi_v0: pending is None, ('cook', type, night, forest) or ('trim',); got {pending!r}")
