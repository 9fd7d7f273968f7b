"""Mycelia's flat action space, declared as named groups (:class:`mushgym.core.ActionSpace`).

The generated ``pay_action(tile, owner)`` / ``pay_args(a)``, ``place_action(tile, edge)``
and the like (``generated/actions.py``, ``mushgym generate``) are imported into this module; the kernels import
them from here. The same declaration
gives ``encode_action`` / ``decode_action`` and the action table of the env docstring.

The North American expansion's groups are APPENDED after the base game's (``NUM_ACTIONS_BASE``
= 502 ids, which never move): its 35 cards, the fifth seat's spores and seat choice, the
sapling choices, AGE, the symbiosis re-roll and the tile kept by "explore 2 keep 1". A game
without the expansion has the base game's 502 actions (the prefix). The kernels go through
:func:`card_action` / :func:`action_card`, :func:`pay_owner_action` and :func:`seat_action` /
:func:`action_seat`, which map a card, an owner or a seat to its id in either block.
"""

from numba import njit

from mushgym.core import ActionSpace

from .layout import BASE_SEATS, MARKET_SIZE, NC_BASE, NC_NA, NMATS, NT_MAX

A = ActionSpace("mycelia_v1 actions")
A_TILE = A.add(
    "tile",
    NT_MAX,
    dims=("tile",),
    doc="placed tile t (placement order): MOVE the M onto neighbouring tile t (main decision); step on "
    "to t; place the M on centre tile t (setup); put the next spore on t; grow on t; pick outer tile "
    "t / the opponent mushroom on t; destination t of a moved mushroom or M; expansion: the tile a "
    "pushed or bonus spore goes to, the sapling chosen or the tile given a sapling",
)
A_PAY = A.add(
    "pay", (NT_MAX, BASE_SEATS), dims=("tile", "owner"), doc="fruit: pay one spore of seat `owner` from tile `tile`"
)
A_CARD = A.add(
    "card", NC_BASE, dims=("card",), doc="card id c: FRUIT c (main decision); keep c (discover 2 keep 1); trade c in"
)
A_MARKET = A.add(
    "market", MARKET_SIZE, dims=("slot",), doc='DISCOVER: take market card j (also the picks of "draw two")'
)
A_DECK = A.add(
    "deck",
    doc="DISCOVER: take the top card of the deck; discover 2 keep 1: the other card goes to the bottom of the deck",
)
A_PILE = A.add("pile", 2, dims=("pile",), doc="EXPLORE: draw the top tile of pile j")
A_PLACE = A.add(
    "place",
    (NT_MAX, 3),
    dims=("tile", "edge"),
    doc="put the drawn (or moved) tile across free edge `edge` of placed tile `tile` (one action per "
    "free cell: its lowest-index neighbour)",
)
A_ROT = A.add("rotate", 3, dims=("rotation",), doc="turn the tile to rotation r")
A_SPORE = A.add("spore", 1 + NMATS, dims=("source",), doc="SPORE from the M (0) or from the mushroom of mat i (1 + i)")
A_DECAY = A.add("decay", NMATS, dims=("mat",), doc="DECAY the mushroom of mat i")
A_MAT = A.add("mat", NMATS, dims=("mat",), doc="fruit: put the card on mat i")
A_SEAT = A.add("seat", BASE_SEATS, dims=("seat",), doc="choose seat s (whose M to move; whom to steal from)")
A_INSECT_MOVE = A.add("insect_move", doc="free: spend 2 insects to move another player's M")
A_REFRESH = A.add("refresh", doc="free: spend 1 insect to refresh the market")
A_TRADE = A.add("trade", doc="free: trade 3 cards for 1 insect")
A_STOP = A.add(
    "stop",
    doc="stop moving; end the turn (when no main action is possible, or after two: declining "
    "the free actions); discover 2 keep 1: the other card goes back in the box",
)
NUM_ACTIONS_BASE = A.size
# --- the North American expansion (appended: the base game's ids never move) -----------------
A_CARD_NA = A.add("card_na", NC_NA, dims=("card",), doc="expansion card id 69 + c: as `card`")
A_PAY_SEAT4 = A.add(
    "pay_seat4", NT_MAX, dims=("tile",), doc="fruit: pay one spore of seat 4 (the fifth) from tile `tile`"
)
A_SEAT4 = A.add("seat4", doc="choose seat 4 (the fifth)")
A_NO_INVEST = A.add(
    "no_invest",
    doc="SPORE: keep every spore on its tile (invest none in a sapling); investing names the sapling's tile (`tile`)",
)
A_PUSH_SAPLING = A.add(
    "push_sapling",
    NT_MAX,
    dims=("tile",),
    doc="push the spore off a Grandfather Tree onto the sapling of neighbouring tile t (only while "
    "the SPORE action has not invested; the spore's owner rolls)",
)
A_AGE = A.add("age", doc="AGE: the sapling under the M (3 spores) becomes a Grandfather Tree")
A_REROLL = A.add("reroll", 2, dims=("choice",), doc="symbiosis roll: 0 keep it, 1 re-roll (the upgrade)")
A_KEEP_TILE = A.add(
    "keep_tile", 2, dims=("which",), doc="explore 2 keep 1: place drawn tile 0 or 1 (the other is discarded)"
)
NUM_ACTIONS = A.size
A.generated(globals())
# fmt: off
from .generated.actions import (  # noqa: E402,F401  (generated from A by `mushgym generate`)  # isort: skip
    card_action, card_args, card_na_action, card_na_args, decay_action, decay_args, keep_tile_action,
    keep_tile_args, market_action, market_args, mat_action, mat_args, pay_action, pay_args, pay_seat4_action,
    pay_seat4_args, pile_action, pile_args, place_action, place_args, push_sapling_action, push_sapling_args,
    reroll_action, reroll_args, rotate_action, rotate_args, seat_action, seat_args, spore_action, spore_args,
    tile_action, tile_args,
)
# fmt: on


@njit(cache=True, inline="always")
def card_action(c):  # noqa: F811 (replaces the generated helper: two blocks of cards)
    """The id choosing card ``c`` (base or expansion block)."""
    return A_CARD + c if c < NC_BASE else A_CARD_NA + c - NC_BASE


@njit(cache=True, inline="always")
def action_card(a):
    """The card an id of the ``card`` or ``card_na`` group names; -1 for any other id."""
    if A_CARD <= a < A_CARD + NC_BASE:
        return a - A_CARD
    if A_CARD_NA <= a < A_CARD_NA + NC_NA:
        return a - A_CARD_NA + NC_BASE
    return -1


@njit(cache=True, inline="always")
def pay_owner_action(t, o):
    """The id paying a spore of seat ``o`` from tile ``t``."""
    return A_PAY + t * BASE_SEATS + o if o < BASE_SEATS else A_PAY_SEAT4 + t


@njit(cache=True, inline="always")
def seat_action(s):  # noqa: F811 (replaces the generated helper: the fifth seat)
    return A_SEAT + s if s < BASE_SEATS else A_SEAT4


@njit(cache=True, inline="always")
def action_seat(a):
    return BASE_SEATS if a == A_SEAT4 else a - A_SEAT


def decode_action(action: int) -> tuple:
    """``action`` as ``(kind, args...)``: ``("pay", tile, owner)``, ``("stop",)``; see the action table."""
    name, args = A.decode(action)
    return (name,) + tuple(int(x) for x in args)


def encode_action(kind: str, *args: int) -> int:
    """Inverse of :func:`decode_action`: ``encode_action('pay', tile, owner)``, ``encode_action('stop')``;
    a clear error naming the valid kinds or the argument's range."""
    return A.encode(kind, *args)
