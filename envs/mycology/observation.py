"""Mycology's observation: its declaration (with bounds) and the ``observe`` kernel.

The observation is seat-relative (the observer's blocks first) and its length
depends on the player count, so it is declared in parts whose offsets do not:

* ``OH``, the head: season, decision, actions left, dice total; then the
  player to act, one-hot over the n seats (n entries);
* ``OM``, the middle (starts after those n entries): turn, deck, the payment
  and ordering in progress, the field;
* ``OS``, one seat (n of them, observer first): tokens, score, baskets;
* ``OT``, the tail: the set of cards in the deck.

``CARD`` is the record of card features used by the bottom cards, the field
and the baskets. :func:`observation_layout` joins the parts into the whole
observation of an n-player game as one :class:`~mushgym.core.Layout` (fields of
seat k named ``seat<k>_...``, 0 = the observer), whose ``bounds()`` are the
game's ``observation_bounds`` and whose ``table()`` is the env docstring's.
Bounds that depend on the card data or the options are left ``None`` here and
given to :func:`observation_layout` by the game.
"""

import numpy as np
from numba import njit

from mushgym.core import Layout

from .baskets import protected
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
    BASKET_OFF,
    BASKET_SLOTS,
    CAPACITY,
    CFG_MAX_TURNS,
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
    SP_MAGIC,
    SP_POISON,
    SP_STINKHORN,
    TURN,
    TURN_PLAYER,
    basket_at,
    basket_count_at,
    cfg_cost_at,
    cfg_feast_at,
    cfg_points_at,
    cfg_poison_resource_at,
    cfg_seasons_at,
    cfg_special_at,
    decision_depth,
    deck_at,
    feast_at,
    field_at,
    magic_at,
    poison_at,
    resources_at,
    score_at,
    top_arg,
    top_kind,
)

ONE = dict(low=0, high=1)

# --- the card features (19 values per card) ---------------------------------------
CARD = Layout("card features")
CF_POINTS = CARD.field("points", doc="points / 10", low=0)
CF_SEASONS = CARD.field("seasons", NUM_SEASONS, dims=("season",), doc="playable in Winter, Spring, Summer, Fall", **ONE)
CF_COST = CARD.field("cost", NUM_RES, dims=("resource",), doc="cost in OP, PP, WR, SY, SD / 4", low=0)
CF_FEAST = CARD.field("feast", doc="Feast tokens / 4", low=0)
CF_POISON = CARD.field("poison", doc="a poison mushroom", **ONE)
CF_STINKHORN = CARD.field("stinkhorn", doc="a stinkhorn", **ONE)
CF_MAGIC = CARD.field("magic", doc="a magic mushroom", **ONE)
CF_POISON_RES = CARD.field("poison_resource", NUM_RES, dims=("resource",), doc="poison resource one-hot", **ONE)
CF = CARD.size
CARD.generated(globals(), prefix="cf_")
# fmt: off
from .generated.observation import (  # noqa: E402,F401  (generated from CARD by `mushgym generate`)  # isort: skip
    cf_cost_at, cf_poison_resource_at, cf_seasons_at,
)
# fmt: on
CARD_WITH_PRESENCE = 1 + CF  # a place that may hold a card: present, then the features

# --- the head (fixed offsets), then n entries for the player to act ----------------
OH = Layout("observation head")
O_SEASON = OH.field("season", NUM_SEASONS, dims=("season",), doc="season one-hot (Winter, Spring, Summer, Fall)", **ONE)
O_PHASE = OH.field(
    "phase",
    NUM_PHASES,
    dims=("phase",),
    doc="decision one-hot (act, pay, order cards under the deck, choose the mushroom to give, "
    "choose the mushroom to take); all 0 when the game is over",
    **ONE,
)
O_ACTIONS_LEFT = OH.field(
    "actions_left", ACTIONS_PER_TURN + 1, dims=("left",), doc="actions left this turn, one-hot (0, 1, 2)", **ONE
)
O_ROLL = OH.field("roll", 11, dims=("total",), doc="last dice total one-hot (2..12)", **ONE)
O_TO_ACT = OH.size  # + seat offset of the player to act (n entries)
OH.generated(globals(), prefix="obs_")
# fmt: off
from .generated.observation import (  # noqa: E402,F401  (generated from OH by `mushgym generate`)  # isort: skip
    obs_actions_left_at, obs_phase_at, obs_roll_at, obs_season_at,
)
# fmt: on

# --- the middle, after the n entries -----------------------------------------------
OM = Layout("observation middle")
O_TURN = OM.field("turn", doc="turns played / turn limit", **ONE)
O_DECK = OM.field("deck_size", doc="cards in the deck / 84", **ONE)
O_PAY_TYPE = OM.field(
    "pay_type",
    3,
    dims=("type",),
    doc="payment type one-hot (specific resources, ANY resources, Feast), paying only",
    **ONE,
)
O_OWED_RES = OM.field("owed", NUM_RES, dims=("resource",), doc="specific resources owed (OP, PP, WR, SY, SD)", low=0)
O_OWED_ANY = OM.field("owed_any", doc="ANY resources still owed", low=0, high=3)
O_OWED_FEAST = OM.field("owed_feast", doc="Feast still owed", low=0, high=2)
O_PAY_KEY = OM.field("pay_key", doc='payment order key / 10 (RULES.md, "Paying")', **ONE)
O_PENDING = OM.field(
    "pending_action",
    7,
    dims=("kind",),
    doc="pending action one-hot (harvest, trade 1..6), paying, ordering and exchanging",
    **ONE,
)
O_PENDING_ARG = OM.field(
    "pending_arg",
    8,
    dims=("arg",),
    doc="pending argument one-hot: field slot (harvest), resource (trades 1, 3), row (trade 5), seat offset (trade 6)",
    **ONE,
)
O_EXCHANGE_GIVE = OM.field(
    "exchange_give",
    MAX_CAPACITY,
    dims=("place",),
    doc="exchanging: place of the mushroom you give, one-hot (choosing the one to take)",
    **ONE,
)
O_BOTTOM = OM.field(
    "under_deck",
    (ROW_SIZE, CF),
    dims=("column", "feature"),
    doc="the replaced cards waiting to go under the deck: card features",
    low=0,
)
O_FIELD = OM.field(
    "field",
    (FIELD_SIZE, CARD_WITH_PRESENCE),
    dims=("slot", "value"),
    doc="field slot 0..7 (0..3 top row, 4..7 bottom row): present, card features",
    low=0,
)
OM.generated(globals(), prefix="obs_")
# fmt: off
from .generated.observation import (  # noqa: E402,F401  (generated from OM by `mushgym generate`)  # isort: skip
    obs_exchange_give_at, obs_field_at, obs_owed_at, obs_pay_type_at, obs_pending_action_at,
    obs_pending_arg_at, obs_under_deck_at,
)
# fmt: on

# --- one seat (n of them, the observer first, then in play order) ------------------
OS = Layout("observation seat")
S_RES = OS.field("resources", NUM_RES, dims=("resource",), doc="resources OP PP WR SY SD", low=0)
S_FEAST = OS.field("feast", doc="Feast tokens", low=0)
S_MAGIC = OS.field("magic", doc="Magic tokens", low=0)
S_POISON = OS.field("poison", doc="Poison tokens", low=0)
S_SCORE = OS.field("score", doc="score")
S_FILL = OS.field("basket_fill", NUM_SEASONS, dims=("season",), doc="cards / capacity of the W Sp Su F baskets", **ONE)
S_STINKHORN = OS.field("stinkhorn", doc="a stinkhorn on top of a basket", **ONE)
S_FIRST = OS.field("first_player", doc="took the first turn", **ONE)
S_BASKETS = OS.field(
    "baskets",
    (BASKET_SLOTS, CARD_WITH_PRESENCE),
    dims=("place", "value"),
    doc="baskets: place = first place of the season (W 0; Sp 1; Su 3; F 6) + k, bottom to top: present, card features",
    low=0,
)
OS.generated(globals(), prefix="obs_seat_")
# fmt: off
from .generated.observation import (  # noqa: E402,F401  (generated from OS by `mushgym generate`)  # isort: skip
    obs_seat_basket_fill_at, obs_seat_baskets_at, obs_seat_resources_at,
)
# fmt: on

# --- the tail ---------------------------------------------------------------------
OT = Layout("observation tail")
O_DECK_CARDS = OT.field(
    "deck_cards",
    NKINDS,
    dims=("card",),
    doc="the set of cards still in the deck, one entry per card id (public by elimination; the order is hidden)",
    **ONE,
)


OM_SIZE, OS_SIZE, OT_SIZE = OM.size, OS.size, OT.size


# where the parts start with n players (the player-to-act block has n entries)
@njit(cache=True)
def obs_middle(n):
    return O_TO_ACT + n


@njit(cache=True)
def obs_seat(n, k):
    """Start of seat k's block (k seats after the observer)."""
    return O_TO_ACT + n + OM_SIZE + k * OS_SIZE


@njit(cache=True)
def obs_tail(n):
    return O_TO_ACT + n + OM_SIZE + n * OS_SIZE


def obs_size(n: int) -> int:
    """Observation length for ``n`` players."""
    return int(obs_tail(n)) + OT_SIZE


def observation_layout(n: int, bounds: dict | None = None) -> Layout:
    """The whole observation of an ``n``-player game as one Layout (the parts joined).

    ``bounds`` gives the bounds the parts leave open, by field name: ``card_high``
    (19 per-feature highs), ``owed_high`` (5), ``token_high``, ``poison_high``,
    ``score`` (low, high); without it those fields have no bounds (table only).
    """
    b = bounds or {}
    card = b.get("card_high")
    with_presence = None if card is None else np.concatenate([[1.0], card])
    open_high = {
        "under_deck": card,
        "field": with_presence,
        "baskets": with_presence,
        "owed": b.get("owed_high"),
        "resources": b.get("token_high"),
        "feast": b.get("token_high"),
        "magic": b.get("token_high"),
        "poison": b.get("poison_high"),
    }
    score = b.get("score", (None, None))
    OL = Layout(f"observation ({n} players)")

    def copy(part: Layout, prefix: str = "", doc_prefix: str = "") -> None:
        for f in part.fields.values():
            low, high = f.low, f.high
            if f.name == "score" and part is OS:
                low, high = score
            elif high is None:
                high = open_high.get(f.name)
            OL.field(prefix + f.name, f.shape, dims=f.dims, doc=doc_prefix + f.doc, low=low, high=high)

    copy(OH)
    OL.field("to_act", n, dims=("seat",), doc="player to act, one-hot by seat offset (0 = observer)", **ONE)
    copy(OM)
    for k in range(n):
        copy(OS, f"seat{k}_", "observer: " if k == 0 else f"seat +{k}: ")
    copy(OT)
    # the joined declaration and the kernel's part offsets agree
    assert OL.size == obs_size(n) and OL.fields["turn"].offset == obs_middle(n)
    assert all(OL.fields[f"seat{k}_resources"].offset == obs_seat(n, k) for k in range(n))
    assert OL.fields["deck_cards"].offset == obs_tail(n)
    return OL


# --- the kernel -------------------------------------------------------------------
@njit(cache=True)
def card_features(cfg, card, out, o):
    """The CARD record of ``card`` at out[o:o + CF] (left zero if card < 0)."""
    if card < 0:
        return
    out[o + CF_POINTS] = cfg[cfg_points_at(card)] / 10.0
    for s in range(NUM_SEASONS):
        out[o + cf_seasons_at(s)] = float((cfg[cfg_seasons_at(card)] >> s) & 1)
    for r in range(NUM_RES):
        out[o + cf_cost_at(r)] = cfg[cfg_cost_at(card, r)] / 4.0
    out[o + CF_FEAST] = cfg[cfg_feast_at(card)] / 4.0
    sp = cfg[cfg_special_at(card)]
    out[o + CF_POISON] = 1.0 if sp == SP_POISON else 0.0
    out[o + CF_STINKHORN] = 1.0 if sp == SP_STINKHORN else 0.0
    out[o + CF_MAGIC] = 1.0 if sp == SP_MAGIC else 0.0
    pr = cfg[cfg_poison_resource_at(card)]
    if pr >= 0:
        out[o + cf_poison_resource_at(pr)] = 1.0


@njit(cache=True)
def observe(state, player, cfg, out, work):
    n = cfg[CFG_NUM_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    out[obs_season_at(state[SEASON])] = 1.0
    running = state[ENDER] == RUNNING
    kind = top_kind(state) if decision_depth(state) > 0 else 0
    if running:
        out[obs_phase_at(kind)] = 1.0
    al = state[ACTIONS_LEFT]
    if 0 <= al <= ACTIONS_PER_TURN:
        out[obs_actions_left_at(al)] = 1.0
    if state[ROLL] >= 2:
        out[obs_roll_at(state[ROLL] - 2)] = 1.0
    out[O_TO_ACT + (state[TURN_PLAYER] - player + n) % n] = 1.0
    m = obs_middle(n)
    out[m + O_TURN] = state[TURN] / float(cfg[CFG_MAX_TURNS])
    out[m + O_DECK] = state[DECK_N] / float(NKINDS)
    if kind == DEC_PAY:
        t = top_arg(state, ARG_PAY_TYPE)
        out[m + obs_pay_type_at(t)] = 1.0
        for r in range(NUM_RES):
            out[m + obs_owed_at(r)] = float(top_arg(state, ARG_OWED_RES + r))
        if t == D_ANY:
            out[m + O_OWED_ANY] = float(top_arg(state, ARG_OWED))
        elif t == D_FEAST:
            out[m + O_OWED_FEAST] = float(top_arg(state, ARG_OWED))
        out[m + O_PAY_KEY] = top_arg(state, ARG_PAY_KEY) / 10.0
    if kind == DEC_TAKE:
        out[m + obs_exchange_give_at(top_arg(state, ARG_GIVE))] = 1.0
    if kind != 0:
        action = top_arg(state, ARG_ACTION)
        arg = top_arg(state, ARG_TARGET)
        out[m + obs_pending_action_at(action)] = 1.0
        if action == K_T6:
            arg = (arg - player + n) % n
        out[m + obs_pending_arg_at(arg)] = 1.0
    if kind == DEC_BOTTOM:
        for j in range(ROW_SIZE):
            card_features(cfg, top_arg(state, ARG_CARDS + j), out, m + obs_under_deck_at(j, 0))
    for j in range(FIELD_SIZE):
        c = state[field_at(j)]
        if c >= 0:
            out[m + obs_field_at(j, 0)] = 1.0
            card_features(cfg, c, out, m + obs_field_at(j, 1))
    for k in range(n):
        q = (player + k) % n
        o = obs_seat(n, k)  # seat k (0 = the observer)
        for r in range(NUM_RES):
            out[o + obs_seat_resources_at(r)] = float(state[resources_at(q, r)])
        out[o + S_FEAST] = float(state[feast_at(q)])
        out[o + S_MAGIC] = float(state[magic_at(q)])
        out[o + S_POISON] = float(state[poison_at(q)])
        out[o + S_SCORE] = float(state[score_at(q)])
        for s in range(NUM_SEASONS):
            cnt = state[basket_count_at(q, s)]
            out[o + obs_seat_basket_fill_at(s)] = cnt / float(CAPACITY[s])
            for kk in range(cnt):
                place = BASKET_OFF[s] + kk
                out[o + obs_seat_baskets_at(place, 0)] = 1.0
                card_features(cfg, state[basket_at(q, s, kk)], out, o + obs_seat_baskets_at(place, 1))
        out[o + S_STINKHORN] = 1.0 if protected(state, q, cfg) else 0.0
        out[o + S_FIRST] = 1.0 if q == state[FIRST] else 0.0
    t = obs_tail(n)
    for i in range(state[DECK_N]):
        out[t + O_DECK_CARDS + state[deck_at(i)]] = 1.0
