"""Mycelium's declarations: sizes, enums, the config, state and observation layouts, the
decision kinds and the action space (no rules: every other module builds on these).

The whole state is one int64 array (:data:`L`, its fields and their bounds); the turn player
acts when the decision stack is empty (phase: Explore placement, Action menu, Place,
Draw-phase discard); everything else is a stack entry ``(kind, player, args)``, its kinds
declared once in :data:`K` with their named arguments and the module of their rules.
"""

import numpy as np

from mushgym.core import RNG_WORDS, ActionSpace, Layout
from mushgym.core.kinds import DecisionKinds

from .data import MAX_EDGES, MAX_GATHER_LOCS, MAX_NUTRIENT_KINDS, NUM_MUSHLING_CARDS, NUM_NUTRIENT_CARDS
from .variant_data import NUM_HEROES, NUM_ITEM_CARDS, NUM_ITEM_TYPES, SHOP_SIZE  # variant: emsporium, hero_tavern

# --- sizes and fixed numbers of the rulebook ----------------------------------------------------
MAXP = 4
NUM_MUSHLING_KINDS = 23  # mushling cards (kinds: the Field Guide's 23 entries)
NUM_CARD_TYPES = 8  # Mushling Card Types (Builder, Thief, ...: data.MUSHLING_TYPES)
HAND_LIMIT = 7
MAX_PATHS = 20
SPORE_TOKENS = 50
NUTRIENT_TOKENS = 45
COMBAT_TOKENS = 16
WIN_NUTRIENTS = 10
DONE_RULES, DONE_LIMIT = 1, 2  # values of state[DONE] once the game is over
MAX_ACTIONS_PER_TURN = 30  # designed bound (RULES.md gap 12): attacks and Deceiver exchanges per Action Phase
MAX_PAID = 30  # spore value one Build action may pay (10 Paths)
# variant: emsporium / hero_tavern
SHOP = SHOP_SIZE  # 5 face up
HERO_UP = 2  # face-up heroes at the Tavern
TAVERN = MAX_GATHER_LOCS  # the gatherer location value of the Hero Tavern (not a gather location of the base game)
# variant: team
MAX_GATHER_TAKE = 6  # the most one location gives a gatherer party: its bonded Paths (3 gatherers, 6 with Backpacks)
# the variants' validate codes, after validate.py's 27 (emsporium.py, tavern.py and
# validate.py import them; validate.VALIDATION_ERRORS names them)
V_ITEMS = 28
V_HEROES = 29
V_TEAM = 30

# mushling types (data.MUSHLING_NAMES order)
DECEIVER = 0  # Amethyst Deceiver
CHICKEN = 1  # Chicken of the Woods
PUFF = 2  # Common Puffball
DEATH = 3  # Death Cap
LIBERTY = 4  # Liberty Cap
BIRDS = 5  # Bird's Nest
PARROT = 6  # Parrot Toadstool
RUSSULA = 7
VEILED = 8  # Veiled Lady
FLY = 9  # Fly Agaric
INKY = 10  # Inky Cap
PENNY = 11  # Penny Bun
BLUE_OY = 12  # Blue Oyster
PINK_OY = 13  # Pink Oyster
CHANT = 14  # Chanterelle
BLEWIT = 15  # Wood Blewit
NIGHT = 16  # Night Light
MOREL = 17  # Yellow Morel
MAGIC = 18  # Magic Mushling
TRUFFLE = 19
WITCH = 20  # Witch's Hat
PARASOL = 21
SHIITAKE = 22

# phases (the turn player's decision when the stack is empty)
PH_EXPLORE = 0
PH_NUTRIENT = 1
PH_ACTION = 2
PH_PLACE = 3
PH_DISCARD = 4
PH_OVER = 5
NUM_PHASES = 6

# decision kinds: declared with their arguments after the state (section "decision kinds")

# abilities (an entry D_RESOLVE holds: ability, x1, x2, x3, cancelled)
AB_DECEIVE = 0  # Amethyst Deceiver from the menu: a card of type x1 from the discard pile
AB_AD_REACT = 1  # Amethyst Deceiver revealed: draw a card in its place (side x1)
AB_CHICKEN_DEF = 2  # Chicken of the Woods defending: draw 3
AB_CHICKEN_ATT = 3  # Chicken of the Woods attacking and winning: draw 1
AB_PUFF = 4  # Common Puffball: cancel the Thief of the other side
AB_LIBERTY = 5  # Liberty Cap winning: place a Path
AB_BIRDS = 6  # Bird's Nest: gather with the gatherers in bit mask x1
AB_PARROT_VIEW = 7  # Parrot Toadstool: view player x1's hand
AB_PARROT_ATT = 8  # Parrot Toadstool: attack the Path in slot x2 of edge x1
AB_RUSSULA = 9  # Russula: gatherers to x1, x2, x3
AB_VEILED = 10  # Veiled Lady: view the top Nutrient Cards
AB_FLY = 11  # Fly Agaric: cancel the ability at level x1
AB_INKY = 12  # Inky Cap: builder x1 gives 2 cards or loses the Path on x2
AB_PENNY = 13  # Penny Bun: remove builder x1's Path on x2
AB_REINF = 14  # a reinforcement: oyster type x1 for side x2
AB_BUILD_PAIR = 15  # two Builders (types x1, x2): 2 free Paths
AB_BUILD_REMOVE = 16  # a Builder (type x1): remove your Path on x2, gain a spore
AB_SPAWN = 17  # a Worker (type x1): spores into the cave x2
AB_MAGIC = 18  # Magic Mushling: view and rearrange the top Nutrient Cards
AB_TRUFFLE = 19  # Truffle: shuffle deck + discard (x1 0 mushling, 1 nutrient)
AB_WITCH = 20  # Witch's Hat: the discard onto the deck (x1 0 mushling, 1 nutrient)
AB_THIEF_PAIR = 21  # two Thieves (types x1, x2): a spore from the cave x3
AB_THIEF_STEAL = 22  # a revealed Thief: a random card of the other side (side x1)
NUM_AB = 23

# combat stages
CS_REVEAL = 0  # reveal the face-down cards (no defence: the Path is removed)
CS_AD = 1  # Amethyst Deceivers may draw in their place
CS_REINF = 2  # the reinforcement round
CS_COMPARE = 3  # compare the combat values
CS_PUFF = 4  # Common Puffballs may cancel a Thief
CS_REACT_A = 5  # the attacker's revealed card's reaction
CS_REACT_D = 6  # the defender's
CS_END = 7  # the cards go: the combat ends
NUM_CS = 8

# gather-location kinds (data.LK_*)
LK_CAVE, LK_TREE, LK_CENTER, LK_MUSH = 0, 1, 2, 3
# nutrient effects (data.NUTRIENT_EFFECTS)
NE_TREE, NE_CENTER, NE_SPORES, NE_RAIN = 0, 1, 2, 3

# --- the config array: options and data tables -------------------------------------------------
CONFIG = Layout("config")
CFG_NP = CONFIG.field("num_players")
CFG_HOLDERS = CONFIG.field("holders", doc="1: reaction prompts only to holders of a matching card")
CFG_TURN_LIMIT = CONFIG.field("turn_limit")
CFG_LIMIT_SCORED = CONFIG.field(
    "turn_limit_scored", doc="1: the turn limit ends the game scored by Nutrients; 0: a truncation"
)
CFG_NE = CONFIG.field("n_edges")
CFG_NG = CONFIG.field("n_glocs")
CFG_NNUT = CONFIG.field("n_nutrient_cards")
CFG_WILLOW = CONFIG.field("willow")
CFG_MUSH = CONFIG.field("mush_room")
CFG_EDGE_NBR = CONFIG.field("edge_nbr", (MAX_EDGES, 4), dims=("edge", "k"))
CFG_EDGE_GLOC = CONFIG.field("edge_gloc", (MAX_EDGES, 2), dims=("edge", "side"))
CFG_PERM = CONFIG.field("permanent", MAX_EDGES, dims=("edge",))
CFG_GLOC_EDGES = CONFIG.field("gloc_edges", (MAX_GATHER_LOCS, 6), dims=("gloc", "k"))
CFG_GLOC_KIND = CONFIG.field("gloc_kind", MAX_GATHER_LOCS, dims=("gloc",))
CFG_CAVE = CONFIG.field("cave", MAXP, dims=("seat",), doc="gather location of each seat's Spore Cave")
CFG_TREE = CONFIG.field("tree", 4, dims=("tree",), doc="gather location of Oak, Birch, Pine, Walnut (-1 absent)")
CFG_COMBAT = CONFIG.field("combat", NUM_MUSHLING_KINDS, dims=("kind",))
CFG_SPORE = CONFIG.field("spore", NUM_MUSHLING_KINDS, dims=("kind",))
CFG_COPIES = CONFIG.field("copies", NUM_MUSHLING_KINDS, dims=("kind",))
CFG_DECK = CONFIG.field("deck", NUM_MUSHLING_CARDS, dims=("card",))
CFG_NUT_DECK = CONFIG.field("nut_deck", NUM_NUTRIENT_CARDS, dims=("card",), doc="nutrient kinds of the cards in play")
CFG_NUT_EFFECT = CONFIG.field("nut_effect", MAX_NUTRIENT_KINDS, dims=("nkind",))
CFG_NUT_TARGET = CONFIG.field(
    "nut_target", MAX_NUTRIENT_KINDS, dims=("nkind",), doc="gather location of a tree card (-1)"
)
# variant: emsporium / hero_tavern / legends
CFG_EMS = CONFIG.field("emsporium", doc="1: the Emsporium variant")
CFG_ITEM_COST = CONFIG.field(
    "item_cost", NUM_ITEM_TYPES, dims=("item",), doc="spore value of each item type (items.toml)"
)
CFG_TAVERN = CONFIG.field("hero_tavern", doc="1: the Hero Tavern variant")
CFG_LEGENDS = CONFIG.field("legends", doc="1: the Legends variant (implies the Tavern)")
CFG_HERO_EFFECT = CONFIG.field(
    "hero_effect", (NUM_HEROES, 2), dims=("hero", "k"), doc="effect of each hero ability (heroes.toml)"
)
CFG_HERO_AMOUNT = CONFIG.field("hero_amount", (NUM_HEROES, 2), dims=("hero", "k"), doc="amount of each hero ability")
# variant: team (and the 2-player game, which plays the Team rules with two seats per agent)
CFG_TEAM = CONFIG.field(
    "team", doc="1: the Team rules (Blue+Red vs Green+Beige; Trade; 10 per Colony, 15 per team wins)"
)
CFG_AGENTS = CONFIG.field("agents", doc="agents (PettingZoo players): the seats, or 2 in the 2-player game")
CFG_CARD_TYPE = CONFIG.field(
    "card_type", NUM_MUSHLING_KINDS, dims=("kind",), doc="Mushling Card Type of each card (data.MUSHLING_TYPES order)"
)
CFG_SIZE = CONFIG.size
CONFIG.generated(globals(), prefix="cfg_")
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from CONFIG by `mushgym generate`)  # isort: skip
    cfg_card_type_at, cfg_cave_at, cfg_combat_at, cfg_copies_at, cfg_deck_at, cfg_edge_gloc_at,
    cfg_edge_nbr_at, cfg_gloc_edges_at, cfg_gloc_kind_at, cfg_hero_amount_at, cfg_hero_effect_at,
    cfg_item_cost_at, cfg_nut_deck_at, cfg_nut_effect_at, cfg_nut_target_at, cfg_permanent_at, cfg_spore_at,
    cfg_tree_at,
)
# fmt: on

# --- the state -------------------------------------------------------------------------------
STATE = Layout("state")
RNG = STATE.field("rng", RNG_WORDS, doc="the game's random generator (xoshiro128**)")
TURN = STATE.field("turn", doc="turns completed (the Explore Phase is not a turn)")
TURN_PLAYER = STATE.field("turn_player", doc="seat whose turn it is (the explorer in the Explore Phase)")
FIRST = STATE.field("first_player", doc="seat that played the first turn")
PHASE = STATE.field("phase", doc="PH_* of the turn")
PLACED = STATE.field("placed", doc="gatherers placed so far in this Explore/Place Phase")
ACTIONS = STATE.field(
    "actions_used",
    doc="attacks (Parrot Toadstool's too) and Amethyst Deceiver exchanges this Action Phase: "
    "the actions that can give back what they cost (at most 30)",
)
DONE = STATE.field("done", doc="0 running, 1 ended by the rules (10 Nutrients), 2 cut by the turn limit")
WINNER = STATE.field("winner", doc="winning seat, -1 none")
BN_PLAYED = STATE.field("bn_played", doc="bit per seat: played a Bird's Nest in this Nutrient Card Phase")
BN_TRIGGER = STATE.field("bn_trigger", doc="bit per gather location: a Nutrient was placed on this tree this phase")
LAST_EDGE = STATE.field("last_edge", doc="edge of the last Path built or removed (-1)")
LAST_HAND = STATE.field("last_hand", doc="hand size of the last player to finish a Draw Phase, at that moment")
PATHS = STATE.field(
    "paths", (MAX_EDGES, 2), dims=("edge", "slot"), doc="owner + 1 of each of the 2 Paths an edge holds (0 empty)"
)
NPATHS = STATE.field("npaths", MAXP, dims=("player",), doc="Paths built and in play (the 6 permanent ones not counted)")
HAND = STATE.field("hand", (MAXP, NUM_MUSHLING_KINDS), dims=("player", "kind"), doc="mushling cards in hand per type")
KNOWN = STATE.field(
    "known",
    (MAXP, MAXP, NUM_MUSHLING_KINDS),
    dims=("viewer", "holder", "kind"),
    doc="cards the viewer knows the holder still has (a lower bound kept true)",
)
DECK = STATE.field("deck", NUM_MUSHLING_CARDS, dims=("pos",), doc="mushling deck, bottom first")
DECK_N = STATE.field("deck_n", doc="cards in the mushling deck")
DISCARD = STATE.field("discard", NUM_MUSHLING_KINDS, dims=("kind",), doc="mushling discard pile per type (public)")
LIMBO = STATE.field("limbo", NUM_MUSHLING_KINDS, dims=("kind",), doc="cards of abilities in flight (public)")
CAREA = STATE.field(
    "carea", NUM_MUSHLING_KINDS, dims=("kind",), doc="reinforcements played in the current combat (public)"
)
NDECK = STATE.field("ndeck", NUM_NUTRIENT_CARDS, dims=("pos",), doc="nutrient deck (kinds), bottom first")
NDECK_N = STATE.field("ndeck_n", doc="cards in the nutrient deck")
NDISCARD = STATE.field("ndiscard", MAX_NUTRIENT_KINDS, dims=("nkind",), doc="nutrient discard pile per kind (public)")
DECK_TOP = STATE.field(
    "deck_top",
    NUM_MUSHLING_KINDS,
    dims=("kind",),
    doc="public: the cards a Witch's Hat put on top of the mushling deck, less those seen drawn; "
    "the top deck_top_n cards are among them",
)
DECK_TOP_N = STATE.field("deck_top_n", doc="cards still on top of the mushling deck from a Witch's Hat's shuffle")
NDECK_TOP = STATE.field(
    "ndeck_top",
    MAX_NUTRIENT_KINDS,
    dims=("nkind",),
    doc="public: the nutrient cards a Witch's Hat put on top of the nutrient deck that are still there",
)
NDECK_TOP_N = STATE.field("ndeck_top_n", doc="how many: the top ndeck_top_n nutrient cards are exactly ndeck_top")
NSEEN = STATE.field(
    "nseen", (MAXP, NUM_NUTRIENT_CARDS), dims=("player", "pos"), doc="1: the player knows the nutrient card at pos"
)
MAT_SPORES = STATE.field("mat_spores", MAXP, dims=("player",), doc="Spore Tokens on each player's mat")
MAT_NUT = STATE.field("mat_nut", MAXP, dims=("player",), doc="Nutrient Tokens on each player's mat (10 wins)")
CTOK = STATE.field("ctok", MAXP, dims=("player",), doc="combat tokens")
LOC_SPORES = STATE.field("loc_spores", MAX_GATHER_LOCS, dims=("gloc",), doc="Spore Tokens on each gather location")
LOC_NUT = STATE.field("loc_nut", MAX_GATHER_LOCS, dims=("gloc",), doc="Nutrient Tokens on each gather location")
GATH = STATE.field(
    "gatherer", (MAXP, 3), dims=("player", "g"), doc="gather location of each gatherer, -1 at the Colony"
)
C_ACTIVE = STATE.field("c_active", doc="a combat is in progress")
C_ATT = STATE.field("c_att", doc="combat: the attacker (-1 none)")
C_DEF = STATE.field("c_def", doc="combat: the defender, owner of the attacked Path (-1 none)")
C_EDGE = STATE.field("c_edge", doc="combat: the attacked Path's edge (-1 none)")
C_CARD = STATE.field("c_card", 2, dims=("side",), doc="face-down card of attacker (0) and defender (1), -1 none")
C_REPL = STATE.field("c_repl", 2, dims=("side",), doc="card drawn by an Amethyst Deceiver in its place, -1 none")
C_BONUS = STATE.field("c_bonus", 2, dims=("side",), doc="reinforcements and combat tokens added to each side")
C_NOTHIEF = STATE.field(
    "c_nothief", 2, dims=("side",), doc="this side's Thief ability is cancelled by a Common Puffball"
)
C_DEFENDED = STATE.field("c_defended", doc="the defender played a face-down card")
C_REVEALED = STATE.field("c_revealed", doc="the face-down cards are revealed")
C_STAGE = STATE.field("c_stage", doc="CS_* step of the combat")
C_SUB = STATE.field("c_sub", doc="side (or sub-step) within the stage")
C_PASSES = STATE.field("c_passes", doc="reinforcement round: players who passed in a row")
C_NEXT = STATE.field("c_next", doc="reinforcement round: the next player asked")
C_WINNER = STATE.field("c_winner", doc="0 attacker, 1 defender, -1 undecided")
STACK = STATE.decision_stack(depth=48, args=5)
# variant: emsporium (after the base game's fields, so their offsets stay)
ITEMS = STATE.field(
    "items", (MAXP, NUM_ITEM_TYPES), dims=("player", "item"), doc="Emsporium items each player owns, per type (public)"
)
SHOP_SLOTS = STATE.field(
    "shop", SHOP, dims=("slot",), doc="item type face up in each shop slot, -1 empty (refilled at the end of the turn)"
)
IDECK = STATE.field(
    "item_deck", NUM_ITEM_CARDS, dims=("pos",), doc="Emsporium item deck (types), bottom first (order hidden)"
)
IDECK_N = STATE.field("item_deck_n", doc="cards in the item deck")
# variant: hero_tavern / legends
HEROES = STATE.field(
    "heroes", (MAXP, NUM_HEROES), dims=("player", "hero"), doc="1: the player holds this hero (public)"
)
HERO_UP_SLOTS = STATE.field("hero_up", HERO_UP, dims=("slot",), doc="hero face up at the Tavern in each slot, -1 none")
HDECK = STATE.field("hero_deck", NUM_HEROES, dims=("pos",), doc="hero deck, bottom first (order hidden)")
HDECK_N = STATE.field("hero_deck_n", doc="cards in the hero deck")
LEGEND_DEAL = STATE.field(
    "legend_deal", (MAXP, 2), dims=("player", "k"), doc="Legends: the 2 heroes dealt to each player, -1 once kept"
)
# variant: team (fields after the base game's and the items', so their offsets stay where they are)
AGENT_OF = STATE.field(
    "agent_of",
    MAXP,
    dims=("seat",),
    doc="agent acting for each seat: the seat itself, or seat % 2 in the 2-player game",
)
TRADE_USED = STATE.field("trade_used", doc="team: the turn player has traded this turn (both teammates consented)")
TRADE_OFFERS = STATE.field(
    "trade_offers",
    doc="team: bit k: the turn player offered kind k (23: a Spore Token) this turn "
    "and the Trade did not happen (a kind is offered once per turn)",
)
GATHER_TAKE = STATE.field(
    "gather_take",
    MAX_GATHER_LOCS,
    dims=("gloc",),
    doc="team: tokens the gathering player chose to take from each location (-1 not asked)",
)
STATE_SIZE = STATE.size

# --- decision kinds ----------------------------------------------------------------------------
# Each kind once: its value, its named arguments (columns 2..6 of an entry; each one's range: a
# number is the largest value allowed, 0 = unused; the codes below a range that depends on the
# game) and the module of its rules. That module defines <name>_mask, <name>_step and, if the
# prompt can lapse before it is asked, <name>_live (an ``auto`` kind is bookkeeping that
# decisions.advance processes: <name>_process); validate_stack defines <name>_fits. The dispatch
# over kinds is generated (decisions.py, validate_stack.py); K.generated defines the column of
# each argument, <KIND>_<ARG> (PAY_PAID: ``top_arg(state, PAY_PAID)``).
ARG_PLAYER = -1  # a seat in play
ARG_EDGE = -2  # an edge of the board
ARG_GLOC = -3  # a gather location
ARG_TYPE = -4  # a mushling type
ARG_LEVEL = -5  # an entry below this one
ARG_PLACE = -6  # a gatherer's placement: a gather location, or the Hero Tavern (TAVERN) with the variant
MAX_PAY_ARG = MAX_PAID + 9  # the last card paid may overshoot 30 (spore values are at most 9)
DECISION_KINDS = DecisionKinds(args=STATE.stack[2])
D_RESOLVE = DECISION_KINDS.kind(
    0,
    "resolve",
    (("ability", NUM_AB - 1), ("x1", 0), ("x2", 0), ("x3", 0), ("cancelled", 1)),
    rules="effects",
    auto=True,
    doc="an ability in flight (x1..x3: ABILITY_ARGS), cancelled by a Fly Agaric; its window sits above it",
)
D_COMBAT = DECISION_KINDS.kind(
    1, "combat", rules="combat", auto=True, doc="the combat in progress (its stage: the c_* fields)"
)
D_FA = DECISION_KINDS.kind(
    2,
    "fly_agaric",
    (("level", ARG_LEVEL),),
    rules="abilities",
    doc="Fly Agaric window: cancel the ability at this level",
)
D_PATHWIN = DECISION_KINDS.kind(
    3,
    "path_window",
    (("builder", ARG_PLAYER), ("edge", ARG_EDGE)),
    rules="building",
    doc="Penny Bun / Inky Cap after the builder's new Path on this edge",
)
D_REINF = DECISION_KINDS.kind(
    4, "reinforce", rules="combat", doc="the reinforcement round: an Oyster, a combat token or pass"
)
D_BN = DECISION_KINDS.kind(
    5, "birds_nest", (("again", 1),), rules="turn", doc="Bird's Nest in a Nutrient Card Phase (asked again)"
)
D_USE = DECISION_KINDS.kind(
    6,
    "use",
    (("ability", NUM_AB - 1), ("side", 1)),
    rules="abilities",
    doc="use the reaction of a revealed card (or an Amethyst Deceiver's) for this side",
)
D_PAY = DECISION_KINDS.kind(
    7, "pay", (("paid", MAX_PAY_ARG),), rules="building", doc="Build: paying, spore value paid so far"
)
D_PLACE_PATH = DECISION_KINDS.kind(
    8, "place_path", (("left", MAX_PAY_ARG // 3),), rules="building", doc="place a Path, this many left"
)
D_REMOVE_OWN = DECISION_KINDS.kind(
    9,
    "remove_own",
    (("edge", ARG_EDGE),),
    rules="building",
    doc="the 21st Path: remove one of yours other than the new one on this edge",
)
D_ATT_CARD = DECISION_KINDS.kind(10, "attack_card", rules="combat", doc="the attacker's face-down card")
D_DEFEND = DECISION_KINDS.kind(11, "defend", rules="combat", doc="the defender's face-down card, or none")
D_INKY_GIVE = DECISION_KINDS.kind(
    12,
    "inky_give",
    (("receiver", ARG_PLAYER), ("edge", ARG_EDGE), ("given", 1)),
    rules="building",
    doc="Inky Cap: give the receiver 2 cards or lose the Path on this edge",
)
D_RUSSULA_PICK = DECISION_KINDS.kind(
    13,
    "russula_pick",
    (("made", 2), ("first", ARG_PLACE), ("second", ARG_PLACE)),
    rules="effects",
    doc="Russula: the picks made so far and the first two locations",
)
D_ARRANGE = DECISION_KINDS.kind(
    14,
    "arrange",
    (("position", 3), ("viewed", 4)),
    rules="effects",
    doc="Magic Mushling: the next position from the top, of the cards viewed",
)
NUM_D_BASE = DECISION_KINDS.size
# variant kinds, appended: emsporium (buy: pay, then pick items), hero_tavern (pick a hero),
# legends (keep 1 of the 2 heroes dealt)
D_BUY = DECISION_KINDS.kind(
    15,
    "buy",
    (("paid", MAX_PAY_ARG), ("spent", MAX_PAY_ARG)),
    rules="emsporium",
    doc="Emsporium: Buy, the value paid and spent",
)
D_HERO_PICK = DECISION_KINDS.kind(
    16, "hero_pick", (("left", 3),), rules="tavern", doc="Hero Tavern: recruit a hero, picks left"
)
D_LEGEND = DECISION_KINDS.kind(17, "legend", rules="tavern", doc="Legends: keep 1 of the 2 heroes dealt")
NUM_D_ITEMS = DECISION_KINDS.size
# variant: team: the teammate answers a Trade offer; the gathering player chooses what it takes
D_TRADE = DECISION_KINDS.kind(
    18,
    "trade",
    (("offered", NUM_MUSHLING_KINDS), ("returned", NUM_MUSHLING_KINDS + 1)),
    rules="team",
    doc="Team: the Trade offer of this kind (23: a Spore Token): the teammate answers (returned 0), "
    "then the proposer accepts what comes back (returned: its kind + 1)",
)
D_GATHER = DECISION_KINDS.kind(
    19,
    "gather",
    (("subset", 7), ("location", ARG_GLOC)),
    rules="gathering",
    doc="Team: how many tokens the gatherers in this subset take from this location",
)
# the Exchange's choice of the two cards of one Mushling Card Type (exchange.py)
D_EXCHANGE = DECISION_KINDS.kind(
    20,
    "exchange_choice",
    (("type", NUM_CARD_TYPES - 1), ("option", MAXP), ("first", NUM_MUSHLING_KINDS)),
    rules="exchange",
    doc="the Exchange's 2 cards of this Mushling Card Type "
    "(option: its action; first: the first card named + 1, 0 none yet)",
)
NUM_D = DECISION_KINDS.size
DECISION_ARGS = DECISION_KINDS.arg_ranges()

# Bounds of every slot, checked by Game.validate on each state coming from Python (one pass);
# the ``validate`` kernel below then checks what depends on the options and on other slots
# (players, edges and locations in play, the cards conserved, each decision's arguments), so
# that within them no kernel indexes out of range.
_BIG = 2**31
for _name, _low, _high in (
    ("rng", 0, 2**32 - 1),
    ("turn", 0, 240),
    ("turn_player", 0, MAXP - 1),
    ("first_player", 0, MAXP - 1),
    ("phase", 0, NUM_PHASES - 1),
    ("placed", 0, 2),
    ("actions_used", 0, MAX_ACTIONS_PER_TURN),
    ("done", 0, DONE_LIMIT),
    ("winner", -1, MAXP - 1),
    ("bn_played", 0, 2**MAXP - 1),
    ("bn_trigger", 0, 2**MAX_GATHER_LOCS - 1),
    ("last_edge", -1, MAX_EDGES - 1),
    ("last_hand", 0, NUM_MUSHLING_CARDS),
    ("paths", 0, MAXP),
    ("npaths", 0, MAX_PATHS + 1),
    ("hand", 0, NUM_MUSHLING_CARDS),
    ("known", 0, NUM_MUSHLING_CARDS),
    ("deck", 0, NUM_MUSHLING_KINDS - 1),
    ("deck_n", 0, NUM_MUSHLING_CARDS),
    ("discard", 0, NUM_MUSHLING_CARDS),
    ("limbo", 0, NUM_MUSHLING_CARDS),
    ("carea", 0, NUM_MUSHLING_CARDS),
    ("ndeck", 0, MAX_NUTRIENT_KINDS - 1),
    ("ndeck_n", 0, NUM_NUTRIENT_CARDS),
    ("ndiscard", 0, NUM_NUTRIENT_CARDS),
    ("deck_top", 0, NUM_MUSHLING_CARDS),
    ("deck_top_n", 0, NUM_MUSHLING_CARDS),
    ("ndeck_top", 0, NUM_NUTRIENT_CARDS),
    ("ndeck_top_n", 0, NUM_NUTRIENT_CARDS),
    ("nseen", 0, 1),
    ("mat_spores", 0, SPORE_TOKENS),
    ("mat_nut", 0, NUTRIENT_TOKENS),
    ("ctok", 0, COMBAT_TOKENS),
    ("loc_spores", 0, SPORE_TOKENS),
    ("loc_nut", 0, NUTRIENT_TOKENS),
    ("gatherer", -1, MAX_GATHER_LOCS - 1),
    ("c_active", 0, 1),
    ("c_att", -1, MAXP - 1),
    ("c_def", -1, MAXP - 1),
    ("c_edge", -1, MAX_EDGES - 1),
    ("c_card", -1, NUM_MUSHLING_KINDS - 1),
    ("c_repl", -1, NUM_MUSHLING_KINDS - 1),
    ("c_bonus", 0, _BIG),
    ("c_nothief", 0, 1),
    ("c_defended", 0, 1),
    ("c_revealed", 0, 1),
    ("c_stage", 0, NUM_CS - 1),
    ("c_sub", 0, 2),
    ("c_passes", 0, _BIG),
    ("c_next", 0, MAXP - 1),
    ("c_winner", -1, 1),
    ("agent_of", 0, MAXP - 1),
    ("trade_used", 0, 1),
    ("trade_offers", 0, 2 ** (NUM_MUSHLING_KINDS + 1) - 1),
    ("gather_take", -1, MAX_GATHER_TAKE),  # variant: team
    # decision entries: kind, player, 5 args (each kind's own ranges: the validate kernel)
    ("decisions", 0, np.array([NUM_D - 1, MAXP - 1, MAX_EDGES - 1, MAX_EDGES - 1, MAX_EDGES - 1, MAX_EDGES - 1, 1])),
):
    STATE.bound(_name, _low, _high)
for _name, _low, _high in (  # variant: emsporium, hero_tavern, legends
    ("items", 0, 2),
    ("shop", -1, NUM_ITEM_TYPES - 1),
    ("item_deck", 0, NUM_ITEM_TYPES - 1),
    ("item_deck_n", 0, NUM_ITEM_CARDS),
    ("heroes", 0, 1),
    ("hero_up", -1, NUM_HEROES - 1),
    ("hero_deck", 0, NUM_HEROES - 1),
    ("hero_deck_n", 0, NUM_HEROES),
    ("legend_deal", -1, NUM_HEROES - 1),
):
    STATE.bound(_name, _low, _high)
STATE.bound("gatherer", -1, TAVERN)  # variant: hero_tavern (the Tavern is location G)
STATE.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from STATE by `mushgym generate`)  # isort: skip
    NO_DECISION, agent_of_at, c_bonus_at, c_card_at, c_nothief_at, c_repl_at, carea_at, clear_decisions,
    ctok_at, decision_at, decision_depth, deck_at, deck_top_at, discard_at, gather_take_at, gatherer_at,
    hand_at, hero_deck_at, hero_up_at, heroes_at, item_deck_at, items_at, known_at, legend_deal_at, limbo_at,
    loc_nut_at, loc_spores_at, mat_nut_at, mat_spores_at, ndeck_at, ndeck_top_at, ndiscard_at, npaths_at,
    nseen_at, paths_at, pop_decision, push_decision, replace_top, rng_at, set_decision_at, set_top_arg,
    set_top_kind, shop_at, top_arg, top_arg_slot, top_entry, top_kind, top_player,
)
# fmt: on
DECISION_KINDS.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from DECISION_KINDS by `mushgym generate`)  # isort: skip
    ARRANGE_POSITION, ARRANGE_VIEWED, BIRDS_NEST_AGAIN, BUY_PAID, BUY_SPENT, EXCHANGE_CHOICE_FIRST,
    EXCHANGE_CHOICE_OPTION, EXCHANGE_CHOICE_TYPE, FLY_AGARIC_LEVEL, GATHER_LOCATION, GATHER_SUBSET,
    HERO_PICK_LEFT, INKY_GIVE_EDGE, INKY_GIVE_GIVEN, INKY_GIVE_RECEIVER, PATH_WINDOW_BUILDER,
    PATH_WINDOW_EDGE, PAY_PAID, PLACE_PATH_LEFT, REMOVE_OWN_EDGE, RESOLVE_ABILITY, RESOLVE_CANCELLED,
    RESOLVE_X1, RESOLVE_X2, RESOLVE_X3, RUSSULA_PICK_FIRST, RUSSULA_PICK_MADE, RUSSULA_PICK_SECOND,
    TRADE_OFFERED, TRADE_RETURNED, USE_ABILITY, USE_SIDE, decision_arg, set_decision_arg,
)
# fmt: on

# the work area (scratch of the kernels): a walk over the edges (mushgym.core.graph.bfs_walk) uses three
# tables of E slots: its marks (then: 1 where reached), its queue, the edges it may enter
W_MARKS = 0
W_QUEUE = MAX_EDGES
W_ALLOWED = 2 * MAX_EDGES
WORK_SIZE = 3 * MAX_EDGES + 8

ABILITY_ARGS = np.array(
    [
        [ARG_TYPE, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
        [1, 0, 0],  # Deceiver .. Liberty Cap
        [7, 0, 0],
        [ARG_PLAYER, 0, 0],
        [ARG_EDGE, 1, 0],
        [ARG_PLACE, ARG_PLACE, ARG_PLACE],  # Bird's Nest .. Russula
        [0, 0, 0],
        [ARG_LEVEL, 0, 0],
        [ARG_PLAYER, ARG_EDGE, 0],
        [ARG_PLAYER, ARG_EDGE, 0],  # Veiled .. Penny Bun
        [ARG_TYPE, 1, 0],
        [ARG_TYPE, ARG_TYPE, 0],
        [ARG_TYPE, ARG_EDGE, 0],
        [ARG_TYPE, ARG_GLOC, 0],  # Reinf .. spawn
        [0, 0, 0],
        [1, 0, 0],
        [1, 0, 0],
        [ARG_TYPE, ARG_TYPE, ARG_GLOC],
        [1, 0, 0],  # Magic .. Thief steal
    ],
    dtype=np.int64,
)
REACTION_ABILITIES = (AB_AD_REACT, AB_CHICKEN_DEF, AB_CHICKEN_ATT, AB_PUFF, AB_LIBERTY, AB_THIEF_STEAL)
# the card(s) each ability's use put in limbo: a type, or the ability's x1 (a reinforcement,
# a single Builder, a Worker), or x1 and x2 (a pair), or none (a revealed card's reaction)
CARD_X1 = -1
CARD_PAIR = -2
NO_CARD = -3
ABILITY_CARD = np.array(
    [
        DECEIVER,
        NO_CARD,
        NO_CARD,
        NO_CARD,
        NO_CARD,
        NO_CARD,
        BIRDS,
        PARROT,
        PARROT,
        RUSSULA,
        VEILED,
        FLY,
        INKY,
        PENNY,
        CARD_X1,
        CARD_PAIR,
        CARD_X1,
        CARD_X1,
        MAGIC,
        TRUFFLE,
        WITCH,
        CARD_PAIR,
        NO_CARD,
    ],
    dtype=np.int64,
)

# --- actions -----------------------------------------------------------------------------
ACTION_SPACE = ActionSpace()
A_END = ACTION_SPACE.add("end_actions", doc="end the Action Phase (Gather, then Place)")
A_BUILD = ACTION_SPACE.add("build", doc="Build a Path: pay, then place the Paths one at a time")
A_EXCHANGE = ACTION_SPACE.add(
    "exchange",
    (NUM_CARD_TYPES, 1 + MAXP),
    dims=("type", "option"),
    doc="discard 2 cards of a Mushling Card Type (0 builder, 1 thief, 2 enforcer, 3 warrior, "
    "4 reinforcement, 5 wizard, 6 scout, 7 worker): option 0 draw a card, 1 + c spawn a "
    "spore in seat c's Spore Cave; the 2 cards are named next when there is a choice (`card`)",
)
A_ATTACK = ACTION_SPACE.add(
    "attack", (MAX_EDGES, 2), dims=("edge", "slot"), doc="attack the Path in this slot of this edge"
)
A_DECEIVE = ACTION_SPACE.add(
    "deceive",
    NUM_MUSHLING_KINDS,
    dims=("kind",),
    doc="Amethyst Deceiver: exchange it for a card of this kind from the discard pile",
)
A_PVIEW = ACTION_SPACE.add(
    "parrot_view",
    MAXP - 1,
    dims=("offset",),
    doc="Parrot Toadstool: view the hand of the player offset + 1 seats after you",
)
A_PATTACK = ACTION_SPACE.add(
    "parrot_attack", (MAX_EDGES, 2), dims=("edge", "slot"), doc="Parrot Toadstool: attack any Path with another card"
)
A_RUSSULA = ACTION_SPACE.add("russula", doc="Russula: place/replace your 3 gatherers (3 choices follow)")
A_VEILED = ACTION_SPACE.add("veiled_lady", doc="Veiled Lady: view the top Nutrient Cards")
A_BPAIR = ACTION_SPACE.add(
    "builder_pair",
    3,
    dims=("pair",),
    doc="two Builders (0 Chanterelle x2, 1 Chanterelle + Wood Blewit, 2 Wood Blewit x2): 2 free Paths",
)
A_BREMOVE = ACTION_SPACE.add(
    "builder_remove",
    (2, MAX_EDGES),
    dims=("builder", "edge"),
    doc="a Builder (0 Chanterelle, 1 Wood Blewit): remove your Path, gain a spore",
)
A_SPAWN = ACTION_SPACE.add(
    "spawn",
    (2, MAXP),
    dims=("worker", "cave"),
    doc="Night Light (0, 2 spores) / Yellow Morel (1, 1 spore) into seat c's Spore Cave",
)
A_MAGIC = ACTION_SPACE.add("magic", doc="Magic Mushling: view and rearrange the top Nutrient Cards")
A_TRUFFLE = ACTION_SPACE.add(
    "truffle", 2, dims=("deck",), doc="Truffle: shuffle deck + discard (0 mushling, 1 nutrient)"
)
A_WITCH = ACTION_SPACE.add(
    "witch", 2, dims=("deck",), doc="Witch's Hat: shuffle the discard onto the deck (0 mushling, 1 nutrient)"
)
A_TPAIR = ACTION_SPACE.add(
    "thief_pair",
    (3, MAXP),
    dims=("pair", "cave"),
    doc="two Thieves (0 Parasol x2, 1 Parasol + Shiitake, 2 Shiitake x2): 1 spore from seat c's cave",
)
A_PAY_TOKEN = ACTION_SPACE.add("pay_token", doc="Build: pay a Spore Token (3)")
A_PAY_CARD = ACTION_SPACE.add(
    "pay_card", NUM_MUSHLING_KINDS, dims=("kind",), doc="Build: pay a card for its spore value"
)
A_PAY_DONE = ACTION_SPACE.add("pay_done", doc="Build: stop paying; place floor(paid / 3) Paths")
A_PLACE_PATH = ACTION_SPACE.add("place_path", MAX_EDGES, dims=("edge",), doc="place a Path on this edge")
A_REMOVE_OWN = ACTION_SPACE.add(
    "remove_own", MAX_EDGES, dims=("edge",), doc="remove your Path on this edge (the 21st Path rule)"
)
A_CARD = ACTION_SPACE.add(
    "card",
    NUM_MUSHLING_KINDS,
    dims=("kind",),
    doc="choose a card of this kind: face-down attack/defence, a card given to an Inky Cap, a card of an Exchange, a discard",  # noqa: E501 (a literal that reads best on one line)
)
A_NO_DEFENSE = ACTION_SPACE.add("no_defense", doc="defender: play no card (the Path is removed)")
A_PASS = ACTION_SPACE.add("pass", doc="pass a reaction window / decline a reaction / refuse an Inky Cap")
A_FLY = ACTION_SPACE.add("fly_agaric", doc="Fly Agaric: cancel the ability in question")
A_PENNY = ACTION_SPACE.add("penny_bun", doc="Penny Bun: remove the Path just built")
A_INKY = ACTION_SPACE.add("inky_cap", doc="Inky Cap: the builder gives you 2 cards or loses the Path")
A_REINF = ACTION_SPACE.add(
    "reinforce",
    (2, 2),
    dims=("oyster", "side"),
    doc="Blue (0, +2) / Pink (1, +3) Oyster for the attacker (0) or defender (1)",
)
A_CTOK = ACTION_SPACE.add(
    "combat_token", 2, dims=("side",), doc="spend a combat token: +1 to the attacker (0) or defender (1)"
)
A_BIRDS = ACTION_SPACE.add(
    "birds_nest", 7, dims=("subset",), doc="Bird's Nest: gather with the gatherers in bit mask subset + 1"
)
A_USE = ACTION_SPACE.add("use", doc="use the reaction in question (a revealed card's, Amethyst Deceiver's)")
A_GATHERER = ACTION_SPACE.add(
    "place_gatherer", MAX_GATHER_LOCS, dims=("gloc",), doc="place a gatherer on this location"
)
A_ARRANGE = ACTION_SPACE.add(
    "arrange", 4, dims=("pos",), doc="Magic Mushling: the viewed card at this position goes next from the top"
)
NUM_ACTIONS_BASE = ACTION_SPACE.size  # the base game's action space (the variants' groups follow)
# variant: emsporium (appended: the base game's ids do not move)
A_BUY = ACTION_SPACE.add(
    "buy", doc="Emsporium: Buy items (pay with pay_token / pay_card, then buy_item, then pay_done)"
)
A_BUY_ITEM = ACTION_SPACE.add(
    "buy_item", SHOP, dims=("slot",), doc="Emsporium: buy the item in this shop slot with the value paid"
)
# variant: hero_tavern / legends (appended)
A_PLACE_TAVERN = ACTION_SPACE.add("place_tavern", doc="Hero Tavern: place a gatherer on the Hero Tavern")
A_HERO = ACTION_SPACE.add(
    "hero", (NUM_HEROES, 2), dims=("hero", "ability"), doc="Hero Tavern: use ability a (0) or b (1) of a hero you hold"
)
A_HERO_PICK = ACTION_SPACE.add(
    "hero_pick",
    HERO_UP + 1,
    dims=("choice",),
    doc="Hero Tavern: recruit face-up hero 0 / 1, or (2) the top of the hero deck",
)
A_LEGEND = ACTION_SPACE.add("legend_keep", 2, dims=("k",), doc="Legends: keep dealt hero k (the other goes back)")
NUM_ACTIONS_ITEMS = ACTION_SPACE.size  # the action space with the items' groups
# variant: team (appended after the items' groups)
A_TRADE = ACTION_SPACE.add(
    "trade",
    NUM_MUSHLING_KINDS + 1,
    dims=("kind",),
    doc="Team: offer (turn player, once per turn) or give back (teammate) a card of this kind; 23 = a Spore Token",
)
A_GATHER_TAKE = ACTION_SPACE.add(
    "gather_take",
    MAX_GATHER_TAKE + 1,
    dims=("n",),
    doc="Team: take this many tokens from the location in question (optional gathering; above 3 only with Backpacks)",
)
NUM_ACTIONS = ACTION_SPACE.size
ACTION_SPACE.generated(globals())
# fmt: off
from .generated.layout import (  # noqa: E402,F401  (generated from ACTION_SPACE by `mushgym generate`)  # isort: skip
    arrange_action, arrange_args, attack_action, attack_args, birds_nest_action, birds_nest_args,
    builder_pair_action, builder_pair_args, builder_remove_action, builder_remove_args, buy_item_action,
    buy_item_args, card_action, card_args, combat_token_action, combat_token_args, deceive_action,
    deceive_args, exchange_action, exchange_args, gather_take_action, gather_take_args, hero_action,
    hero_args, hero_pick_action, hero_pick_args, legend_keep_action, legend_keep_args, parrot_attack_action,
    parrot_attack_args, parrot_view_action, parrot_view_args, pay_card_action, pay_card_args,
    place_gatherer_action, place_gatherer_args, place_path_action, place_path_args, reinforce_action,
    reinforce_args, remove_own_action, remove_own_args, spawn_action, spawn_args, thief_pair_action,
    thief_pair_args, trade_action, trade_args, truffle_action, truffle_args, witch_action, witch_args,
)
# fmt: on
