"""Mycology's compact observation (``mycology_v1``): its declaration (with bounds) and the ``observe`` kernel.

The same information as ``mycology_v0``'s observation (:mod:`.observation`), as small
integers only, so that the vector API writes it as ``uint8`` (one byte a value instead
of four, and 182 values instead of 807 with 2 players):

* categories are ids, not one-hot blocks (season, decision, actions left, dice total,
  the player to act, the payment type, the pending action and its argument, the place
  given in an exchange); the ``onehot`` encoder expands them again;
* a card is its id + 1 (0 = no card), not its 19 features: the card data is fixed by
  the game (``cards.toml``), so the id says everything the features said;
* counts are counts, not fractions (turns are rounds and the turn within the round,
  basket fill is the number of cards).

Every value lies in 0..255. Counts whose proven bound exceeds a byte (resources,
Feast, Magic and Poison tokens: the turn limit of 480 turns allows more than 255) are
two fields, ``<name>`` = count mod 256 and ``<name>_256`` = count div 256 (in any real
game the second stays 0 and the first is the count). The score is not a field of its
own (it goes below 0 and, in principle, far beyond a byte): it is given exactly by its
parts, ``score = card_points + feast + magic - 2 x poison`` (``card_points``, the points
of the cards in the baskets, is at most the 10 best cards' points, 54 with the designed
deck; a deck above 255 is refused). RULES.md, "The compact observation (v1)", has the
choices and the proofs of the bounds.

Layout: the board part (fixed offsets), then one seat block per player (observer
first, then in play order; fields ``seat<k>_...``), then the set of cards in the deck.
:func:`observation_layout` joins them for ``n`` players.
"""

import numpy as np
from numba import njit

from mushgym.core import Layout

from .baskets import is_stinkhorn
from .layout import (
    ACTIONS_LEFT,
    ACTIONS_PER_TURN,
    ARG_ACTION,
    ARG_CARDS,
    ARG_GIVE,
    ARG_OWED,
    ARG_OWED_RES,
    ARG_PAY_KEY,
    ARG_PAY_TYPE,
    ARG_TARGET,
    BASKET_SLOTS,
    CFG_NUM_PLAYERS,
    D_ANY,
    D_FEAST,
    DEC_BOTTOM,
    DEC_PAY,
    DEC_TAKE,
    DECK_N,
    ENDER,
    FIELD_SIZE,
    FIRST,
    K_T6,
    MAX_CAPACITY,
    NKINDS,
    NUM_PHASES,
    NUM_RES,
    NUM_SEASONS,
    ROLL,
    ROW_SIZE,
    RUNNING,
    SEASON,
    TURN,
    TURN_PLAYER,
    basket_at,
    basket_count_at,
    decision_at,
    decision_depth,
    deck_at,
    feast_at,
    field_at,
    magic_at,
    poison_at,
    resources_at,
    score_at,
)
from .validate import MAX_OWED_ANY, MAX_OWED_FEAST

BYTE = 256  # counts above a byte: <name> = count mod 256, <name>_256 = count div 256
CARD_NONE = 0  # a place without a card; a card is its id + 1
CARD_HIGH = NKINDS  # highest card value (id 83 + 1)
MAX_PAY_KEY = 2 * NUM_RES - 1  # validate.py: the payment order key is 0..9
NUM_PENDING = 7  # harvest, trades 1..6 (layout.K_*)
NUM_ARGS = 8  # field slot, resource, row or seat offset

# --- the board: everything but the seats (the same offsets for every player count) -----
OB = Layout("observation v1 board")
O_SEASON = OB.field("season", doc="season: 0 Winter, 1 Spring, 2 Summer, 3 Fall", low=0, high=NUM_SEASONS - 1)
O_PHASE = OB.field(
    "phase",
    doc="decision: 0 none (the game is over), 1 act, 2 pay, 3 order cards under the deck, "
    "4 choose the mushroom to give, 5 choose the mushroom to take",
    low=0,
    high=NUM_PHASES,
)
O_ACTIONS_LEFT = OB.field("actions_left", doc="actions left this turn (0, 1, 2)", low=0, high=ACTIONS_PER_TURN)
O_ROLL = OB.field("roll", doc="last dice total (2..12)", low=2, high=12)
O_TO_ACT = OB.field("to_act", doc="player to act: seat offset (0 = observer)", low=0)  # high: n - 1
O_ROUND = OB.field("round", doc="rounds completed: turns played div n", low=0)  # high: turn limit / n
O_TURN_IN_ROUND = OB.field("turn_in_round", doc="turns played mod n", low=0)  # high: n - 1
O_DECK = OB.field("deck_size", doc="cards in the deck", low=0, high=NKINDS)
O_PAY_TYPE = OB.field(
    "pay_type", doc="payment: 0 not paying, 1 specific resources, 2 ANY resources, 3 Feast", low=0, high=3
)
O_OWED_RES = OB.field(
    "owed", NUM_RES, dims=("resource",), doc="specific resources owed (OP, PP, WR, SY, SD)", low=0
)  # high: the dearest card's cost of each resource
O_OWED_ANY = OB.field("owed_any", doc="ANY resources still owed", low=0, high=MAX_OWED_ANY)
O_OWED_FEAST = OB.field("owed_feast", doc="Feast still owed", low=0, high=MAX_OWED_FEAST)
O_PAY_KEY = OB.field("pay_key", doc='payment order key (RULES.md, "Paying"), paying only', low=0, high=MAX_PAY_KEY)
O_PENDING = OB.field(
    "pending_action",
    doc="pending action: 0 none, 1 harvest, 2..7 trade 1..6 (paying, ordering and exchanging)",
    low=0,
    high=NUM_PENDING,
)
O_PENDING_ARG = OB.field(
    "pending_arg",
    doc="its argument + 1 (0 none): field slot (harvest), resource (trades 1, 3), row (trade 5), seat offset (trade 6)",
    low=0,
    high=NUM_ARGS,
)
O_EXCHANGE_GIVE = OB.field(
    "exchange_give",
    doc="exchanging, choosing the mushroom to take: place of the one you give + 1 (0 otherwise)",
    low=0,
    high=MAX_CAPACITY,
)
O_BOTTOM = OB.field(
    "under_deck",
    ROW_SIZE,
    dims=("column",),
    doc="the replaced cards waiting to go under the deck: card id + 1 (0 none)",
    low=0,
    high=CARD_HIGH,
)
O_FIELD = OB.field(
    "field",
    FIELD_SIZE,
    dims=("slot",),
    doc="field slot 0..7 (0..3 top row, 4..7 bottom row): card id + 1 (0 empty)",
    low=0,
    high=CARD_HIGH,
)
OB.generated(globals(), prefix="obs1_")
# fmt: off
from .generated.observation_v1 import (  # noqa: E402,F401  (generated from OB by `mushgym generate`)  # isort: skip
    obs1_field_at, obs1_owed_at, obs1_under_deck_at,
)
# fmt: on

# --- one seat (n of them, the observer first, then in play order) ----------------------
OS = Layout("observation v1 seat")
S_RES = OS.field(
    "resources", NUM_RES, dims=("resource",), doc="resources OP PP WR SY SD, mod 256", low=0, high=BYTE - 1
)
S_RES_HI = OS.field("resources_256", NUM_RES, dims=("resource",), doc="resources div 256", low=0)
S_FEAST = OS.field("feast", doc="Feast tokens mod 256", low=0, high=BYTE - 1)
S_FEAST_HI = OS.field("feast_256", doc="Feast tokens div 256", low=0)
S_MAGIC = OS.field("magic", doc="Magic tokens mod 256", low=0, high=BYTE - 1)
S_MAGIC_HI = OS.field("magic_256", doc="Magic tokens div 256", low=0)
S_POISON = OS.field("poison", doc="Poison tokens mod 256", low=0, high=BYTE - 1)
S_POISON_HI = OS.field("poison_256", doc="Poison tokens div 256", low=0)
S_POINTS = OS.field(
    "card_points", doc="points of the cards in the baskets (score = card_points + Feast + Magic - 2 x Poison)", low=0
)
S_COUNT = OS.field(
    "basket_count",
    NUM_SEASONS,
    dims=("season",),
    doc="cards in the W Sp Su F baskets",
    low=0,
    high=np.array([1, 2, 3, 4]),
)
S_STINKHORN = OS.field("stinkhorn", doc="a stinkhorn on top of a basket", low=0, high=1)
S_FIRST = OS.field("first_player", doc="took the first turn", low=0, high=1)
S_BASKETS = OS.field(
    "baskets",
    BASKET_SLOTS,
    dims=("place",),
    doc="baskets: place = first place of the season (W 0; Sp 1; Su 3; F 6) + k, bottom to top: card id + 1 (0 empty)",
    low=0,
    high=CARD_HIGH,
)
OS.generated(globals(), prefix="obs1_seat_")
# fmt: off
from .generated.observation_v1 import (  # noqa: E402,F401  (generated from OS by `mushgym generate`)  # isort: skip
    obs1_seat_basket_count_at, obs1_seat_baskets_at, obs1_seat_resources_256_at, obs1_seat_resources_at,
)
# fmt: on

# --- the tail ---------------------------------------------------------------------------
OT = Layout("observation v1 tail")
O_DECK_CARDS = OT.field(
    "deck_cards",
    NKINDS,
    dims=("card",),
    doc="the set of cards still in the deck, one entry per card id (public by elimination; the order is hidden)",
    low=0,
    high=1,
)

OB_SIZE, OS_SIZE, OT_SIZE = OB.size, OS.size, OT.size

#: the fields that are ids (categories), not counts: the ``onehot`` encoder expands them
#: (``MycologyV1Game.obs_categorical``); seat fields by their name after ``seat<k>_``
CATEGORICAL = frozenset(
    {
        "season",
        "phase",
        "actions_left",
        "roll",
        "to_act",
        "pay_type",
        "pending_action",
        "pending_arg",
        "exchange_give",
        "under_deck",
        "field",
        "baskets",
    }
)


@njit(cache=True)
def obs1_seat(k):
    """Start of seat k's block (k seats after the observer)."""
    return OB_SIZE + k * OS_SIZE


@njit(cache=True)
def obs1_tail(n):
    return OB_SIZE + n * OS_SIZE


def obs_size(n: int) -> int:
    """Observation length for ``n`` players."""
    return OB_SIZE + n * OS_SIZE + OT_SIZE


def observation_layout(n: int, bounds: dict | None = None) -> Layout:
    """The whole v1 observation of an ``n``-player game as one Layout (the parts joined).

    ``bounds`` gives the highs that depend on the options or the card data, by name:
    ``round`` (turn limit / n), ``owed`` (5), ``card_points``, ``tokens_256`` (token bound
    div 256), ``poison_256`` (Poison bound div 256); without it those fields have no upper
    bound (table only).
    """
    b = bounds or {}
    open_high = {
        "to_act": n - 1,
        "turn_in_round": n - 1,
        "round": b.get("round"),
        "owed": b.get("owed"),
        "card_points": b.get("card_points"),
        "resources_256": b.get("tokens_256"),
        "feast_256": b.get("tokens_256"),
        "magic_256": b.get("tokens_256"),
        "poison_256": b.get("poison_256"),
    }
    OL = Layout(f"observation v1 ({n} players)")

    def copy(part: Layout, prefix: str = "", doc_prefix: str = "") -> None:
        for f in part.fields.values():
            high = f.high if f.high is not None else open_high.get(f.name)
            OL.field(prefix + f.name, f.shape, dims=f.dims, doc=doc_prefix + f.doc, low=f.low, high=high)

    copy(OB)
    for k in range(n):
        copy(OS, f"seat{k}_", "observer: " if k == 0 else f"seat +{k}: ")
    copy(OT)
    assert OL.size == obs_size(n) and OL.fields["deck_cards"].offset == obs1_tail(n)
    assert all(OL.fields[f"seat{k}_resources"].offset == obs1_seat(k) for k in range(n))
    return OL


# --- the kernel -------------------------------------------------------------------------
# ``observe`` runs on every step of every env of the vector API, on states that are not in
# the cache at large batches: it writes every field with stores and no branches on the data
# (a store of 0 where a skipped write would leave 0; the decision entry's arguments
# multiplied by "this is the entry's kind"), as Mycelia's (its RULES.md, "Speed and
# memory"). Each element is written once: only the deck set's bytes are cleared first. The
# seat blocks and the deck set are written through slices, so that every index is a
# constant or provably >= 0: numba turns a negative index into one from the end, a compare
# and a select on every store whose index it cannot prove non-negative (``out[o + k]``).
# Mycology's RULES.md, "Speed of the vector API": the measurements.
@njit(cache=True)
def observe(state, player, cfg, out, work):
    """Write the v1 observation of ``player`` into ``out`` (every element; integers only, so
    ``out`` may be float32 or the vector API's uint8)."""
    n = cfg[CFG_NUM_PLAYERS]
    out[O_SEASON] = state[SEASON]
    # the decision entry (the stack holds at most one): kind 0 = none; an empty stack's slots
    # hold in-bounds leftovers (layout.py), every one multiplied by its kind's flag below
    kind = decision_depth(state) * decision_at(state, 0, 0)
    out[O_PHASE] = (state[ENDER] == RUNNING) * (kind + 1)
    out[O_ACTIONS_LEFT] = state[ACTIONS_LEFT]
    out[O_ROLL] = state[ROLL]
    to_act = state[TURN_PLAYER] - player
    out[O_TO_ACT] = to_act + n * (to_act < 0)
    turn = state[TURN]
    rounds = turn // n
    out[O_ROUND] = rounds
    out[O_TURN_IN_ROUND] = turn - rounds * n
    out[O_DECK] = state[DECK_N]
    paying = kind == DEC_PAY
    t = decision_at(state, 0, 2 + ARG_PAY_TYPE)
    owed = decision_at(state, 0, 2 + ARG_OWED)
    out[O_PAY_TYPE] = paying * (t + 1)
    for r in range(NUM_RES):
        out[obs1_owed_at(r)] = paying * decision_at(state, 0, 2 + ARG_OWED_RES + r)
    out[O_OWED_ANY] = (paying & (t == D_ANY)) * owed
    out[O_OWED_FEAST] = (paying & (t == D_FEAST)) * owed
    out[O_PAY_KEY] = paying * decision_at(state, 0, 2 + ARG_PAY_KEY)
    out[O_EXCHANGE_GIVE] = (kind == DEC_TAKE) * (decision_at(state, 0, 2 + ARG_GIVE) + 1)
    pending = kind != 0
    action = decision_at(state, 0, 2 + ARG_ACTION)
    arg = decision_at(state, 0, 2 + ARG_TARGET)
    seat = arg - player  # trade 6's argument is a seat: the offset from the observer
    seat += n * (seat < 0)
    arg = seat if action == K_T6 else arg
    out[O_PENDING] = pending * (action + 1)
    out[O_PENDING_ARG] = pending * (arg + 1)
    bottom = kind == DEC_BOTTOM
    for j in range(ROW_SIZE):
        out[obs1_under_deck_at(j)] = bottom * (decision_at(state, 0, 2 + ARG_CARDS + j) + 1)  # -1 (placed) -> 0
    for j in range(FIELD_SIZE):
        out[obs1_field_at(j)] = state[field_at(j)] + 1
    first = state[FIRST]
    for k in range(n):
        q = player + k
        q -= n * (q >= n)
        block = out[obs1_seat(k) : obs1_seat(k + 1)]  # seat k's block (0 = the observer)
        for r in range(NUM_RES):  # every count is >= 0 (validate.py): & 255 and >> 8 are mod and div 256
            x = state[resources_at(q, r)]
            block[obs1_seat_resources_at(r)] = x & 255
            block[obs1_seat_resources_256_at(r)] = x >> 8
        feast, magic, poison = state[feast_at(q)], state[magic_at(q)], state[poison_at(q)]
        block[S_FEAST] = feast & 255
        block[S_FEAST_HI] = feast >> 8
        block[S_MAGIC] = magic & 255
        block[S_MAGIC_HI] = magic >> 8
        block[S_POISON] = poison & 255
        block[S_POISON_HI] = poison >> 8
        # the points of the cards in the baskets, from the score (validate.py checks that the
        # score is exactly card points + Feast + Magic - 2 x Poison)
        block[S_POINTS] = state[score_at(q)] - feast - magic + 2 * poison
        place = S_BASKETS
        stinkhorn = False  # baskets.protected, from the places read here (the top is place count - 1)
        for s in range(NUM_SEASONS):
            count = state[basket_count_at(q, s)]
            block[obs1_seat_basket_count_at(s)] = count
            top = -1
            for kk in range(s + 1):  # a season's places (its capacity); -1 above the top -> 0
                c = state[basket_at(q, s, kk)]
                block[place] = c + 1
                place += 1
                top = c if kk == count - 1 else top
            stinkhorn |= is_stinkhorn(top, cfg)
        block[S_STINKHORN] = stinkhorn
        block[S_FIRST] = q == first
    tail = out[obs1_tail(n) + O_DECK_CARDS :]
    for j in range(NKINDS):
        tail[j] = 0
    for i in range(state[DECK_N]):
        tail[state[deck_at(i)] & 127] = 1
