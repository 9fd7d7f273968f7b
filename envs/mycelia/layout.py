"""Mycelia's declarations: sizes, the config table, the state (with its bounds) and its decision stack.

Everything the kernels index is declared here once, with shapes and dimension names;
the generated index helpers (``generated/layout.py``, ``mushgym generate``) are imported into this module
(``spores_at(tile, seat)``,
``adjacency_at(tile, edge)``, ``mat_card_at(seat, mat)``, ``cfg_require_at(card, colour)``,
...), and the kernel modules import them from here. Sizes are for the largest table
(4 seats: up to 4 players, or up to 3 players plus the Automata seat, which always
sits last); the player count comes from the config table.

The state's ``low``/``high`` bounds are what :meth:`mushgym.Game.validate` checks on
every state coming in from Python: a state within them cannot make a kernel index out
of its arrays (tile, seat, mat, card and pile indices, counts and the decision stack
are all bounded by their tables' sizes).

Every bound fits an int16, so the vector API stores Mycelia's states as int16 (a quarter
of the int64 bytes; ``vector_dtype``): the generator takes ``RNG_SLOTS`` slots
(two per word there), the tile bit sets (``marks``, ``fruit_network``) are split into
``BITSET_WORDS`` slots of 15 bits (``bit_get`` / ``bit_set`` / ``bits_clear`` /
``bits_put``), and the event counters saturate at ``COUNT_MAX`` (``count_event``).
"""

import numpy as np
from numba import njit

from mushgym.core import RNG_SLOTS, RNG_WORDS, Layout

# --- sizes ------------------------------------------------------------------------
MAXS = 5  # seats (players + Automata; the fifth seat only with the North American expansion)
BASE_SEATS = 4  # seats of the base game (its action groups and observation blocks; the expansion appends seat 4)
NT_MAX = 50  # tiles
NC_BASE = 69  # mushroom cards of the base game (ids 0..68)
NC_NA = 35  # mushroom cards of the North American expansion (ids 69..103)
NC = NC_BASE + NC_NA
NMATS = 5  # player mats per seat (3 or 4 in the short game)
NA_CARDS = 10  # Automata cards
SPORES_EACH = 30
INSECTS_TOTAL = 20  # the base game's insect tokens
INSECTS_NA = 10  # the expansion's (for the fifth player): 30 in a game with the expansion
INSECTS_MAX = INSECTS_TOTAL + INSECTS_NA
SAPLINGS = 15  # expansion: saplings in the box
SAPLING_SPORES = 3  # expansion: spores a sapling holds (the third ages it)
TREES_EACH = 3  # expansion: Grandfather Trees per player
TREE_POINTS = 5
STACK_MAX = 8
ENTRY = 6  # a decision entry: kind, player, a0..a3
BLACK = 4
NCOL = 4  # spore colours (black tiles count as any)
MARKET_SIZE = 3
NSTATS = 32

# decay actions (data.DECAYS order)
DC_OUTER = 0  # move an outer tile
DC_OPP_MUSH = 1  # move an opponent's mushroom token
DC_STEAL = 2  # steal a card
DC_DRAW2 = 3  # draw two cards
DC_EXTRA = 4  # mushroom upgrade: one extra spore
DC_BOTH = 5  # mushroom upgrade: spore with the M too
DC_TWICE = 6  # game upgrade: the same action twice
DC_DISC2 = 7  # game upgrade: discover 2 keep 1
DC_MOVE3 = 8  # game upgrade: the M moves 3
DC_SPORE3 = 9  # game upgrade: the M spores 3
DC_OPP_MOTHER = 10  # move an opponent's Mother mushroom
NDECAYS = 11  # the base game's (the observation's one-hot; the expansion's are in its appended block)
# the North American expansion's decay actions (data.DECAYS order, after the base game's)
DC_SAPLING_ROLL = 11  # a spore onto a sapling (and its symbiosis roll)
DC_REROLL = 12  # game upgrade: re-roll a symbiosis roll once
DC_EXPLORE2 = 13  # game upgrade: explore 2 keep 1
DC_TWO_SAPLINGS = 14  # two new saplings
DC_SAPLING_REMOVE = 15  # a spore off a sapling
NDECAYS_ALL = 16
# game-upgrade bits (per seat) and mushroom-upgrade bits (per mat)
GU_TWICE, GU_DISC2, GU_MOVE3, GU_SPORE3 = 1, 2, 4, 8
GU_REROLL, GU_EXPLORE2 = 16, 32  # expansion: re-roll symbiosis once, explore 2 keep 1
MU_EXTRA, MU_BOTH = 1, 2
# main action types (bits of USED)
T_MOVE = 0
T_EXPLORE = 1
T_SPORE = 2
T_FRUIT = 3
T_DISCOVER = 4
T_DECAY = 5
NTYPES = 6
T_AGE = 6  # the expansion's AGE action
# Automata move targets (data.MOVE_TARGETS order)
MT_COLOUR = 0  # a tile of the card's colour
MT_OPP_MUSH = 1  # an opponent's mushroom token
MT_OWN_MUSH = 2  # its own mushroom token
MT_OPP_SPORES = 3  # the tile with the most opponent spores
MT_OPP_MOTHER = 4  # next to an opponent's Mother mushroom
MT_INSECT = 5  # an insect token

# --- decisions --------------------------------------------------------------------
D_MAIN = 0  # the turn: a main or a free action
D_SETUP = 1  # set-up: the tile of the Mother mushroom
D_MOVE = 2  # MOVE: the next step, or stop
D_PLACE = 3  # a tile: the free cell it goes to
D_ROT = 4  # that tile: its rotation
D_SPORE_PICK = 5  # SPORE: a tile of a layer the spores left cannot fill
D_FRUIT_MAT = 6  # FRUIT: the mat
D_FRUIT_TILE = 7  # FRUIT: the tile to grow on
D_PAY = 8  # FRUIT: the next spore paid (tile and owner)
D_OUTER_PICK = 9  # decay: the outer tile to move
D_OPPM_PICK = 10  # decay: the opponent's mushroom token to move
D_OPPM_DEST = 11  # decay: where it goes
D_MOTHER_PICK = 12  # decay or insects: whose Mother mushroom moves
D_MOTHER_DEST = 13  # decay or insects: where it goes
D_STEAL = 14  # decay: whom to steal from
D_DRAW2 = 15  # decay: the next of two cards drawn
D_KEEP = 16  # discover 2 keep 1: the card kept
D_TRADE = 17  # trade: the next of three cards traded for an insect
NUM_DECISIONS_BASE = 18
# the North American expansion's decisions (appended)
D_INVEST = 18  # SPORE: which spore that landed goes onto its tile's sapling, or none
D_SYM_SPORE = 19  # symbiosis bonus: a tile of the network
D_REROLL = 20  # keep or re-roll a symbiosis roll
D_TREE_PUSH = 21  # a spore pushed off a Grandfather Tree: where it goes
D_SAP_PICK = 22  # decay: the sapling a spore goes onto
D_SAP_ADD = 23  # decay: the tile of a new sapling
D_SAP_REMOVE = 24  # decay: the sapling a spore leaves
D_SAP_REMOVE_SEAT = 25  # that sapling: whose spore
D_KEEP_TILE = 26  # explore 2 keep 1: the tile kept
D_BONUS_PILE = 27  # the symbiosis explore's pile
D_AFTER_SPORE = 28  # no one decides: investing, then spores pushed off trees (the kernels resolve it)
NUM_DECISIONS = 29

# card locations
L_DECK, L_MARKET, L_DISCARD, L_BOX, L_PENDING = 0, 1, 2, 3, 4
L_ABSENT = 5  # a card not in this game (the expansion's cards without the expansion)
L_HAND = 8  # + seat
L_TOP = 16  # + seat * 5 + mat
L_UNDER = L_TOP + MAXS * NMATS  # + seat * 5 + mat
L_MAX = L_UNDER + MAXS * NMATS - 1
AUTO_CARD = -2  # MAT_CARD value of an Automata mushroom (it has no mushroom card)

# ender: who ended the game
RUNNING = -2  # the game is on
TURN_LIMIT_END = -1  # cut by the turn limit

# --- the config table ---------------------------------------------------------------
C = Layout("config")
CFG_NH = C.field("human_players", doc="players (agents), 1..4")
CFG_NS = C.field("seats", doc="seats: players + the Automata")
CFG_AUTO = C.field("automata", doc="1 if the Automata plays (seat human_players)")
CFG_LEVEL = C.field("automata_level", doc="0 medium, 1 hard")
CFG_MATS = C.field("mats", doc="player mats in use (3, 4, 5)")
CFG_TURN_LIMIT = C.field("turn_limit", doc="total turns (Automata turns included)")
CFG_REWARD = C.field("reward", doc="0 win/loss, 1 score, 2 score difference")
CFG_NTILES = C.field("tiles_in_play", doc="tiles in play (44 in the solo game: no black tiles)")
CFG_LIMIT_SCORED = C.field("turn_limit_scored", doc="1: the turn limit ends the game scored; 0: a truncation")
CFG_POINTS = C.field("points", NC, dims=("card",), doc="points of each card")
CFG_SPORES = C.field("spores", NC, dims=("card",), doc="spore count of each card")
CFG_REQ = C.field("require", (NC, NCOL), dims=("card", "colour"), doc="spores required by colour")
CFG_DECAY = C.field("decay", NC, dims=("card",), doc="decay action (data.DECAYS index)")
CFG_TCOL = C.field("tile_colour", NT_MAX, dims=("tile_id",), doc="colour of each tile (R G B Y K)")
CFG_TINS = C.field("tile_insect", NT_MAX, dims=("tile_id",), doc="1: the tile shows the insect symbol")
CFG_TORD = C.field("tile_order", (NT_MAX, 3), dims=("tile_id", "i"), doc="wind symbols clockwise from edge A")
CFG_ACOL = C.field("auto_colour", (2, NA_CARDS), dims=("side", "card"), doc="Automata card: colour target")
CFG_AREQ = C.field(
    "auto_require",
    (2, NA_CARDS, NCOL + 1),
    dims=("side", "card", "colour"),
    doc="Automata card: spores required by colour, then wild",
)
CFG_ASPO = C.field("auto_spores", (2, NA_CARDS), dims=("side", "card"), doc="Automata card: spore count")
CFG_AMOVE = C.field(
    "auto_move", (2, NA_CARDS, 3), dims=("side", "card", "face"), doc="Automata card: move target per die face"
)
CFG_ADEC = C.field("auto_decay", (2, NA_CARDS), dims=("side", "card"), doc="Automata card: decay action")
# the North American expansion (appended)
CFG_EXP = C.field("expansion", doc="1: the North American expansion")
CFG_NCARDS = C.field("cards", doc="mushroom cards in play (69; 104 with the expansion)")
CFG_INSECTS = C.field("insects", doc="insect tokens in the game (20; 30 with the expansion)")
CFG_WILD = C.field("wild", NC, dims=("card",), doc="wild spores required (any colour)")
CFG_FORMATION = C.field("sapling_setup", doc="-1 roll the wind die; 0 O, 1 U, 2 A: the sapling start formation")
CFG_SIZE = C.size
C.generated(globals(), prefix="cfg_")
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from C by `mushgym generate`)  # isort: skip
    cfg_auto_colour_at, cfg_auto_decay_at, cfg_auto_move_at, cfg_auto_require_at, cfg_auto_spores_at,
    cfg_decay_at, cfg_points_at, cfg_require_at, cfg_spores_at, cfg_tile_colour_at, cfg_tile_insect_at,
    cfg_tile_order_at, cfg_wild_at,
)
# fmt: on

# --- the state ----------------------------------------------------------------------
# Bounds: every value the kernels use as an index is bounded by its table.
TILE_OR_NONE = dict(low=-1, high=NT_MAX - 1)
SEAT_OR_NONE = dict(low=-1, high=MAXS - 1)
COUNT_TILES = dict(low=0, high=NT_MAX)
CELL = dict(low=-4 * NT_MAX, high=4 * NT_MAX)  # lattice coordinates: 50 tiles reach at most 50 cells away
# int16 vector states: counts, points and counters stay far below COUNT_MAX (a game
# lasts at most 160 rounds of 4 seats = 640 turns; points are at most 8 per card or 5 per
# Automata fruit); the event counters saturate there (count_event).
COUNT_MAX = 2**15 - 1
NONNEG = dict(low=0, high=COUNT_MAX)
BITSET_BITS = 15  # bits of a tile set per slot (an int16 holds 15)
BITSET_WORDS = (NT_MAX + BITSET_BITS - 1) // BITSET_BITS
BITS_TILES = dict(low=0, high=(1 << BITSET_BITS) - 1)
SPORE_SYM = 2048  # packed spore layer (decision arg a3): distance (< 256) + 256 (both + 1) (< 8) + SPORE_SYM symbol
SPORE_ROWS = 4 * SPORE_SYM  # ... + SPORE_ROWS rows of the spore triangle (1..3: at most 9 spores)

L = Layout("state", vector_dtype=np.int16, words32=("rng",))  # the vector API stores states as int16
RNG = L.field(
    "rng",
    RNG_SLOTS,
    doc="the game's random generator (xoshiro128**): 4 words; the last 4 slots "
    "hold them only in the vector API's int16 states (0 here)",
    low=0,
    high=np.array([2**32 - 1] * RNG_WORDS + [0] * (RNG_SLOTS - RNG_WORDS)),
)
TURNP = L.field("turn_player", doc="whose turn it is", low=0, high=MAXS - 1)
FIRST = L.field("first_player", doc="the seat that took the first turn", low=0, high=MAXS - 1)
TURN = L.field("turns_played", doc="turns completed (Automata turns included)", low=0, high=COUNT_MAX)
ACTS = L.field("actions_done", doc="main actions done this turn", low=0, high=2)
USED = L.field(
    "action_types_used", doc="bit per main action type used this turn (AGE: bit 6)", low=0, high=(1 << (NTYPES + 1)) - 1
)
TAKEN = L.field("market_taken", doc="market cards taken this turn (refilled at its end)", low=0, high=MARKET_SIZE)
OVER = L.field("over", doc="1 once the game has ended", low=0, high=1)
ENDER = L.field("ender", doc="seat that ended it; -1 the turn limit; -2 running", low=-2, high=MAXS - 1)
STACK = L.decision_stack(depth=STACK_MAX, args=ENTRY - 2)
STACK_N = L.fields["decisions_n"].offset
# An entry's args by kind (rules.py): a0 a count, a tile, a card or a seat; a1 an edge, a mat, a
# seat, a tile or -1; a2 a count, a tile (-1 none) or a lattice column; a3 a flag, a lattice row
# or the packed spore layer (distance + 256 (both + 1) + 2048 symbol + 8192 rows). Entries above the top are 0.
L.bound(
    "decisions",
    low=np.array([0, 0, -1, -1, CELL["low"], CELL["low"]]),
    high=np.array([NUM_DECISIONS - 1, MAXS - 1, NC - 1, NT_MAX - 1, CELL["high"], 4 * SPORE_ROWS - 1]),
)
NTP = L.field("tiles_placed", doc="tiles on the board", **COUNT_TILES)
T_ID = L.field(
    "tile_id", NT_MAX, dims=("tile",), doc="tile id (tiles.toml order) of each placed tile; -1 none", **TILE_OR_NONE
)
T_C = L.field("tile_col", NT_MAX, dims=("tile",), doc="lattice column of each placed tile", **CELL)
T_R = L.field("tile_row", NT_MAX, dims=("tile",), doc="lattice row of each placed tile", **CELL)
T_ROT = L.field("tile_rot", NT_MAX, dims=("tile",), doc="rotation 0..2 of each placed tile", low=0, high=2)
ADJ = L.field(
    "adjacency", (NT_MAX, 3), dims=("tile", "edge"), doc="placed tile across each edge A B C; -1 none", **TILE_OR_NONE
)
T_INS = L.field("tile_insect", NT_MAX, dims=("tile",), doc="1: an insect token lies on the tile", low=0, high=1)
SP = L.field(
    "spores", (NT_MAX, MAXS), dims=("tile", "seat"), doc="spores of each seat on each tile", low=0, high=SPORES_EACH
)
MUSH_P = L.field(
    "mushroom_owner", NT_MAX, dims=("tile",), doc="seat of the mushroom token on the tile; -1 none", **SEAT_OR_NONE
)
MUSH_M = L.field("mushroom_mat", NT_MAX, dims=("tile",), doc="mat of that mushroom token", low=0, high=NMATS - 1)
PILE = L.field(
    "piles", (2, NT_MAX), dims=("pile", "position"), doc="tile ids, bottom first; -1 above the top", **TILE_OR_NONE
)
PILE_N = L.field("pile_count", 2, dims=("pile",), doc="tiles in each pile", **COUNT_TILES)
DRAWN = L.field("drawn_tile", doc="tile id drawn by explore, waiting to be placed; -1 none", **TILE_OR_NONE)
M_POS = L.field(
    "mother", MAXS, dims=("seat",), doc="placed tile of each seat's Mother mushroom; -1 before setup", **TILE_OR_NONE
)
SUPPLY = L.field("supply", MAXS, dims=("seat",), doc="spores in each seat's supply", low=0, high=SPORES_EACH)
INS = L.field("insects", MAXS, dims=("seat",), doc="insect tokens of each seat", low=0, high=INSECTS_MAX)
PTS = L.field("points", MAXS, dims=("seat",), doc="points of grown mushrooms (5 each for the Automata)", **NONNEG)
GROWN = L.field("grown", MAXS, dims=("seat",), doc="mushrooms grown", **NONNEG)
GUPG = L.field(
    "game_upgrades",
    MAXS,
    dims=("seat",),
    doc="game-upgrade bits (twice, discover 2, moves 3, spores 3; expansion: re-roll symbiosis, explore 2 keep 1)",
    low=0,
    high=63,
)
MAT_CARD = L.field(
    "mat_card",
    (MAXS, NMATS),
    dims=("seat", "mat"),
    doc="card on top; -1 none; -2 an Automata mushroom",
    low=AUTO_CARD,
    high=NC - 1,
)
MAT_TILE = L.field(
    "mat_tile", (MAXS, NMATS), dims=("seat", "mat"), doc="tile of the mat's token; -1 on the mat", **TILE_OR_NONE
)
MAT_CTR = L.field("mat_counter", (MAXS, NMATS), dims=("seat", "mat"), doc="spore counter 0..2", low=0, high=2)
MAT_UNDER = L.field("mat_under", (MAXS, NMATS), dims=("seat", "mat"), doc="decayed cards under the mat", low=0, high=NC)
MAT_UPG = L.field(
    "mat_upgrades",
    (MAXS, NMATS),
    dims=("seat", "mat"),
    doc="mushroom-upgrade bits (extra spore, with M)",
    low=0,
    high=3,
)
LOC = L.field("card_loc", NC, dims=("card",), doc="where each card is (L_* codes)", low=0, high=L_MAX)
DECK = L.field("deck", NC, dims=("position",), doc="card ids, bottom first", low=0, high=NC - 1)
DECK_N = L.field("deck_count", doc="cards in the deck", low=0, high=NC)
MARKET = L.field("market", MARKET_SIZE, dims=("slot",), doc="face-up card ids; -1 empty", low=-1, high=NC - 1)
DISC = L.field("discard", NC, dims=("position",), doc="card ids of the discard pile, bottom first", low=0, high=NC - 1)
DISC_N = L.field("discard_count", doc="cards in the discard pile", low=0, high=NC)
HAND_N = L.field("hand_count", MAXS, dims=("seat",), doc="cards in each hand", low=0, high=NC)
INS_SUPPLY = L.field("insect_supply", doc="insect tokens in the supply", low=0, high=INSECTS_MAX)
NEED = L.field("need", NCOL, dims=("colour",), doc="fruit payment: spores still owed by colour", low=0, high=1 << 10)
PAID_BLACK = L.field("paid_black", doc="black spores paid so far (each covers any colour)", low=0, high=1 << 10)
MARKS = L.field(
    "marks",
    BITSET_WORDS,
    dims=("word",),
    doc="bit set of the tiles chosen in the current spore layer, 15 tiles per slot",
    **BITS_TILES,
)
FRUIT_NET = L.field(
    "fruit_network",
    BITSET_WORDS,
    dims=("word",),
    doc="bit set of the tiles of the network paying for a mushroom, 15 tiles per slot",
    **BITS_TILES,
)
ROLL = L.field("last_roll", doc="last wind-die face (0 O, 1 U, 2 A); -1 none", low=-1, high=2)
AUTO_DECK = L.field("automata_deck", NA_CARDS, dims=("position",), doc="Automata card ids", low=0, high=NA_CARDS - 1)
AUTO_DECK_N = L.field("automata_deck_count", doc="Automata cards left", low=0, high=NA_CARDS)
A_CARDNOW = L.field("automata_card", doc="the Automata card in play; -1 none", low=-1, high=NA_CARDS - 1)
# the North American expansion (appended; all zero / -1 without it)
SAP = L.field("sapling", NT_MAX, dims=("tile",), doc="1: a sapling stands on the tile", low=0, high=1)
SAP_SP = L.field(
    "sapling_spores",
    (NT_MAX, MAXS),
    dims=("tile", "seat"),
    doc="spores of each seat on the tile's sapling",
    low=0,
    high=SAPLING_SPORES,
)
TREE = L.field("tree", NT_MAX, dims=("tile",), doc="owner of the Grandfather Tree on the tile; -1 none", **SEAT_OR_NONE)
TREES_LEFT = L.field(
    "trees_left", MAXS, dims=("seat",), doc="Grandfather Trees beside each seat's mats", low=0, high=TREES_EACH
)
SAP_SUPPLY = L.field("sapling_supply", doc="saplings in the supply", low=0, high=SAPLINGS)
FORMATION = L.field(
    "sapling_formation", doc="the sapling start formation (0 O, 1 U, 2 A); -1 no expansion", low=-1, high=2
)
LANDED = L.field(
    "landed",
    BITSET_WORDS,
    dims=("word",),
    doc="bit set of the tiles a spore of the SPORE action "
    "under way landed on (the expansion: where it may invest), 15 tiles per slot",
    **BITS_TILES,
)
TILES_OUT = L.field(
    "tiles_discarded",
    BITSET_WORDS,
    dims=("word",),
    doc='bit set of the tile ids discarded by "explore 2 keep 1" (out of the game), 15 ids per slot',
    **BITS_TILES,
)
NEED_WILD = L.field("need_wild", doc="fruit payment: wild spores still owed (any colour)", low=0, high=1 << 10)
INVESTED = L.field("invested", doc="1: the SPORE action under way has invested a spore in a sapling", low=0, high=1)
STATS = L.field(
    "stats",
    NSTATS,
    dims=("event",),
    doc="event counters for the simulation figures (ST_*), saturating at COUNT_MAX",
    **NONNEG,
)
STATE_SIZE = L.size
L.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from L by `mushgym generate`)  # isort: skip
    NO_DECISION, adjacency_at, automata_deck_at, card_loc_at, clear_decisions, decision_at, decision_depth,
    deck_at, discard_at, fruit_network_at, game_upgrades_at, grown_at, hand_count_at, insects_at, landed_at,
    market_at, marks_at, mat_card_at, mat_counter_at, mat_tile_at, mat_under_at, mat_upgrades_at, mother_at,
    mushroom_mat_at, mushroom_owner_at, need_at, pile_count_at, piles_at, points_at, pop_decision,
    push_decision, replace_top, rng_at, sapling_at, sapling_spores_at, set_decision_at, set_top_arg,
    set_top_kind, spores_at, stats_at, supply_at, tile_col_at, tile_id_at, tile_insect_at, tile_rot_at,
    tile_row_at, tiles_discarded_at, top_arg, top_arg_slot, top_entry, top_kind, top_player, tree_at,
    trees_left_at,
)
# fmt: on

# STATS slots: 0..10 decay action fired by kind (the expansion's: ST_NA_DECAY below); 12..17 Automata action fired
# (fruit, decay, spore, move, explore, insect-move); 18 Automata random-walk move;
# 19 Automata fate draws; 20 spore sub-decisions; 21 turn-limit ends
ST_DECAY = 0
ST_AUTO = 12
ST_WALK = 18
ST_FATE = 19
ST_PICKS = 20
ST_LIMIT = 21
# the North American expansion: 22..26 its decay actions fired (DC_SAPLING_ROLL..); 27 investments,
# 28 AGEs, 29 spores pushed off trees, 30 symbiosis bonuses given
ST_NA_DECAY = 22
ST_INVEST = 27
ST_AGE = 28
ST_PUSH = 29
ST_BONUS = 30


# --- tile bit sets and event counters (int16-safe) -------------------------------------
@njit(cache=True, inline="always")
def bit_get(state, off, t):
    """1 if tile ``t`` is in the bit set at ``state[off:off + BITSET_WORDS]``."""
    return (state[off + t // BITSET_BITS] >> (t % BITSET_BITS)) & 1


@njit(cache=True, inline="always")
def bit_set(state, off, t):
    state[off + t // BITSET_BITS] |= 1 << (t % BITSET_BITS)


@njit(cache=True, inline="always")
def bits_clear(state, off):
    for i in range(BITSET_WORDS):
        state[off + i] = 0


@njit(cache=True, inline="always")
def bits_put(state, off, bits):
    """Store the 64-bit tile set ``bits`` (tiles 0..NT_MAX-1)."""
    for i in range(BITSET_WORDS):
        state[off + i] = (bits >> (i * BITSET_BITS)) & ((1 << BITSET_BITS) - 1)


@njit(cache=True, inline="always")
def count_event(state, k):
    """Add one to event counter ``k`` (saturating at COUNT_MAX, the int16 bound)."""
    if state[STATS + k] < COUNT_MAX:
        state[STATS + k] += 1
