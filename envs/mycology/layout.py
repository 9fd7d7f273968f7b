"""Mycology's declarations: sizes, the config table, the state and its decision stack.

Everything the kernels index is declared here once, with shapes; the generated
index helpers (``generated/layout.py``, ``mushgym generate``) are imported into this module (``resources_at(player,
resource)``,
``basket_at(player, season, place)``, ``cfg_cost_at(card, resource)``, ...), and
the other kernel modules import them from here. The state is declared for the
maximum of 6 players; the player count comes from the config table.
"""

import numpy as np

from mushgym.core import RNG_WORDS, Layout

from .cards import NKINDS

# --- sizes ------------------------------------------------------------------------
MAX_PLAYERS = 6
NUM_RES = 5
NUM_SEASONS = 4
FIELD_SIZE = 8  # two rows of 4
ROW_SIZE = 4
BASKET_SLOTS = 10  # 1 + 2 + 3 + 4 places
MAX_CAPACITY = 4
ACTIONS_PER_TURN = 2

# resources (dice table order) and the dice total -> resource table (-1 = 7 = season)
OP, PP, WR, SY, SD = 0, 1, 2, 3, 4
DICE_RESOURCE = np.array([-1, -1, OP, PP, WR, SY, SD, -1, SD, SY, WR, PP, OP], np.int64)
CAPACITY = np.array([1, 2, 3, 4], np.int64)  # basket places per season
BASKET_OFF = np.array([0, 1, 3, 6], np.int64)  # first of a season's places in the observation's 10

# specials
SP_NONE, SP_POISON, SP_STINKHORN, SP_MAGIC = 0, 1, 2, 3

# ender: who ended the game
RUNNING = -2  # the game is on
TURN_LIMIT = -1  # ended by the turn limit

# kinds of the actions a decision entry carries out (the observation's "pending action")
K_HARVEST, K_T1, K_T2, K_T3, K_T4, K_T5, K_T6 = 0, 1, 2, 3, 4, 5, 6
# poison rules (option poison)
POISON_EVERY_COLLECTION, POISON_DICE_ONLY = 0, 1
# payment types
D_SPECIFIC, D_ANY, D_FEAST = 0, 1, 2

# --- the config table ---------------------------------------------------------------
C = Layout("config")
CFG_NUM_PLAYERS = C.field("num_players", doc="players, 2..6")
CFG_REWARD = C.field("reward", doc="0 win/loss, 1 final score, 2 score difference")
CFG_MAX_TURNS = C.field("max_turns", doc="turn limit (a multiple of the player count)")
CFG_TURN_LIMIT_SCORED = C.field(
    "turn_limit_scored", doc="1: the turn limit ends the game scored; 0: a truncation, rewards 0"
)
CFG_POISON_RULE = C.field(
    "poison_rule", doc="0: Poison with every collection of the resource (dice and trades 1, 3); 1: dice only"
)
CFG_POINTS = C.field("points", NKINDS, dims=("card",), doc="points of each card")
CFG_SEASONS = C.field("seasons", NKINDS, dims=("card",), doc="seasons of each card, bit s = season s")
CFG_FEAST = C.field("feast", NKINDS, dims=("card",), doc="Feast tokens a card gives when harvested")
CFG_SPECIAL = C.field("special", NKINDS, dims=("card",), doc="0 none, 1 poison, 2 stinkhorn, 3 magic")
CFG_POISON_RES = C.field("poison_resource", NKINDS, dims=("card",), doc="resource of a poison card, -1 otherwise")
CFG_COST = C.field("cost", (NKINDS, NUM_RES), dims=("card", "resource"), doc="harvest cost")
CFG_SIZE = C.size
C.generated(globals(), prefix="cfg_")
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from C by `mushgym generate`)  # isort: skip
    cfg_cost_at, cfg_feast_at, cfg_points_at, cfg_poison_resource_at, cfg_seasons_at, cfg_special_at,
)
# fmt: on

# --- the state ----------------------------------------------------------------------
L = Layout("state", vector_dtype=np.int32, words32=("rng",))  # the vector API stores states as int32
RNG = L.field("rng", RNG_WORDS, doc="the game's random generator (xoshiro128**)")
TURN_PLAYER = L.field("turn_player", doc="the player whose turn it is")
FIRST = L.field("first_player", doc="the player who took the first turn")
SEASON = L.field("season", doc="0 Winter, 1 Spring, 2 Summer, 3 Fall")
ACTIONS_LEFT = L.field("actions_left", doc="actions the turn player may still take")
TURN = L.field("turn", doc="turns completed")
ROLL = L.field("roll", doc="last dice total (2..12)")
DIE1 = L.field("die1", doc="first die of the last roll")
ENDER = L.field("ender", doc="player who filled their baskets; -1 the turn limit; -2 the game is on")
RES = L.field("resources", (MAX_PLAYERS, NUM_RES), dims=("player", "resource"), doc="Ecology Resources")
FEAST = L.field("feast", MAX_PLAYERS, dims=("player",), doc="Feast tokens")
MAGIC = L.field("magic", MAX_PLAYERS, dims=("player",), doc="Magic tokens")
POISON = L.field("poison", MAX_PLAYERS, dims=("player",), doc="Poison tokens")
SCORE = L.field("score", MAX_PLAYERS, dims=("player",), doc="cards + Feast + Magic - 2 x Poison")
BASKET_COUNT = L.field(
    "basket_count", (MAX_PLAYERS, NUM_SEASONS), dims=("player", "season"), doc="cards in each season's basket"
)
BASKET = L.field(
    "basket",
    (MAX_PLAYERS, NUM_SEASONS, MAX_CAPACITY),
    dims=("player", "season", "place"),
    doc="card ids, bottom first; -1 above the top",
)
FIELD = L.field("field", FIELD_SIZE, dims=("slot",), doc="face-up cards (0..3 top row, 4..7 bottom row); -1 empty")
DECK = L.field("deck", NKINDS, dims=("position",), doc="card ids, bottom first; top = deck[deck_count - 1]")
DECK_N = L.field("deck_count", doc="cards in the deck")

# The decision stack. Every decision that is not "the turn player's next action"
# is an entry: paying for an action token by token, then putting a replaced row
# under the deck card by card. An entry's args (ARG_*):
#   both:    ARG_ACTION the action kind being carried out (K_*), ARG_TARGET its
#            argument (field slot, resource, row, or the other player of trade 6)
#   DEC_PAY: ARG_PAY_TYPE (D_*), ARG_PAY_KEY (the canonical order key, RULES.md
#            "Paying"), ARG_OWED (ANY resources or Feast still owed),
#            ARG_OWED_RES + r (resource r still owed, harvests)
#   DEC_BOTTOM: ARG_CARDS + j (the replaced card of column j, -1 once placed)
#   DEC_GIVE, DEC_TAKE (trade 6, after its payment): ARG_GIVE the place of the card
#            given (DEC_TAKE), in the current season's basket
DEC_PAY = 1  # the kinds double as the observation's phase (0 = act)
DEC_BOTTOM = 2
DEC_GIVE = 3
DEC_TAKE = 4
NUM_PHASES = 5
ARG_GIVE = 2
ARG_ACTION, ARG_TARGET = 0, 1
ARG_PAY_TYPE, ARG_PAY_KEY, ARG_OWED, ARG_OWED_RES = 2, 3, 4, 5
ARG_CARDS = 2
DECISION_ARGS = ARG_OWED_RES + NUM_RES
STACK_DEPTH = 1
L.decision_stack(depth=STACK_DEPTH, args=DECISION_ARGS)  # a payment, then (trade 5) the ordering: never nested
STATE_SIZE = L.size

# Bounds of every slot, checked by Game.validate on each state coming from Python:
# within them no kernel indexes out of range (card ids, basket places, players, seasons, dice,
# decision entries). What depends on the options (the player count, the turn limit, the token
# bound) and on several slots at once (each card in exactly one place, scores, the decision
# entry's arguments by kind) is checked by the compiled ``validate`` kernel (validate.py).
# counts (turns, tokens) stay far below 2**20 in any game (at most 486 turns of a few tokens
# each), and 4 * 2**20 keeps the score bounds inside the int32 the vector API stores them in
_BIG = 2**20
_CARD = (-1, NKINDS - 1)  # a card id or -1 (empty)
for _name, _low, _high in (
    ("rng", 0, 2**32 - 1),
    ("turn_player", 0, MAX_PLAYERS - 1),
    ("first_player", 0, MAX_PLAYERS - 1),
    ("season", 0, NUM_SEASONS - 1),
    ("actions_left", 0, ACTIONS_PER_TURN),
    ("turn", 0, _BIG),
    ("roll", 2, 12),
    ("die1", 1, 6),
    ("ender", RUNNING, MAX_PLAYERS - 1),
    ("resources", 0, _BIG),
    ("feast", 0, _BIG),
    ("magic", 0, _BIG),
    ("poison", 0, _BIG),
    ("score", -4 * _BIG, 4 * _BIG),
    ("basket_count", 0, CAPACITY),
    ("basket", *_CARD),
    ("field", *_CARD),
    ("deck", 0, NKINDS - 1),
    ("deck_count", 0, NKINDS),
    # decision entries: kind, player, action kind, target (slot, resource, row or player), then
    # pay type / pay key / owed / owed per resource, or the cards going under the deck, or the
    # place given: per kind in validate.py
    (
        "decisions",
        np.array([0, 0, 0, 0] + [-1] * (DECISION_ARGS - 2)),
        np.array([DEC_TAKE, MAX_PLAYERS - 1, K_T6, FIELD_SIZE - 1] + [NKINDS - 1] * (DECISION_ARGS - 2)),
    ),
):
    L.bound(_name, _low, _high)
L.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from L by `mushgym generate`)  # isort: skip
    NO_DECISION, basket_at, basket_count_at, clear_decisions, decision_at, decision_depth, deck_at, feast_at,
    field_at, magic_at, poison_at, pop_decision, push_decision, replace_top, resources_at, rng_at, score_at,
    set_decision_at, set_top_arg, set_top_kind, top_arg, top_arg_slot, top_entry, top_kind, top_player,
)
# fmt: on
