"""Fungi's declarations: rules constants, the state, config and observation layouts, the actions.

Everything the kernels index is declared here once, with shapes
(:mod:`mushgym.core.layout`, :mod:`mushgym.core.actions`); the generated index
helpers (``hand_at(player, kind)``, ``cfg_flavor_at(kind)``,
``obs_display_at(who, entry)``, ``cook_action(type, night, forest)``,
``cook_args(a)``, the decision stack's ``push_decision`` / ``top_kind`` / ...)
are generated into ``generated/layout.py`` (``mushgym generate``), imported here and by the kernel modules
(:mod:`legality`, :mod:`effects`, :mod:`observation`, :mod:`rules`).
"""

from __future__ import annotations

import numpy as np

from mushgym.core import RNG_SLOTS, RNG_WORDS, ActionSpace, Layout

from .cards import (
    BASKET,
    BUTTER,
    CIDRE,
    FLY,
    MAX_DRAW,
    MAX_NIGHT_DECK,
    MAX_PANS,
    NHAND,
    NIGHT0,
    NKINDS,
    NNIGHT,
    NTYPES,
    PAN,
    Deck,
    load_deck,
)

# ---------------------------------------------------------------------------
# Rules constants
FOREST_SIZE = 8
FREE_POSITIONS = 2  # positions 0 and 1 are in front of the shoes
DECAY_MAX = 4
BASE_LIMIT = 8
FLY_LIMIT = 4
BASKET_BONUS = 2
START_HAND = 3
F_VALUES = 11  # Forest cards of the type used: 0..10
N_VALUES = 2  # Night cards of the type used: 0..1
B_VALUES = 4  # Butter added: 0..3
C_VALUES = 3  # Cidre added: 0..2
BUTTER_NEED = 4  # mushrooms needed per Butter
CIDRE_NEED = 5  # mushrooms needed per Cidre
MAX_TRIM = 7  # cards a Fly agaric trim can ask for (a full decay pile over the limit)

# ---------------------------------------------------------------------------
# Decisions on the decision stack (kind, player, args). With an empty stack the turn
# player chooses one of the five actions (the "act" phase).
D_COOK = 1  # cook follow-up: which pan, how much Butter/Cidre; args below
D_TRIM = 2  # Fly agaric: discard down to the temporary limit; no args
COOK_TYPE, COOK_NIGHT, COOK_FOREST = 0, 1, 2  # args of a D_COOK entry: the cards being cooked
PH_ACT, PH_COOK, PH_TRIM = 0, D_COOK, D_TRIM  # phases as observed: act, then the top decision's kind
PHASE_NAMES = ("act", "cook: choose pan / butter / cidre", "fly agaric: discard")

# ---------------------------------------------------------------------------
# Config: one int64 array built by FungiGame.build_config
CL = Layout("config")
CFG_REWARD = CL.field("reward", doc="0 win/loss/draw (ties by mushrooms cooked), 1 score difference")
CFG_START_PANS = CL.field("starting_pans", doc="Pans set out at the start (one each, the first player first)")
CFG_COPIES = CL.field("copies", NKINDS, dims=("kind",), doc="cards of each kind in the game")
CFG_FLAVOR = CL.field(
    "flavor",
    NKINDS,
    dims=("kind",),
    doc="flavor points per mushroom (Night: per mushroom it counts as); Butter/Cidre per card",
)
CFG_STICKS = CL.field("sticks", NKINDS, dims=("kind",), doc="sticks per mushroom sold")
CFG_UNITS = CL.field("units", NKINDS, dims=("kind",), doc="mushrooms a card counts as (1 Forest, 2 Night, 0 other)")
CFG_SIZE = CL.size
CL.generated(globals(), prefix="cfg_")
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from CL by `mushgym generate`)  # isort: skip
    cfg_copies_at, cfg_flavor_at, cfg_sticks_at, cfg_units_at,
)
# fmt: on

# ---------------------------------------------------------------------------
# A cooked pan, as recorded in the state
PR = Layout("pan record")
PAN_TYPE = PR.field("type", doc="mushroom type cooked")
PAN_FOREST = PR.field("forest", doc="Forest cards cooked")
PAN_NIGHT = PR.field("night", doc="Night cards cooked")
PAN_BUTTER = PR.field("butter", doc="Butter added")
PAN_CIDRE = PR.field("cidre", doc="Cidre added")
PAN_REC = PR.size

# ---------------------------------------------------------------------------
# State
L = Layout("state", vector_dtype=np.int16, words32=("rng",))  # the vector API stores states as int16
RNG = L.field(
    "rng",
    RNG_SLOTS,
    doc="the game's random generator (used by the deal): 4 words, the last 4 slots "
    "hold them only in the vector API's int16 states (0 here)",
)
TURN_PLAYER = L.field("turn_player", doc="whose turn it is (acts when no decision is pending)")
START = L.field("start_player")
TERMINAL = L.field("terminal")
NSTEPS = L.field("steps", doc="decisions taken")
NTURNS = L.field("turns", doc="turns completed (end-of-turn steps run), forced passes included")
NSKIPS = L.field("skips", doc="times a player could not act and the opponent acted again")
NPASSES = L.field("forced_passes", doc="times neither player could act (see RULES.md)")
DRAW = L.field("draw_pile", MAX_DRAW, dims=("position",), doc="card kinds, top = last")
DRAW_N = L.field("draw_n")
NIGHTP = L.field("night_pile", MAX_NIGHT_DECK, dims=("position",), doc="card kinds, top = last")
NIGHT_N = L.field("night_n")
FOREST = L.field("forest", FOREST_SIZE, dims=("position",), doc="position 0 = next to the decay pile")
FOREST_N = L.field("forest_n")
DECAY = L.field("decay", DECAY_MAX, dims=("position",), doc="in the order the cards arrived")
DECAY_N = L.field("decay_n")
DISCARD = L.field("discard", NKINDS, dims=("kind",), doc="counts per kind (order never matters)")
HAND = L.field("hand", (2, NHAND), dims=("player", "kind"), doc="counts per hand kind")
HAND_N = L.field("hand_n", 2, dims=("player",))
KNOWN = L.field(
    "known", (2, NHAND), dims=("player", "kind"), doc="cards the opponent has seen enter the hand and not leave it"
)
BASKETS = L.field("baskets", 2, dims=("player",))
STICKS = L.field("sticks", 2, dims=("player",))
EMPTY_PANS = L.field("empty_pans", 2, dims=("player",))
FLY_NEW = L.field("fly_new", 2, dims=("player",), doc="Fly agarics taken during the player's current/last turn")
FLY_OLD = L.field(
    "fly_old", 2, dims=("player",), doc="Fly agarics taken in the turn before (expire at the end of the next turn)"
)
COOKED_F = L.field("cooked_forest", (2, NTYPES), dims=("player", "type"))
COOKED_NT = L.field(
    "cooked_night", (2, NTYPES), dims=("player", "type"), doc="Night cards cooked per type (Morel slot always 0)"
)
COOKED_B = L.field("cooked_butter", 2, dims=("player",))
COOKED_C = L.field("cooked_cidre", 2, dims=("player",))
NCOOKED = L.field("cooked_pans", 2, dims=("player",))
SCORE = L.field("score", 2, dims=("player",))
UNITS = L.field("mushrooms_cooked", 2, dims=("player",), doc="tie-break: Night cards count as 2")
PANS = L.field(
    "pan_records",
    (2, MAX_PANS, PAN_REC),
    dims=("player", "pan", "field"),
    doc="cooked pans in order, fields PAN_TYPE..PAN_CIDRE",
)
LAST = L.field("last_turn_of", doc="whose turn ended last (the skip rule is public)")
DECISIONS = L.decision_stack(depth=1, args=3)  # a cook follow-up or a trim; they never nest
STATE_SIZE = L.size

# Bounds of every slot, checked by Game.validate on each state coming from Python: within
# them no kernel indexes out of range (card kinds, pile sizes, players, pan and decision
# entries); counts are capped by the largest pile, counters and points by 2**15 - 1 (so that
# every slot fits the vector API's int16 states: a game lasts at most 126 decisions and the
# published deck's best score is 175; FungiGame refuses a deck whose scores could pass it).
_BIG = 2**15 - 1
_CARDS = MAX_DRAW  # no count of cards can exceed the draw pile's capacity
for _name, _low, _high in (
    ("rng", 0, np.array([2**32 - 1] * RNG_WORDS + [0] * (RNG_SLOTS - RNG_WORDS))),
    ("turn_player", 0, 1),
    ("start_player", 0, 1),
    ("terminal", 0, 1),
    ("steps", 0, _BIG),
    ("turns", 0, _BIG),
    ("skips", 0, _BIG),
    ("forced_passes", 0, _BIG),
    ("draw_pile", 0, NKINDS - 1),
    ("draw_n", 0, MAX_DRAW),
    ("night_pile", 0, NKINDS - 1),
    ("night_n", 0, MAX_NIGHT_DECK),
    ("forest", 0, NKINDS - 1),
    ("forest_n", 0, FOREST_SIZE),
    ("decay", 0, NKINDS - 1),
    ("decay_n", 0, DECAY_MAX),
    ("discard", 0, _CARDS),
    ("hand", 0, _CARDS),
    ("hand_n", 0, _CARDS),
    ("known", 0, _CARDS),
    ("baskets", 0, _CARDS),
    ("sticks", 0, _BIG),
    ("empty_pans", 0, _CARDS),
    ("fly_new", 0, _CARDS),
    ("fly_old", 0, _CARDS),
    ("cooked_forest", 0, _CARDS),
    ("cooked_night", 0, _CARDS),
    ("cooked_butter", 0, _CARDS),
    ("cooked_cidre", 0, _CARDS),
    ("cooked_pans", 0, MAX_PANS),
    ("score", 0, _BIG),
    ("mushrooms_cooked", 0, _BIG),
    ("last_turn_of", 0, 1),
    # pan records: type, forest, night, butter, cidre
    ("pan_records", 0, np.array([NTYPES - 1, _CARDS, _CARDS, _CARDS, _CARDS])),
    # decision entries: kind, player, then a cook's type, night, forest
    ("decisions", 0, np.array([D_TRIM, 1, NTYPES - 1, N_VALUES - 1, F_VALUES - 1])),
):
    L.bound(_name, _low, _high)
L.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from L by `mushgym generate`)  # isort: skip
    NO_DECISION, baskets_at, clear_decisions, cooked_butter_at, cooked_cidre_at, cooked_forest_at,
    cooked_night_at, cooked_pans_at, decay_at, decision_at, decision_depth, discard_at, draw_pile_at,
    empty_pans_at, fly_new_at, fly_old_at, forest_at, hand_at, hand_n_at, known_at, mushrooms_cooked_at,
    night_pile_at, pan_records_at, pop_decision, push_decision, replace_top, rng_at, score_at,
    set_decision_at, set_top_arg, set_top_kind, sticks_at, top_arg, top_arg_slot, top_entry, top_kind,
    top_player,
)
# fmt: on

# ---------------------------------------------------------------------------
# Actions
A = ActionSpace()
A_TAKE = A.add(
    "take",
    FOREST_SIZE,
    dims=("position",),
    doc="take the Forest card at a position (0 = next to the decay pile; 0, 1 free; i >= 2 costs i - 1 sticks)",
)
A_DECAY = A.add("take_decay", doc="take the whole decay pile")
A_PAN = A.add("put_pan", doc="put down a Pan from the hand")
A_COOK = A.add(
    "cook",
    (NTYPES, N_VALUES, F_VALUES),
    dims=("type", "night", "forest"),
    doc="cook `forest` Forest cards and `night` Night cards of a type; forest + 2 night >= 3 and a Pan available",
)
A_SELL = A.add(
    "sell",
    (NTYPES, N_VALUES, F_VALUES),
    dims=("type", "night", "forest"),
    doc="sell them, forest + 2 night >= 2; gains (forest + 2 night) x the type's sticks",
)
A_FINISH = A.add(
    "finish_cook",
    (2, B_VALUES, C_VALUES),
    dims=("source", "butter", "cidre"),
    doc="cook follow-up: source 0 = an empty Pan of the display, 1 = a Pan from the hand; "
    "4 butter + 5 cidre <= mushrooms",
)
A_DISCARD = A.add("discard", NHAND, dims=("kind",), doc="discard one card of a hand kind (Fly agaric trim only)")
NUM_ACTIONS = A.size
A.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from A by `mushgym generate`)  # isort: skip
    cook_action, cook_args, discard_action, discard_args, finish_cook_action, finish_cook_args, sell_action,
    sell_args, take_action, take_args,
)
# fmt: on


# ---------------------------------------------------------------------------
# Observation (player-relative: "me" = the observing player), with bounds from a deck
def max_score(deck: Deck) -> int:
    """Flavor points if one player cooked every card (the bound of a score)."""
    s = sum(int(deck.copies[k] * deck.units[k] * deck.flavor[k]) for k in range(NIGHT0 + NNIGHT))
    return s + int(deck.copies[BUTTER] * deck.flavor[BUTTER] + deck.copies[CIDRE] * deck.flavor[CIDRE])


def max_sticks(deck: Deck) -> int:
    return sum(int(deck.copies[k] * deck.units[k] * deck.sticks[k]) for k in range(NIGHT0 + NNIGHT))


def observation_layouts(deck: Deck) -> tuple[Layout, Layout]:
    """The display record and the observation, with per-element bounds for ``deck``.

    The offsets never depend on the deck (only the bounds do): the module-level
    ``DL``/``OL`` are declared with the published deck.
    """
    copies = deck.copies.astype(np.float64)
    units_all = sum(int(deck.copies[k] * deck.units[k]) for k in range(NIGHT0 + NNIGHT))
    max_hand = float(BASE_LIMIT + BASKET_BONUS * copies[BASKET])

    dl = Layout("display")
    dl.field("baskets", doc="Baskets", low=0, high=copies[BASKET])
    dl.field("sticks", doc="sticks", low=0, high=max_sticks(deck))
    dl.field("empty_pans", doc="empty Pans", low=0, high=copies[PAN])
    dl.field("fly_new", doc="Fly agarics taken this (or the last) own turn", low=0, high=copies[FLY])
    dl.field("fly_old", doc="Fly agarics expiring at the end of the next own turn", low=0, high=copies[FLY])
    dl.field("cooked_pans", doc="cooked pans", low=0, high=copies[PAN])
    dl.field(
        "cooked_forest", NTYPES, dims=("type",), doc="cooked Forest mushrooms per type", low=0, high=copies[:NTYPES]
    )
    dl.field(
        "cooked_night",
        NNIGHT,
        dims=("type",),
        doc="cooked Night cards per type",
        low=0,
        high=copies[NIGHT0 : NIGHT0 + NNIGHT],
    )
    dl.field("butter", doc="Butter cooked", low=0, high=copies[BUTTER])
    dl.field("cidre", doc="Cidre cooked", low=0, high=copies[CIDRE])
    dl.field("score", doc="flavor points", low=0, high=max_score(deck))
    dl.field("mushrooms", doc="mushrooms cooked (Night = 2)", low=0, high=units_all)
    dl_low, dl_high = dl.bounds(np.float64)

    ol = Layout("observation")
    ol.field("my_hand", NHAND, dims=("kind",), doc="my hand, count per hand kind", low=0, high=copies[:NHAND])
    ol.field("my_hand_size", doc="my hand size", low=0, high=max_hand + 3)  # a Fly agaric from the decay: 3 over
    ol.field(
        "my_hand_limit",
        doc="my current hand limit (8, or 4 with an active Fly agaric; +2 per Basket)",
        low=0,
        high=max_hand,
    )
    ol.field("opp_hand_size", doc="opponent's hand size", low=0, high=max_hand + 3)
    ol.field(
        "opp_known_cards",
        NHAND,
        dims=("kind",),
        doc="opponent's publicly known hand cards per hand kind (taken face up, not yet spent)",
        low=0,
        high=copies[:NHAND],
    )
    ol.field(
        "display",
        (2, dl.size),
        dims=("who", "entry"),
        doc="displays, who 0 = mine, 1 = the opponent's; entry: the display block below",
        low=np.tile(dl_low, 2),
        high=np.tile(dl_high, 2),
    )
    ol.field(
        "forest_onehot",
        (FOREST_SIZE, NKINDS),
        dims=("position", "kind"),
        doc="the Forest, one-hot card kind per position (0 = next to the decay pile)",
        low=0,
        high=1,
    )
    ol.field("forest_size", doc="Forest size", low=0, high=FOREST_SIZE)
    ol.field(
        "decay_counts",
        NKINDS,
        dims=("kind",),
        doc="decay pile, count per kind",
        low=0,
        high=np.minimum(copies, DECAY_MAX),
    )
    ol.field("decay_size", doc="decay pile size", low=0, high=DECAY_MAX)
    ol.field("discard_counts", NKINDS, dims=("kind",), doc="discard pile, count per kind", low=0, high=copies)
    ol.field("draw_pile_size", doc="draw pile size", low=0, high=deck.draw_pile_size)
    ol.field("night_pile_size", doc="Night pile size", low=0, high=copies[NIGHT0 : NIGHT0 + NNIGHT].sum())
    ol.field("i_am_to_act", doc="1 if I am to act", low=0, high=1)
    ol.field(
        "phase_onehot",
        3,
        dims=("phase",),
        doc="act, cook follow-up, Fly agaric discard (the top of the decision stack)",
        low=0,
        high=1,
    )
    ol.field(
        "pending_cook_type_onehot",
        NTYPES,
        dims=("type",),
        doc="type being cooked (one-hot), during a cook follow-up",
        low=0,
        high=1,
    )
    ol.field(
        "pending_cook_mushrooms",
        doc="mushrooms being cooked (Night = 2), during a cook follow-up",
        low=0,
        high=max(
            int(deck.copies[t] + (deck.copies[NIGHT0 + t] * deck.units[NIGHT0 + t] if t < NNIGHT else 0))
            for t in range(NTYPES)
        ),
    )
    ol.field("discards_left", doc="cards still to discard, during a Fly agaric trim", low=0, high=MAX_TRIM)
    ol.field("i_started", doc="1 if I was the start player", low=0, high=1)
    return dl, ol


DL, OL = observation_layouts(load_deck())
_disp = {name: f.offset for name, f in DL.fields.items()}
DISP_BASKETS = _disp["baskets"]
DISP_STICKS = _disp["sticks"]
DISP_EMPTY_PANS = _disp["empty_pans"]
DISP_FLY_NEW = _disp["fly_new"]
DISP_FLY_OLD = _disp["fly_old"]
DISP_NCOOKED = _disp["cooked_pans"]
DISP_COOKED_F = _disp["cooked_forest"]
DISP_COOKED_NT = _disp["cooked_night"]
DISP_BUTTER = _disp["butter"]
DISP_CIDRE = _disp["cidre"]
DISP_SCORE = _disp["score"]
DISP_UNITS = _disp["mushrooms"]
DISP_SIZE = DL.size
_obs = {name: f.offset for name, f in OL.fields.items()}
O_HAND = _obs["my_hand"]
O_HAND_N = _obs["my_hand_size"]
O_LIMIT = _obs["my_hand_limit"]
O_OPP_HAND_N = _obs["opp_hand_size"]
O_OPP_KNOWN = _obs["opp_known_cards"]
O_MY_DISP = _obs["display"]
O_OPP_DISP = O_MY_DISP + DISP_SIZE
O_FOREST = _obs["forest_onehot"]
O_FOREST_N = _obs["forest_size"]
O_DECAY = _obs["decay_counts"]
O_DECAY_N = _obs["decay_size"]
O_DISCARD = _obs["discard_counts"]
O_DRAW_N = _obs["draw_pile_size"]
O_NIGHT_N = _obs["night_pile_size"]
O_TO_ACT = _obs["i_am_to_act"]
O_PHASE = _obs["phase_onehot"]
O_PEND_TYPE = _obs["pending_cook_type_onehot"]
O_PEND_UNITS = _obs["pending_cook_mushrooms"]
O_TRIM_LEFT = _obs["discards_left"]
O_I_STARTED = _obs["i_started"]
OBS_SIZE = OL.size
OL.generated(globals(), prefix="obs_")
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from OL by `mushgym generate`)  # isort: skip
    obs_decay_counts_at, obs_discard_counts_at, obs_display_at, obs_forest_onehot_at, obs_my_hand_at,
    obs_opp_known_cards_at, obs_pending_cook_type_onehot_at, obs_phase_onehot_at,
)
# fmt: on
assert NHAND == 20 and NTYPES == 9 and NNIGHT == 8 and NKINDS == 23  # observe copies in blocks of 8/4
assert O_I_STARTED == OBS_SIZE - 1 and O_TO_ACT < O_PHASE < O_PEND_TYPE < O_PEND_UNITS < O_TRIM_LEFT < O_I_STARTED
