"""Mycelium kernels: one int64 state array, the decision stack, numba-compiled rules.

The turn player acts when the decision stack is empty (phase: Explore placement, Action
menu, Place, Draw-phase discard). Everything else is a stack entry ``(kind, player, args)``:
sub-decisions (paying, placing Paths, the face-down combat cards, giving cards to an Inky
Cap, Russula's placements, Magic Mushling's order, ``mycelium_v1``'s choice of an Exchange's
cards) and reaction windows (Fly Agaric after
any ability, Penny Bun / Inky Cap after a Path, reinforcements and combat tokens after a
reveal, Bird's Nest in a Nutrient Card Phase, the revealed cards' reactions). Two entry
kinds are not decisions but bookkeeping that :func:`advance` processes as soon as they
reach the top: ``D_RESOLVE`` (an ability in flight, with its arguments and a cancelled flag:
the Fly Agaric window sits above it) and ``D_COMBAT`` (the combat in progress; its stage is
in the ``combat`` fields).

See RULES.md for the rules as implemented and every choice made where the rulebook is silent.
"""

import numpy as np
from numba import njit

from mushgym.core import RNG_WORDS, ActionSpace, Layout, install_batch_kernels, rng_below, rng_seed, shuffle_range

from .data import MAX_EDGES, MAX_GATHER_LOCS, MAX_NUTRIENT_KINDS, NUM_MUSHLING_CARDS, NUM_NUTRIENT_CARDS
from .variant_data import NUM_HEROES, NUM_ITEM_CARDS, NUM_ITEM_TYPES, SHOP_SIZE   # variant: emsporium, hero_tavern

# --- sizes and fixed numbers of the rulebook ----------------------------------------------------
MAXP = 4
E = MAX_EDGES
G = MAX_GATHER_LOCS
T = 23                      # mushling cards (kinds: the Field Guide's 23 entries)
NUM_CARD_TYPES = 8          # Mushling Card Types (Builder, Thief, ...: data.MUSHLING_TYPES)
NC = NUM_MUSHLING_CARDS     # 54
NN = NUM_NUTRIENT_CARDS     # 17
NK = MAX_NUTRIENT_KINDS
HAND_LIMIT = 7
MAX_PATHS = 20
SPORE_TOKENS = 50
NUTRIENT_TOKENS = 45
COMBAT_TOKENS = 16
WIN_NUTRIENTS = 10
DONE_RULES, DONE_LIMIT = 1, 2   # values of state[DONE] once the game is over
MAX_ACTIONS_PER_TURN = 30   # designed cap (RULES.md): keeps every game finite
MAX_PAID = 30               # spore value one Build action may pay (10 Paths)
# variant: emsporium / hero_tavern
NI = NUM_ITEM_TYPES         # 8 item types
NIC = NUM_ITEM_CARDS        # 16 item cards
SHOP = SHOP_SIZE            # 5 face up
NH = NUM_HEROES             # 8 unique heroes
HERO_UP = 2                 # face-up heroes at the Tavern
TAVERN = MAX_GATHER_LOCS    # the gatherer location value of the Hero Tavern (not a gather location of the base game)
# variant: team
MAX_GATHER_TAKE = 6         # the most one location gives a gatherer party: its bonded Paths (3 gatherers, 6 with Backpacks)
# the variants' validate codes, after validate.py's 27 (here: emsporium.py, tavern.py and
# validate.py import them; validate.VALIDATION_ERRORS names them)
V_ITEMS = 28
V_HEROES = 29
V_TEAM = 30

# mushling types (data.MUSHLING_NAMES order)
AD, CHICKEN, PUFF, DEATH, LIBERTY, BIRDS, PARROT, RUSSULA, VEILED, FLY, INKY, PENNY = range(12)
BLUE_OY, PINK_OY, CHANT, BLEWIT, NIGHT, MOREL, MAGIC, TRUFFLE, WITCH, PARASOL, SHIITAKE = range(12, 23)

# phases (the turn player's decision when the stack is empty)
PH_EXPLORE, PH_NUTRIENT, PH_ACTION, PH_PLACE, PH_DISCARD, PH_OVER = range(6)
NUM_PHASES = 6

# decision kinds
(D_RESOLVE, D_COMBAT, D_FA, D_PATHWIN, D_REINF, D_BN, D_USE, D_PAY, D_PLACE_PATH, D_REMOVE_OWN,
 D_ATT_CARD, D_DEFEND, D_INKY_GIVE, D_RUSSULA_PICK, D_ARRANGE) = range(15)
NUM_D_BASE = 15
# variant kinds, appended: emsporium (buy: pay, then pick items), hero_tavern (pick a hero),
# legends (keep 1 of the 2 heroes dealt)
D_BUY, D_HERO_PICK, D_LEGEND = range(15, 18)
NUM_D_ITEMS = 18
# variant: team: the teammate answers a Trade offer; the gathering player chooses what it takes
D_TRADE, D_GATHER = 18, 19
# mycelium_v1 (exchange.py): the Exchange's choice of the two cards of one Mushling Card Type
D_EXCHANGE = 20
NUM_D = 21

# abilities (an entry D_RESOLVE holds: ability, x1, x2, x3, cancelled)
(AB_DECEIVE, AB_AD_REACT, AB_CHICKEN_DEF, AB_CHICKEN_ATT, AB_PUFF, AB_LIBERTY, AB_BIRDS, AB_PARROT_VIEW,
 AB_PARROT_ATT, AB_RUSSULA, AB_VEILED, AB_FLY, AB_INKY, AB_PENNY, AB_REINF, AB_BUILD_PAIR, AB_BUILD_REMOVE,
 AB_SPAWN, AB_MAGIC, AB_TRUFFLE, AB_WITCH, AB_THIEF_PAIR, AB_THIEF_STEAL) = range(23)
NUM_AB = 23

# combat stages
CS_REVEAL, CS_AD, CS_REINF, CS_COMPARE, CS_PUFF, CS_REACT_A, CS_REACT_D, CS_END = range(8)
NUM_CS = 8

# gather-location kinds (data.LK_*)
LK_CAVE, LK_TREE, LK_CENTER, LK_MUSH = 0, 1, 2, 3
# nutrient effects (data.NUTRIENT_EFFECTS)
NE_TREE, NE_CENTER, NE_SPORES, NE_RAIN = 0, 1, 2, 3

# --- the config array: options and data tables -------------------------------------------------
C = Layout("config")
CFG_NP = C.field("num_players")
CFG_HOLDERS = C.field("holders", doc="1: reaction prompts only to holders of a matching card")
CFG_TURN_LIMIT = C.field("turn_limit")
CFG_LIMIT_SCORED = C.field("turn_limit_scored", doc="1: the turn limit ends the game scored by Nutrients; 0: a truncation")
CFG_NE = C.field("n_edges")
CFG_NG = C.field("n_glocs")
CFG_NNUT = C.field("n_nutrient_cards")
CFG_WILLOW = C.field("willow")
CFG_MUSH = C.field("mush_room")
CFG_EDGE_NBR = C.field("edge_nbr", (E, 4), dims=("edge", "k"))
CFG_EDGE_GLOC = C.field("edge_gloc", (E, 2), dims=("edge", "side"))
CFG_PERM = C.field("permanent", E, dims=("edge",))
CFG_GLOC_EDGES = C.field("gloc_edges", (G, 6), dims=("gloc", "k"))
CFG_GLOC_KIND = C.field("gloc_kind", G, dims=("gloc",))
CFG_CAVE = C.field("cave", MAXP, dims=("seat",), doc="gather location of each seat's Spore Cave")
CFG_TREE = C.field("tree", 4, dims=("tree",), doc="gather location of Oak, Birch, Pine, Walnut (-1 absent)")
CFG_COMBAT = C.field("combat", T, dims=("kind",))
CFG_SPORE = C.field("spore", T, dims=("kind",))
CFG_COPIES = C.field("copies", T, dims=("kind",))
CFG_DECK = C.field("deck", NC, dims=("card",))
CFG_NUT_DECK = C.field("nut_deck", NN, dims=("card",), doc="nutrient kinds of the cards in play")
CFG_NUT_EFFECT = C.field("nut_effect", NK, dims=("nkind",))
CFG_NUT_TARGET = C.field("nut_target", NK, dims=("nkind",), doc="gather location of a tree card (-1)")
# variant: emsporium / hero_tavern / legends
CFG_EMS = C.field("emsporium", doc="1: the Emsporium variant")
CFG_ITEM_COST = C.field("item_cost", NI, dims=("item",), doc="spore value of each item type (items.toml)")
CFG_TAVERN = C.field("hero_tavern", doc="1: the Hero Tavern variant")
CFG_LEGENDS = C.field("legends", doc="1: the Legends variant (implies the Tavern)")
CFG_HERO_EFFECT = C.field("hero_effect", (NH, 2), dims=("hero", "k"), doc="effect of each hero ability (heroes.toml)")
CFG_HERO_AMOUNT = C.field("hero_amount", (NH, 2), dims=("hero", "k"), doc="amount of each hero ability")
# variant: team (and the 2-player game, which plays the Team rules with two seats per agent)
CFG_TEAM = C.field("team", doc="1: the Team rules (Blue+Red vs Green+Beige; Trade; 10 per Colony, 15 per team wins)")
CFG_AGENTS = C.field("agents", doc="agents (PettingZoo players): the seats, or 2 in the 2-player game")
# mycelium_v1: the Exchange by Mushling Card Type (exchange.py; 0 in mycelium_v0: by card)
CFG_BY_TYPE = C.field("exchange_by_type", doc="1: the Exchange takes 2 cards of one Mushling Card Type (mycelium_v1)")
CFG_XOBS = C.field("exchange_obs", doc="mycelium_v1: offset of the Exchange block in the observation (after v0's fields)")
CFG_CARD_TYPE = C.field("card_type", T, dims=("kind",), doc="Mushling Card Type of each card (data.MUSHLING_TYPES order)")
CFG_SIZE = C.size
C.install(globals(), prefix="cfg_")

# --- the state -------------------------------------------------------------------------------
L = Layout("state")
RNG = L.field("rng", RNG_WORDS, doc="the game's random generator (xoshiro128**)")
TURN = L.field("turn", doc="turns completed (the Explore Phase is not a turn)")
TP = L.field("turn_player", doc="seat whose turn it is (the explorer in the Explore Phase)")
FIRST = L.field("first_player", doc="seat that played the first turn")
PHASE = L.field("phase", doc="PH_* of the turn")
PLACED = L.field("placed", doc="gatherers placed so far in this Explore/Place Phase")
ACTIONS = L.field("actions_used", doc="Action Phase actions taken this turn")
DONE = L.field("done", doc="0 running, 1 ended by the rules (10 Nutrients), 2 cut by the turn limit")
WINNER = L.field("winner", doc="winning seat, -1 none")
BN_PLAYED = L.field("bn_played", doc="bit per seat: played a Bird's Nest in this Nutrient Card Phase")
BN_TRIGGER = L.field("bn_trigger", doc="bit per gather location: a Nutrient was placed on this tree this phase")
LAST_EDGE = L.field("last_edge", doc="edge of the last Path built or removed (-1)")
LAST_HAND = L.field("last_hand", doc="hand size of the last player to finish a Draw Phase, at that moment")
PATHS = L.field("paths", (E, 2), dims=("edge", "slot"), doc="owner + 1 of each of the 2 Paths an edge holds (0 empty)")
NPATHS = L.field("npaths", MAXP, dims=("player",), doc="Paths built and in play (the 6 permanent ones not counted)")
HAND = L.field("hand", (MAXP, T), dims=("player", "kind"), doc="mushling cards in hand per type")
KNOWN = L.field("known", (MAXP, MAXP, T), dims=("viewer", "holder", "kind"),
                doc="cards the viewer knows the holder still has (a lower bound kept true)")
DECK = L.field("deck", NC, dims=("pos",), doc="mushling deck, bottom first")
DECK_N = L.field("deck_n", doc="cards in the mushling deck")
DISCARD = L.field("discard", T, dims=("kind",), doc="mushling discard pile per type (public)")
LIMBO = L.field("limbo", T, dims=("kind",), doc="cards of abilities in flight (public)")
CAREA = L.field("carea", T, dims=("kind",), doc="reinforcements played in the current combat (public)")
NDECK = L.field("ndeck", NN, dims=("pos",), doc="nutrient deck (kinds), bottom first")
NDECK_N = L.field("ndeck_n", doc="cards in the nutrient deck")
NDISCARD = L.field("ndiscard", NK, dims=("nkind",), doc="nutrient discard pile per kind (public)")
DECK_TOP = L.field("deck_top", T, dims=("kind",),
                   doc="public: the cards a Witch's Hat put on top of the mushling deck, less those seen drawn; "
                       "the top deck_top_n cards are among them")
DECK_TOP_N = L.field("deck_top_n", doc="cards still on top of the mushling deck from a Witch's Hat's shuffle")
NDECK_TOP = L.field("ndeck_top", NK, dims=("nkind",),
                    doc="public: the nutrient cards a Witch's Hat put on top of the nutrient deck that are still there")
NDECK_TOP_N = L.field("ndeck_top_n", doc="how many: the top ndeck_top_n nutrient cards are exactly ndeck_top")
NSEEN = L.field("nseen", (MAXP, NN), dims=("player", "pos"), doc="1: the player knows the nutrient card at pos")
MAT_SPORES = L.field("mat_spores", MAXP, dims=("player",), doc="Spore Tokens on each player's mat")
MAT_NUT = L.field("mat_nut", MAXP, dims=("player",), doc="Nutrient Tokens on each player's mat (10 wins)")
CTOK = L.field("ctok", MAXP, dims=("player",), doc="combat tokens")
LOC_SPORES = L.field("loc_spores", G, dims=("gloc",), doc="Spore Tokens on each gather location")
LOC_NUT = L.field("loc_nut", G, dims=("gloc",), doc="Nutrient Tokens on each gather location")
GATH = L.field("gatherer", (MAXP, 3), dims=("player", "g"), doc="gather location of each gatherer, -1 at the Colony")
C_ACTIVE = L.field("c_active", doc="a combat is in progress")
C_ATT = L.field("c_att", doc="combat: the attacker (-1 none)")
C_DEF = L.field("c_def", doc="combat: the defender, owner of the attacked Path (-1 none)")
C_EDGE = L.field("c_edge", doc="combat: the attacked Path's edge (-1 none)")
C_CARD = L.field("c_card", 2, dims=("side",), doc="face-down card of attacker (0) and defender (1), -1 none")
C_REPL = L.field("c_repl", 2, dims=("side",), doc="card drawn by an Amethyst Deceiver in its place, -1 none")
C_BONUS = L.field("c_bonus", 2, dims=("side",), doc="reinforcements and combat tokens added to each side")
C_NOTHIEF = L.field("c_nothief", 2, dims=("side",), doc="this side's Thief ability is cancelled by a Common Puffball")
C_DEFENDED = L.field("c_defended", doc="the defender played a face-down card")
C_REVEALED = L.field("c_revealed", doc="the face-down cards are revealed")
C_STAGE = L.field("c_stage", doc="CS_* step of the combat")
C_SUB = L.field("c_sub", doc="side (or sub-step) within the stage")
C_PASSES = L.field("c_passes", doc="reinforcement round: players who passed in a row")
C_NEXT = L.field("c_next", doc="reinforcement round: the next player asked")
C_WINNER = L.field("c_winner", doc="0 attacker, 1 defender, -1 undecided")
STACK = L.decision_stack(depth=48, args=5)
CANCEL_COL = 6   # arg 4 of a D_RESOLVE entry: cancelled by a Fly Agaric
# variant: emsporium (after the base game's fields, so their offsets stay)
ITEMS = L.field("items", (MAXP, NI), dims=("player", "item"), doc="Emsporium items each player owns, per type (public)")
SHOP_SLOTS = L.field("shop", SHOP, dims=("slot",), doc="item type face up in each shop slot, -1 empty (refilled at the end of the turn)")
IDECK = L.field("item_deck", NIC, dims=("pos",), doc="Emsporium item deck (types), bottom first (order hidden)")
IDECK_N = L.field("item_deck_n", doc="cards in the item deck")
# variant: hero_tavern / legends
HEROES = L.field("heroes", (MAXP, NH), dims=("player", "hero"), doc="1: the player holds this hero (public)")
HERO_UP_SLOTS = L.field("hero_up", HERO_UP, dims=("slot",), doc="hero face up at the Tavern in each slot, -1 none")
HDECK = L.field("hero_deck", NH, dims=("pos",), doc="hero deck, bottom first (order hidden)")
HDECK_N = L.field("hero_deck_n", doc="cards in the hero deck")
LEGEND_DEAL = L.field("legend_deal", (MAXP, 2), dims=("player", "k"), doc="Legends: the 2 heroes dealt to each player, -1 once kept")
# variant: team (fields after the base game's and the items', so their offsets stay where they are)
AGENT_OF = L.field("agent_of", MAXP, dims=("seat",),
                   doc="agent acting for each seat: the seat itself, or seat % 2 in the 2-player game")
TRADE_USED = L.field("trade_used", doc="team: the turn player has made its Trade offer this turn")
GATHER_TAKE = L.field("gather_take", G, dims=("gloc",),
                      doc="team: tokens the gathering player chose to take from each location (-1 not asked)")
STATE_SIZE = L.size

# Bounds of every slot, checked by Game.validate on each state coming from Python (one pass);
# the ``validate`` kernel below then checks what depends on the options and on other slots
# (players, edges and locations in play, the cards conserved, each decision's arguments), so
# that within them no kernel indexes out of range.
_BIG = 2**31
for _name, _low, _high in (
    ("rng", 0, 2**32 - 1), ("turn", 0, 240), ("turn_player", 0, MAXP - 1), ("first_player", 0, MAXP - 1),
    ("phase", 0, NUM_PHASES - 1), ("placed", 0, 2), ("actions_used", 0, MAX_ACTIONS_PER_TURN),
    ("done", 0, DONE_LIMIT), ("winner", -1, MAXP - 1), ("bn_played", 0, 2**MAXP - 1), ("bn_trigger", 0, 2**G - 1),
    ("last_edge", -1, E - 1), ("last_hand", 0, NC), ("paths", 0, MAXP), ("npaths", 0, MAX_PATHS + 1),
    ("hand", 0, NC), ("known", 0, NC), ("deck", 0, T - 1), ("deck_n", 0, NC), ("discard", 0, NC),
    ("limbo", 0, NC), ("carea", 0, NC), ("ndeck", 0, NK - 1), ("ndeck_n", 0, NN), ("ndiscard", 0, NN),
    ("deck_top", 0, NC), ("deck_top_n", 0, NC), ("ndeck_top", 0, NN), ("ndeck_top_n", 0, NN),
    ("nseen", 0, 1), ("mat_spores", 0, SPORE_TOKENS), ("mat_nut", 0, NUTRIENT_TOKENS), ("ctok", 0, COMBAT_TOKENS),
    ("loc_spores", 0, SPORE_TOKENS), ("loc_nut", 0, NUTRIENT_TOKENS), ("gatherer", -1, G - 1),
    ("c_active", 0, 1), ("c_att", -1, MAXP - 1), ("c_def", -1, MAXP - 1), ("c_edge", -1, E - 1),
    ("c_card", -1, T - 1), ("c_repl", -1, T - 1), ("c_bonus", 0, _BIG), ("c_nothief", 0, 1), ("c_defended", 0, 1),
    ("c_revealed", 0, 1), ("c_stage", 0, NUM_CS - 1), ("c_sub", 0, 2), ("c_passes", 0, _BIG),
    ("c_next", 0, MAXP - 1), ("c_winner", -1, 1),
    ("agent_of", 0, MAXP - 1), ("trade_used", 0, 1), ("gather_take", -1, MAX_GATHER_TAKE),   # variant: team
    # decision entries: kind, player, 5 args (each kind's own ranges: the validate kernel)
    ("decisions", 0, np.array([NUM_D - 1, MAXP - 1, E - 1, E - 1, E - 1, E - 1, 1])),
):
    L.bound(_name, _low, _high)
for _name, _low, _high in (   # variant: emsporium, hero_tavern, legends
    ("items", 0, 2), ("shop", -1, NI - 1), ("item_deck", 0, NI - 1), ("item_deck_n", 0, NIC),
    ("heroes", 0, 1), ("hero_up", -1, NH - 1), ("hero_deck", 0, NH - 1), ("hero_deck_n", 0, NH),
    ("legend_deal", -1, NH - 1),
):
    L.bound(_name, _low, _high)
L.bound("gatherer", -1, TAVERN)   # variant: hero_tavern (the Tavern is location G)
L.install(globals())

WORK_SIZE = 2 * E + 8

# The arguments of each decision kind (columns 2..6 of an entry): a number is the largest
# value allowed (0 = unused), the codes below a range that depends on the game.
ARG_PLAYER, ARG_EDGE, ARG_GLOC, ARG_TYPE, ARG_LEVEL = -1, -2, -3, -4, -5
MAX_PAY_ARG = MAX_PAID + 9        # the last card paid may overshoot 30 (spore values are at most 9)
DECISION_ARGS = np.array([
    [NUM_AB - 1, 0, 0, 0, 1],                   # D_RESOLVE: ability, x1..x3 (ABILITY_ARGS), cancelled
    [0, 0, 0, 0, 0],                            # D_COMBAT
    [ARG_LEVEL, 0, 0, 0, 0],                    # D_FA: the level of the ability in question
    [ARG_PLAYER, ARG_EDGE, 0, 0, 0],            # D_PATHWIN: builder, edge
    [0, 0, 0, 0, 0],                            # D_REINF
    [1, 0, 0, 0, 0],                            # D_BN: asked again
    [NUM_AB - 1, 1, 0, 0, 0],                   # D_USE: ability, side
    [MAX_PAY_ARG, 0, 0, 0, 0],                  # D_PAY: paid
    [MAX_PAY_ARG // 3, 0, 0, 0, 0],             # D_PLACE_PATH: Paths left
    [ARG_EDGE, 0, 0, 0, 0],                     # D_REMOVE_OWN: the new Path's edge
    [0, 0, 0, 0, 0],                            # D_ATT_CARD
    [0, 0, 0, 0, 0],                            # D_DEFEND
    [ARG_PLAYER, ARG_EDGE, 1, 0, 0],            # D_INKY_GIVE: receiver, edge, given
    [2, ARG_GLOC, ARG_GLOC, 0, 0],              # D_RUSSULA_PICK: picks made, the first two
    [3, 4, 0, 0, 0],                            # D_ARRANGE: next position, cards viewed
    [MAX_PAY_ARG, MAX_PAY_ARG, 0, 0, 0],        # D_BUY: paid, spent (variant: emsporium)
    [3, 0, 0, 0, 0],                            # D_HERO_PICK: picks left (variant: hero_tavern)
    [0, 0, 0, 0, 0],                            # D_LEGEND (variant: legends)
    [T, 0, 0, 0, 0],                            # D_TRADE: the kind offered (T: a Spore Token) (variant: team)
    [7, ARG_GLOC, 0, 0, 0],                     # D_GATHER: gatherers' subset, next location to ask (variant: team)
    [NUM_CARD_TYPES - 1, MAXP, T, 0, 0],        # D_EXCHANGE: Mushling Card Type, option, first card + 1 (mycelium_v1)
], dtype=np.int64)
ABILITY_ARGS = np.array([
    [ARG_TYPE, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0],   # Deceiver .. Liberty Cap
    [7, 0, 0], [ARG_PLAYER, 0, 0], [ARG_EDGE, 1, 0], [ARG_GLOC, ARG_GLOC, ARG_GLOC],  # Bird's Nest .. Russula
    [0, 0, 0], [ARG_LEVEL, 0, 0], [ARG_PLAYER, ARG_EDGE, 0], [ARG_PLAYER, ARG_EDGE, 0],  # Veiled .. Penny Bun
    [ARG_TYPE, 1, 0], [ARG_TYPE, ARG_TYPE, 0], [ARG_TYPE, ARG_EDGE, 0], [ARG_TYPE, ARG_GLOC, 0],  # Reinf .. spawn
    [0, 0, 0], [1, 0, 0], [1, 0, 0], [ARG_TYPE, ARG_TYPE, ARG_GLOC], [1, 0, 0],   # Magic .. Thief steal
], dtype=np.int64)
REACTION_ABILITIES = (AB_AD_REACT, AB_CHICKEN_DEF, AB_CHICKEN_ATT, AB_PUFF, AB_LIBERTY, AB_THIEF_STEAL)

# --- actions -----------------------------------------------------------------------------
A = ActionSpace()
A_END = A.add("end_actions", doc="end the Action Phase (Gather, then Place)")
A_BUILD = A.add("build", doc="Build a Path: pay, then place the Paths one at a time")
A_EXCHANGE = A.add("exchange", (T, 1 + MAXP), dims=("kind", "option"),
                   doc="discard 2 cards of a type: option 0 draw a card, 1 + c spawn a spore in seat c's Spore Cave")
A_ATTACK = A.add("attack", (E, 2), dims=("edge", "slot"), doc="attack the Path in this slot of this edge")
A_DECEIVE = A.add("deceive", T, dims=("kind",), doc="Amethyst Deceiver: exchange it for a card of this type from the discard pile")
A_PVIEW = A.add("parrot_view", MAXP - 1, dims=("offset",), doc="Parrot Toadstool: view the hand of the player offset + 1 seats after you")
A_PATTACK = A.add("parrot_attack", (E, 2), dims=("edge", "slot"), doc="Parrot Toadstool: attack any Path with another card")
A_RUSSULA = A.add("russula", doc="Russula: place/replace your 3 gatherers (3 choices follow)")
A_VEILED = A.add("veiled_lady", doc="Veiled Lady: view the top Nutrient Cards")
A_BPAIR = A.add("builder_pair", 3, dims=("pair",), doc="two Builders (0 Chanterelle x2, 1 Chanterelle + Wood Blewit, 2 Wood Blewit x2): 2 free Paths")
A_BREMOVE = A.add("builder_remove", (2, E), dims=("builder", "edge"), doc="a Builder (0 Chanterelle, 1 Wood Blewit): remove your Path, gain a spore")
A_SPAWN = A.add("spawn", (2, MAXP), dims=("worker", "cave"), doc="Night Light (0, 2 spores) / Yellow Morel (1, 1 spore) into seat c's Spore Cave")
A_MAGIC = A.add("magic", doc="Magic Mushling: view and rearrange the top Nutrient Cards")
A_TRUFFLE = A.add("truffle", 2, dims=("deck",), doc="Truffle: shuffle deck + discard (0 mushling, 1 nutrient)")
A_WITCH = A.add("witch", 2, dims=("deck",), doc="Witch's Hat: shuffle the discard onto the deck (0 mushling, 1 nutrient)")
A_TPAIR = A.add("thief_pair", (3, MAXP), dims=("pair", "cave"), doc="two Thieves (0 Parasol x2, 1 Parasol + Shiitake, 2 Shiitake x2): 1 spore from seat c's cave")
A_PAY_TOKEN = A.add("pay_token", doc="Build: pay a Spore Token (3)")
A_PAY_CARD = A.add("pay_card", T, dims=("kind",), doc="Build: pay a card for its spore value")
A_PAY_DONE = A.add("pay_done", doc="Build: stop paying; place floor(paid / 3) Paths")
A_PLACE_PATH = A.add("place_path", E, dims=("edge",), doc="place a Path on this edge")
A_REMOVE_OWN = A.add("remove_own", E, dims=("edge",), doc="remove your Path on this edge (the 21st Path rule)")
A_CARD = A.add("card", T, dims=("kind",), doc="choose a card of this type: face-down attack/defence, a card given to an Inky Cap, a discard")
A_NO_DEFENSE = A.add("no_defense", doc="defender: play no card (the Path is removed)")
A_PASS = A.add("pass", doc="pass a reaction window / decline a reaction / refuse an Inky Cap")
A_FLY = A.add("fly_agaric", doc="Fly Agaric: cancel the ability in question")
A_PENNY = A.add("penny_bun", doc="Penny Bun: remove the Path just built")
A_INKY = A.add("inky_cap", doc="Inky Cap: the builder gives you 2 cards or loses the Path")
A_REINF = A.add("reinforce", (2, 2), dims=("oyster", "side"), doc="Blue (0, +2) / Pink (1, +3) Oyster for the attacker (0) or defender (1)")
A_CTOK = A.add("combat_token", 2, dims=("side",), doc="spend a combat token: +1 to the attacker (0) or defender (1)")
A_BIRDS = A.add("birds_nest", 7, dims=("subset",), doc="Bird's Nest: gather with the gatherers in bit mask subset + 1")
A_USE = A.add("use", doc="use the reaction in question (a revealed card's, Amethyst Deceiver's)")
A_GATHERER = A.add("place_gatherer", G, dims=("gloc",), doc="place a gatherer on this location")
A_ARRANGE = A.add("arrange", 4, dims=("pos",), doc="Magic Mushling: the viewed card at this position goes next from the top")
NUM_ACTIONS_BASE = A.size   # the base game's action space (the variants' groups follow)
# variant: emsporium (appended: the base game's ids do not move)
A_BUY = A.add("buy", doc="Emsporium: Buy items (pay with pay_token / pay_card, then buy_item, then pay_done)")
A_BUY_ITEM = A.add("buy_item", SHOP, dims=("slot",), doc="Emsporium: buy the item in this shop slot with the value paid")
# variant: hero_tavern / legends (appended)
A_PLACE_TAVERN = A.add("place_tavern", doc="Hero Tavern: place a gatherer on the Hero Tavern")
A_HERO = A.add("hero", (NH, 2), dims=("hero", "ability"), doc="Hero Tavern: use ability a (0) or b (1) of a hero you hold")
A_HERO_PICK = A.add("hero_pick", HERO_UP + 1, dims=("choice",), doc="Hero Tavern: recruit face-up hero 0 / 1, or (2) the top of the hero deck")
A_LEGEND = A.add("legend_keep", 2, dims=("k",), doc="Legends: keep dealt hero k (the other goes back)")
NUM_ACTIONS_ITEMS = A.size   # the action space with the items' groups
# variant: team (appended after the items' groups)
A_TRADE = A.add("trade", T + 1, dims=("kind",),
                doc="Team: offer (turn player, once per turn) or give back (teammate) a card of this kind; 23 = a Spore Token")
A_GATHER_TAKE = A.add("gather_take", MAX_GATHER_TAKE + 1, dims=("n",),
                      doc="Team: take this many tokens from the location in question (optional gathering; "
                          "above 3 only with Backpacks)")
NUM_ACTIONS = A.size
A.install(globals())

# --- observation ----------------------------------------------------------------------------
O = Layout("observation")
O_PHASE = O.field("phase", NUM_PHASES, doc="phase one-hot (explore, nutrient, action, place, discard, over)", low=0, high=1)
O_DKIND = O.field("decision", NUM_D_BASE, doc="kind of the pending decision on top of the stack, one-hot", low=0, high=1)
O_ACTOR = O.field("actor", MAXP, doc="player to act, by seat offset from the observer", low=0, high=1)
O_TURNP = O.field("turn_player", MAXP, doc="turn player, by seat offset", low=0, high=1)
O_FIRST = O.field("first_player", MAXP, doc="first player, by seat offset", low=0, high=1)
O_TURN = O.field("turn", doc="turns completed / turn limit", low=0, high=1)
O_ACTIONS = O.field("actions_used", doc="Action Phase actions this turn / cap", low=0, high=1)
O_AB = O.field("ability", NUM_AB, doc="the ability in question (Fly Agaric window, use prompt, ability in flight), one-hot", low=0, high=1)
O_AB_USER = O.field("ability_user", MAXP, doc="its user, by seat offset", low=0, high=1)
O_AB_SIDE = O.field("ability_side", 2, doc="combat side it concerns (attacker, defender)", low=0, high=1)
O_AB_KIND = O.field("ability_kind", T, doc="card type it names (Amethyst Deceiver's pick, reinforcement)", low=0, high=1)
O_AB_LOC = O.field("ability_locs", G, doc="locations it names (spawn or thief cave, Russula's 3 placements: counts)", low=0, high=3)
O_AB_TARGET = O.field("ability_target", MAXP, doc="player it names (Parrot view, path builder), by seat offset", low=0, high=1)
O_FOCUS_EDGE = O.field("focus_edge", E, doc="edge in question (new Path, attack target, Path to remove), one-hot", low=0, high=1)
O_PAY = O.field("pay", 2, doc="Build: spore value paid / 30, Paths left to place / 10", low=0, high=1)
O_C = O.field("combat", 8, doc="combat: active, defended, revealed, winner attacker, winner defender, bonus A / 20, bonus D / 20, I am a combatant", low=0, high=1)
O_C_WHO = O.field("combat_players", (2, MAXP), dims=("side", "offset"), doc="attacker and defender by seat offset", low=0, high=1)
O_C_STAGE = O.field("combat_stage", NUM_CS, doc="combat stage one-hot", low=0, high=1)
O_C_CARD = O.field("combat_cards", (2, T), dims=("side", "kind"), doc="face-down card of each side once revealed (or my own)", low=0, high=1)
O_C_REPL = O.field("combat_repl", (2, T), dims=("side", "kind"), doc="card an Amethyst Deceiver drew in its place", low=0, high=1)
O_C_NOTHIEF = O.field("combat_nothief", 2, doc="Thief of this side cancelled by a Common Puffball", low=0, high=1)
O_PATHS = O.field("paths", (E, MAXP), dims=("edge", "offset"), doc="a Path of the player at this seat offset on the edge", low=0, high=1)
O_PERM = O.field("permanent", E, dims=("edge",), doc="the edge holds a permanent Colony Path", low=0, high=1)
O_LOC_NUT = O.field("loc_nutrients", G, doc="Nutrient Tokens on each gather location", low=0, high=NUTRIENT_TOKENS)
O_LOC_SPORES = O.field("loc_spores", G, doc="Spore Tokens on each gather location", low=0, high=SPORE_TOKENS)
O_LOC_GATH = O.field("loc_gatherers", (G, MAXP), dims=("gloc", "offset"), doc="gatherers of each seat offset on each location", low=0, high=3)
O_BONDED = O.field("my_bonded", G, doc="my bonded Paths on each location", low=0, high=6)
O_BN = O.field("bn_trigger", G, doc="a Nutrient was placed on this tree in this Nutrient Card Phase", low=0, high=1)
O_PLAYERS = O.field("players", (MAXP, 8), dims=("offset", "value"),
                    doc="per seat offset: present, hand size, mat spores, mat nutrients, combat tokens, Paths, gatherers home, played Bird's Nest this phase",
                    low=0, high=NC)
O_HAND = O.field("my_hand", T, doc="my cards per type", low=0, high=NC)
O_KNOWN = O.field("known", (MAXP - 1, T), dims=("offset", "kind"), doc="cards I know seat offset + 1 still holds (Parrot Toadstool, thefts, gifts)", low=0, high=NC)
O_DISCARD = O.field("discard", T, doc="mushling discard pile per type", low=0, high=NC)
O_LIMBO = O.field("limbo", T, doc="cards of abilities in flight", low=0, high=NC)
O_CAREA = O.field("carea", T, doc="reinforcements played in this combat", low=0, high=NC)
O_DECKS = O.field("decks", 2, doc="mushling deck size, nutrient deck size", low=0, high=NC)
O_NDISCARD = O.field("nutrient_discard", NK, doc="nutrient discard pile per kind", low=0, high=NN)
O_DECK_TOP = O.field("deck_top", T, doc="the public set the top mushling cards come from (a Witch's Hat's shuffle)", low=0, high=NC)
O_NDECK_TOP = O.field("nutrient_top", NK, doc="the nutrient cards a Witch's Hat put on top that are still there (public)", low=0, high=NN)
O_TOP_N = O.field("top_n", 2, doc="how many cards on top of the mushling / nutrient deck those are", low=0, high=NC)
O_NKNOWN = O.field("nutrient_known", (NN, NK), dims=("from_top", "nkind"), doc="nutrient cards I know, by position from the top of the deck", low=0, high=1)
O_SUPPLY = O.field("supply", 3, doc="supply of spores, nutrients, combat tokens", low=0, high=SPORE_TOKENS)
OBS_SIZE_BASE = O.size   # the observation without variants (options all off): the fields above
# variant fields (present when emsporium, hero_tavern or legends is on; also when team is on: the
# spaces are the prefix up to the last block of an option that is on, see MyceliumGame.make_spec)
O_VDKIND = O.field("variant_decision", NUM_D_ITEMS - NUM_D_BASE, doc="variant decision on top (buy, hero pick, legend), one-hot", low=0, high=1)
O_ITEMS = O.field("items", (MAXP, NI), dims=("offset", "item"), doc="Emsporium items owned, by seat offset", low=0, high=2)
O_SHOP = O.field("shop", NI, doc="Emsporium items face up in the shop, per type", low=0, high=2)
O_IDECK = O.field("item_deck", doc="cards in the item deck", low=0, high=NIC)
O_BUY = O.field("buy", 2, doc="Buy: spore value paid / 30, value left to spend / 30", low=0, high=1)
O_HEROES = O.field("heroes", (MAXP, NH), dims=("offset", "hero"), doc="Hero Tavern: heroes held, by seat offset", low=0, high=1)
O_HERO_UP = O.field("hero_up", NH, doc="heroes face up at the Tavern", low=0, high=1)
O_HDECK = O.field("hero_deck", doc="heroes in the hero deck", low=0, high=NH)
O_DEAL = O.field("legend_deal", (2, NH), dims=("k", "hero"), doc="Legends: the 2 heroes dealt to me, until I keep one", low=0, high=1)
O_TAVERN = O.field("tavern_gatherers", MAXP, doc="gatherers on the Hero Tavern, by seat offset", low=0, high=3)
O_PICKS = O.field("hero_picks", doc="heroes still to recruit in this Gather Phase", low=0, high=3)
OBS_SIZE_ITEMS = O.size   # the observation with the items' block (emsporium / hero_tavern / legends)
# variant: team (also the 2-player game)
O_TEAM_DKIND = O.field("team_decision", 2, doc="Team: the pending decision is a Trade offer to answer / a gathering choice", low=0, high=1)
O_CONTROLLED = O.field("controlled", MAXP, doc="Team: seats (by offset) I act for: 0, and 2 in the 2-player game", low=0, high=1)
O_TRADE_OFFER = O.field("trade_offer", T + 1, doc="Team: the kind offered in the pending Trade (23: a Spore Token)", low=0, high=1)
O_TRADE_USED = O.field("trade_used", doc="Team: the turn player has used its Trade this turn", low=0, high=1)
O_GATHER_LOC = O.field("gather_loc", G, doc="Team: the location of the pending gathering choice", low=0, high=1)
O_GATHER_MAX = O.field("gather_max", doc="Team: the most tokens that choice may take (up to 3, 6 with Backpacks)", low=0, high=MAX_GATHER_TAKE)
O_TEAM_NUT = O.field("team_nutrients", 2, doc="Team: combined Nutrients of my team and of the other team", low=0, high=2 * WIN_NUTRIENTS)
O_PARTNER_HAND = O.field("partner_hand", T, doc="2-player game: the hand of my other Colony (0 in the Team variant)", low=0, high=NC)
OBS_SIZE = O.size
O.install(globals(), prefix="obs_")


# =============================================================================================
# small helpers
# =============================================================================================

@njit(cache=True)
def hand_size(state, p):
    s = 0
    for t in range(T):
        s += state[hand_at(p, t)]
    return s


@njit(cache=True)
def has_path(state, e, p):
    return state[paths_at(e, 0)] == p + 1 or state[paths_at(e, 1)] == p + 1


@njit(cache=True)
def public_out(state, cfg, t):
    """Copies of type ``t`` not publicly accounted for (could be in someone's hand)."""
    n = cfg[cfg_copies_at(t)]
    n -= state[discard_at(t)] + state[limbo_at(t)] + state[carea_at(t)]
    for side in range(2):
        if state[C_ACTIVE] and state[C_REVEALED]:
            if state[c_card_at(side)] == t:
                n -= 1
        if state[c_repl_at(side)] == t:
            n -= 1
    return n


@njit(cache=True)
def may_hold(state, cfg, p, t1, t2):
    """Reaction prompt eligibility: public information (default) or holding (``holders``)."""
    if cfg[CFG_HOLDERS]:
        return state[hand_at(p, t1)] > 0 or (t2 >= 0 and state[hand_at(p, t2)] > 0)
    if hand_size(state, p) == 0:
        return False
    return public_out(state, cfg, t1) > 0 or (t2 >= 0 and public_out(state, cfg, t2) > 0)


@njit(cache=True)
def lose_public(state, cfg, q, t):
    """``q`` gives up a card of type ``t`` in view of everyone."""
    state[hand_at(q, t)] -= 1
    for p in range(cfg[CFG_NP]):
        k = known_at(p, q, t)
        if state[k] > 0:
            state[k] -= 1


@njit(cache=True)
def lose_hidden(state, cfg, q, t, witness):
    """``q`` loses a card of type ``t`` that only ``q`` and ``witness`` (-1: nobody) see."""
    state[hand_at(q, t)] -= 1
    for p in range(cfg[CFG_NP]):
        if p == q:
            continue
        if p == witness:
            k = known_at(p, q, t)
            if state[k] > 0:
                state[k] -= 1
        else:
            for u in range(T):
                k = known_at(p, q, u)
                if state[k] > 0:
                    state[k] -= 1


@njit(cache=True)
def gain_public(state, cfg, q, t):
    state[hand_at(q, t)] += 1
    for p in range(cfg[CFG_NP]):
        if p != q:
            state[known_at(p, q, t)] += 1


@njit(cache=True)
def to_discard(state, t, n):
    state[discard_at(t)] += n


@njit(cache=True)
def counts_onto_pile(state, counts, nkinds, pile, count_off):
    """Put a pile kept as counts per kind (a discard pile) on top of a pile of kinds (a deck),
    unshuffled, emptying the counts; returns how many cards moved."""
    n0 = state[count_off]
    m = 0
    for k in range(nkinds):
        for _ in range(state[counts + k]):
            state[pile + n0 + m] = k
            m += 1
        state[counts + k] = 0
    state[count_off] = n0 + m
    return m


@njit(cache=True)
def discard_onto_deck(state):
    """The mushling discard pile on top of the deck, unshuffled; returns how many cards."""
    return counts_onto_pile(state, DISCARD, T, DECK, DECK_N)


@njit(cache=True)
def ndiscard_onto_deck(state):
    """The nutrient discard pile on top of the nutrient deck, unshuffled; returns how many."""
    return counts_onto_pile(state, NDISCARD, NK, NDECK, NDECK_N)


@njit(cache=True)
def forget_deck_top(state, nutrient):
    """The public set on top of a deck (a Witch's Hat's) is no longer known to be there."""
    if nutrient:
        state[NDECK_TOP_N] = 0
        for k in range(NK):
            state[ndeck_top_at(k)] = 0
    else:
        state[DECK_TOP_N] = 0
        for t in range(T):
            state[deck_top_at(t)] = 0


@njit(cache=True)
def draw_type(state):
    """Top mushling card (reshuffling the discard pile if the deck is empty), -1 if none."""
    if state[DECK_N] == 0:
        n = discard_onto_deck(state)
        shuffle_range(state, DECK, n, RNG)
        if n == 0:
            return -1
    n = state[DECK_N] - 1
    t = state[deck_at(n)]
    state[deck_at(n)] = 0
    state[DECK_N] = n
    if state[DECK_TOP_N] > 0:
        state[DECK_TOP_N] -= 1
        if state[DECK_TOP_N] == 0:
            forget_deck_top(state, False)
    return t


@njit(cache=True)
def draw_type_face_up(state):
    """Top mushling card drawn in view of everyone (it leaves the public set on top, if any)."""
    from_top = state[DECK_N] > 0 and state[DECK_TOP_N] > 0
    t = draw_type(state)
    if from_top and t >= 0 and state[deck_top_at(t)] > 0:
        state[deck_top_at(t)] -= 1
    return t


@njit(cache=True)
def draw_cards(state, p, k):
    for _ in range(k):
        t = draw_type(state)
        if t >= 0:
            state[hand_at(p, t)] += 1


@njit(cache=True)
def spore_supply(state, cfg):
    s = SPORE_TOKENS
    for p in range(MAXP):
        s -= state[mat_spores_at(p)]
    for g in range(G):
        s -= state[loc_spores_at(g)]
    return s


@njit(cache=True)
def nutrient_supply(state, cfg):
    s = NUTRIENT_TOKENS
    for p in range(MAXP):
        s -= state[mat_nut_at(p)]
    for g in range(G):
        s -= state[loc_nut_at(g)]
    return s


@njit(cache=True)
def ctok_supply(state):
    s = COMBAT_TOKENS
    for p in range(MAXP):
        s -= state[ctok_at(p)]
    return s


@njit(cache=True)
def connected_to_own(state, cfg, p, e):
    """A Path of ``p`` on ``e`` itself or on an edge sharing a corner with ``e``."""
    if has_path(state, e, p):
        return True
    for k in range(4):
        n = cfg[cfg_edge_nbr_at(e, k)]
        if n >= 0 and has_path(state, n, p):
            return True
    return False


@njit(cache=True)
def can_build_at(state, cfg, p, e):
    if has_path(state, e, p):
        return False
    if state[paths_at(e, 0)] != 0 and state[paths_at(e, 1)] != 0:
        return False
    for k in range(4):
        n = cfg[cfg_edge_nbr_at(e, k)]
        if n >= 0 and has_path(state, n, p):
            return True
    return False


@njit(cache=True)
def any_build_edge(state, cfg, p):
    for e in range(cfg[CFG_NE]):
        if can_build_at(state, cfg, p, e):
            return True
    return False


@njit(cache=True)
def attackable(state, cfg, p, e, slot, remote):
    q = state[paths_at(e, slot)] - 1
    if q < 0 or q == p or cfg[cfg_permanent_at(e)] == q:
        return False
    if _TM.is_teammate(cfg, p, q):   # variant: team (no friendly fire)
        return False
    return remote or connected_to_own(state, cfg, p, e)


@njit(cache=True)
def place_path(state, cfg, p, e):
    slot = 0 if state[paths_at(e, 0)] == 0 else 1
    state[paths_at(e, slot)] = p + 1
    state[npaths_at(p)] += 1
    state[LAST_EDGE] = e


@njit(cache=True)
def remove_path(state, p, e):
    """Remove ``p``'s (non-permanent) Path on ``e``; False if there is none."""
    for slot in range(2):
        if state[paths_at(e, slot)] == p + 1:
            state[paths_at(e, slot)] = 0
            state[npaths_at(p)] -= 1
            state[LAST_EDGE] = e
            return True
    return False


@njit(cache=True)
def bonded_edges(state, cfg, p, work):
    """Marks ``work[e] = 1`` for every Path of ``p`` traced back to its Colony (BFS in the work area)."""
    ne = cfg[CFG_NE]
    for e in range(ne):
        work[e] = 0
    head = 0
    tail = 0
    for e in range(ne):
        if cfg[cfg_permanent_at(e)] == p:
            work[e] = 1
            work[E + tail] = e
            tail += 1
    while head < tail:
        e = work[E + head]
        head += 1
        for k in range(4):
            n = cfg[cfg_edge_nbr_at(e, k)]
            if n >= 0 and work[n] == 0 and has_path(state, n, p):
                work[n] = 1
                work[E + tail] = n
                tail += 1


@njit(cache=True)
def bonded_count(cfg, g, work):
    c = 0
    for k in range(6):
        e = cfg[cfg_gloc_edges_at(g, k)]
        if e >= 0 and work[e]:
            c += 1
    return c


@njit(cache=True)
def gather(state, cfg, p, subset, work):
    """Gather with the gatherers of ``p`` in bit mask ``subset``; they come home. Checks the win."""
    bonded_edges(state, cfg, p, work)
    for g in range(cfg[CFG_NG]):
        n = 0
        for i in range(3):
            if (subset >> i) & 1 and state[gatherer_at(p, i)] == g:
                n += 1
        if n == 0:
            continue
        kind = cfg[cfg_gloc_kind_at(g)]
        if kind == LK_MUSH:
            draw_cards(state, p, n * _EM.cards_per_mush_room_gatherer(state, p))   # variant: emsporium (Flyers)
            continue
        b = bonded_count(cfg, g, work)
        take = n * _EM.tokens_per_gatherer(state, p)   # variant: emsporium (Backpack)
        take = take if take < b else b
        if cfg[CFG_TEAM]:   # variant: team (optional gathering: the player's choice)
            take = _TM.team_take(state, g, take)
        if kind == LK_CAVE:
            have = state[loc_spores_at(g)]
            take = take if take < have else have
            state[loc_spores_at(g)] -= take
            state[mat_spores_at(p)] += take
        else:
            have = state[loc_nut_at(g)]
            take = take if take < have else have
            state[loc_nut_at(g)] -= take
            state[mat_nut_at(p)] += take
    for i in range(3):
        if (subset >> i) & 1:
            state[gatherer_at(p, i)] = -1
    if cfg[CFG_TEAM]:   # variant: team (10 per Colony, 15 per team wins)
        if _TM.team_gathered(state, cfg, p):
            state[DONE] = DONE_RULES
            state[WINNER] = p
            state[PHASE] = PH_OVER
            clear_decisions(state)
        return
    if state[mat_nut_at(p)] >= WIN_NUTRIENTS:
        state[DONE] = DONE_RULES
        state[WINNER] = p
        state[PHASE] = PH_OVER
        clear_decisions(state)


@njit(cache=True)
def start_gathering(state, cfg, p, subset, work):
    """A gathering (the Gather Phase, a Bird's Nest, a hero's gather_now): :func:`gather`, or
    under the Team rules (variant: team) the player's choices of what it takes first
    (``team.start_gather``, a ``D_GATHER`` decision when there is a choice)."""
    if cfg[CFG_TEAM]:
        _TM.start_gather(state, cfg, p, subset, work)
    else:
        gather(state, cfg, p, subset, work)


@njit(cache=True)
def order_player(state, cfg, i):
    """The i-th player in turn order from the turn player."""
    return (state[TP] + i) % cfg[CFG_NP]


@njit(cache=True)
def push_fa_window(state, cfg, user):
    """Fly Agaric prompts for the ability entry on top of the stack (reverse turn order)."""
    level = decision_depth(state) - 1
    n = cfg[CFG_NP]
    for i in range(n - 1, -1, -1):
        q = order_player(state, cfg, i)
        if q != user and may_hold(state, cfg, q, FLY, -1):
            push_decision(state, D_FA, q, level)


@njit(cache=True)
def use_ability(state, cfg, user, ab, x1, x2, x3):
    push_decision(state, D_RESOLVE, user, ab, x1, x2, x3, 0)
    push_fa_window(state, cfg, user)


@njit(cache=True)
def to_limbo(state, cfg, p, t):
    lose_public(state, cfg, p, t)
    state[limbo_at(t)] += 1


@njit(cache=True)
def play_card(state, cfg, p, t, ab, x1, x2, x3):
    """``p`` plays a card of type ``t`` for ability ``ab``: out of the hand in view of all,
    then the ability's Fly Agaric window."""
    to_limbo(state, cfg, p, t)
    use_ability(state, cfg, p, ab, x1, x2, x3)


@njit(cache=True)
def play_pair(state, cfg, p, t1, t2, ab, x3):
    """``p`` plays two cards as a pair (Builders, Thieves) for ability ``ab``."""
    to_limbo(state, cfg, p, t1)
    play_card(state, cfg, p, t2, ab, t1, t2, x3)


@njit(cache=True)
def push_path_window(state, cfg, builder, e):
    n = cfg[CFG_NP]
    for i in range(n - 1, -1, -1):
        q = order_player(state, cfg, i)
        if q != builder and connected_to_own(state, cfg, q, e) and may_hold(state, cfg, q, PENNY, INKY):
            push_decision(state, D_PATHWIN, q, builder, e)


@njit(cache=True)
def any_removable(state, cfg, p, keep):
    for e in range(cfg[CFG_NE]):
        if e != keep and has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
            return True
    return False


@njit(cache=True)
def pay_capacity(state, cfg, p):
    v = 3 * state[mat_spores_at(p)]
    for t in range(T):
        v += state[hand_at(p, t)] * cfg[cfg_spore_at(t)]
    return v


# =============================================================================================
# set-up, turns, phases
# =============================================================================================

@njit(cache=True)
def init(state, seed, cfg, work):
    state[:] = 0
    rng_seed(state, RNG, seed)
    n = cfg[CFG_NP]
    for e in range(E):
        q = cfg[cfg_permanent_at(e)]
        if q >= 0:
            state[paths_at(e, 0)] = q + 1
    for i in range(NC):
        state[deck_at(i)] = cfg[cfg_deck_at(i)]
    state[DECK_N] = NC
    shuffle_range(state, DECK, NC, RNG)
    nn = cfg[CFG_NNUT]
    for i in range(nn):
        state[ndeck_at(i)] = cfg[cfg_nut_deck_at(i)]
    state[NDECK_N] = nn
    shuffle_range(state, NDECK, nn, RNG)
    first = rng_below(state, RNG, n)
    state[FIRST] = first
    state[TP] = first
    for i in range(n):
        draw_cards(state, (first + i) % n, 4 + i)
    for p in range(n):
        state[mat_spores_at(p)] = 3
        state[loc_spores_at(cfg[cfg_cave_at(p)])] = 3
        for i in range(3):
            state[gatherer_at(p, i)] = -1
    for t in range(4):
        g = cfg[cfg_tree_at(t)]
        if g >= 0:
            state[loc_nut_at(g)] = 1
    state[loc_nut_at(cfg[CFG_WILLOW])] = 1
    state[WINNER] = -1
    state[LAST_EDGE] = -1
    state[C_ATT] = -1
    state[C_DEF] = -1
    state[C_EDGE] = -1
    state[C_WINNER] = -1
    for s in range(2):
        state[c_card_at(s)] = -1
        state[c_repl_at(s)] = -1
    state[PHASE] = PH_EXPLORE
    clear_decisions(state)
    _EM.init_items(state, cfg)   # variant: emsporium
    _TV.init_tavern(state, cfg)   # variant: hero_tavern, legends
    _TM.team_init(state, cfg)   # variant: team


@njit(cache=True)
def start_turn(state, cfg):
    state[ACTIONS] = 0
    state[TRADE_USED] = 0   # variant: team
    state[PLACED] = 0
    state[PHASE] = PH_NUTRIENT
    state[BN_PLAYED] = 0
    state[BN_TRIGGER] = 0
    # 1. Nutrient Card Phase
    if state[NDECK_N] == 0:
        shuffle_nutrients_all(state)
    if state[NDECK_N] == 0:
        return
    top = state[NDECK_N] - 1
    k = state[ndeck_at(top)]
    state[ndeck_at(top)] = 0
    state[NDECK_N] = top
    if state[NDECK_TOP_N] > 0:   # drawn face up: it leaves the public set on top
        state[NDECK_TOP_N] -= 1
        state[ndeck_top_at(k)] -= 1
    for p in range(MAXP):
        state[nseen_at(p, top)] = 0
    state[ndiscard_at(k)] += 1
    eff = cfg[cfg_nut_effect_at(k)]
    trig = 0
    if eff == NE_TREE or eff == NE_CENTER:
        g = cfg[cfg_nut_target_at(k)] if eff == NE_TREE else cfg[CFG_WILLOW]
        if g >= 0 and nutrient_supply(state, cfg) > 0:
            state[loc_nut_at(g)] += 1
            if eff == NE_TREE:
                trig |= 1 << g
    elif eff == NE_SPORES:
        for p in range(cfg[CFG_NP]):
            if spore_supply(state, cfg) > 0:
                state[loc_spores_at(cfg[cfg_cave_at(p)])] += 1
    else:
        for t in range(4):
            g = cfg[cfg_tree_at(t)]
            if g >= 0 and nutrient_supply(state, cfg) > 0:
                state[loc_nut_at(g)] += 1
                trig |= 1 << g
    state[BN_TRIGGER] = trig
    if trig != 0:
        n = cfg[CFG_NP]
        for i in range(n - 1, -1, -1):
            q = order_player(state, cfg, i)
            if bn_eligible(state, cfg, q):
                push_decision(state, D_BN, q, 0)


@njit(cache=True)
def bn_eligible(state, cfg, q):
    trig = state[BN_TRIGGER]
    on = False
    for i in range(3):
        g = state[gatherer_at(q, i)]
        if g >= 0 and (trig >> g) & 1:
            on = True
    return on and (state[BN_PLAYED] >> q) & 1 == 0 and may_hold(state, cfg, q, BIRDS, -1)


@njit(cache=True)
def end_turn(state, cfg):
    state[LAST_HAND] = hand_size(state, state[TP])
    _EM.refill_shop(state, cfg)   # variant: emsporium
    state[TURN] += 1
    lim = cfg[CFG_TURN_LIMIT]
    if lim > 0 and state[TURN] >= lim:
        state[DONE] = DONE_LIMIT
        state[PHASE] = PH_OVER
        clear_decisions(state)
        return
    state[TP] = (state[TP] + 1) % cfg[CFG_NP]
    start_turn(state, cfg)


@njit(cache=True)
def after_place(state, cfg):
    """A gatherer was placed in the Explore or Place Phase."""
    state[PLACED] += 1
    if state[PLACED] < 3:
        return
    state[PLACED] = 0
    if state[PHASE] == PH_EXPLORE:
        nxt = (state[TP] + 1) % cfg[CFG_NP]
        state[TP] = nxt
        if nxt == state[FIRST]:
            start_turn(state, cfg)
        return
    # 5. Draw Phase
    draw_cards(state, state[TP], _EM.draw_phase_cards(state, state[TP]))   # variant: emsporium (Basket)
    if hand_size(state, state[TP]) > _EM.hand_limit(state, state[TP]):   # variant: emsporium (Pouch)
        state[PHASE] = PH_DISCARD
    else:
        end_turn(state, cfg)


# =============================================================================================
# combat
# =============================================================================================

@njit(cache=True)
def start_combat(state, cfg, att, e, slot):
    d = state[paths_at(e, slot)] - 1
    state[C_ACTIVE] = 1
    state[C_ATT] = att
    state[C_DEF] = d
    state[C_EDGE] = e
    for s in range(2):
        state[c_card_at(s)] = -1
        state[c_repl_at(s)] = -1
        state[c_bonus_at(s)] = 0
        state[c_nothief_at(s)] = 0
    state[C_DEFENDED] = 0
    state[C_REVEALED] = 0
    state[C_STAGE] = CS_REVEAL
    state[C_SUB] = 0
    state[C_PASSES] = 0
    state[C_WINNER] = -1
    push_decision(state, D_COMBAT, att)
    push_decision(state, D_ATT_CARD, att)


@njit(cache=True)
def rep_card(state, side):
    r = state[c_repl_at(side)]
    return r if r >= 0 else state[c_card_at(side)]


@njit(cache=True)
def is_thief(t):
    return t == PARASOL or t == SHIITAKE


@njit(cache=True)
def combat_player(state, side):
    return state[C_ATT] if side == 0 else state[C_DEF]


@njit(cache=True)
def reinf_eligible(state, cfg, p):
    if state[ctok_at(p)] > 0 or _TV.has_combat_reaction(state, cfg, p):   # variant: hero_tavern
        return True
    return may_hold(state, cfg, p, BLUE_OY, PINK_OY)


@njit(cache=True)
def react_ability(state, cfg, side):
    """Step-6 reaction available to the revealed card of ``side`` (-1 none)."""
    t = rep_card(state, side)
    p = combat_player(state, side)
    won = state[C_WINNER] == side
    if is_thief(t):
        if state[c_nothief_at(side)] == 0 and hand_size(state, combat_player(state, 1 - side)) > 0:
            return AB_THIEF_STEAL
        return -1
    if t == CHICKEN:
        if side == 1:
            return AB_CHICKEN_DEF
        return AB_CHICKEN_ATT if won else -1
    if t == LIBERTY and won and any_build_edge(state, cfg, p):
        return AB_LIBERTY
    return -1


@njit(cache=True)
def combat_stage(state, cfg, work):
    """Advance the combat marker on top of the stack by one stage (may push prompts)."""
    st = state[C_STAGE]
    att = state[C_ATT]
    dfd = state[C_DEF]
    if st == CS_REVEAL:
        state[C_REVEALED] = 1
        if state[C_DEFENDED] == 0:
            remove_path(state, dfd, state[C_EDGE])
            state[C_WINNER] = 0
        state[C_STAGE] = CS_AD
        state[C_SUB] = 0
    elif st == CS_AD:
        sub = state[C_SUB]
        state[C_SUB] = sub + 1
        if sub < 2:
            if (sub == 0 or state[C_DEFENDED]) and state[c_card_at(sub)] == AD:
                push_decision(state, D_USE, combat_player(state, sub), AB_AD_REACT, sub)
        else:
            state[C_SUB] = 0
            if state[C_DEFENDED]:
                state[C_STAGE] = CS_REINF
                state[C_PASSES] = 0
                state[C_NEXT] = state[TP]
            else:
                state[C_STAGE] = CS_PUFF
    elif st == CS_REINF:
        n = cfg[CFG_NP]
        if state[C_PASSES] >= n:
            state[C_STAGE] = CS_COMPARE
        else:
            p = state[C_NEXT]
            state[C_NEXT] = (p + 1) % n
            if reinf_eligible(state, cfg, p):
                push_decision(state, D_REINF, p)
            else:
                state[C_PASSES] += 1
    elif st == CS_COMPARE:
        ta = rep_card(state, 0)
        td = rep_card(state, 1)
        va = cfg[cfg_combat_at(ta)] + state[c_bonus_at(0)] + _EM.combat_bonus(state, att, 0)   # variant: emsporium
        vd = cfg[cfg_combat_at(td)] + state[c_bonus_at(1)] + _EM.combat_bonus(state, dfd, 1)
        if va > vd:
            state[C_WINNER] = 0
            remove_path(state, dfd, state[C_EDGE])
            if ctok_supply(state) > 0:
                state[ctok_at(att)] += 1
        else:
            state[C_WINNER] = 1
            draw_cards(state, dfd, 1)
        state[C_STAGE] = CS_PUFF
        state[C_SUB] = 0
    elif st == CS_PUFF:
        sub = state[C_SUB]
        state[C_SUB] = sub + 1
        if sub < 2:
            if state[C_DEFENDED] and rep_card(state, sub) == PUFF and is_thief(rep_card(state, 1 - sub)):
                push_decision(state, D_USE, combat_player(state, sub), AB_PUFF, sub)
        else:
            state[C_SUB] = 0
            state[C_STAGE] = CS_REACT_A
    elif st == CS_REACT_A or st == CS_REACT_D:
        side = 0 if st == CS_REACT_A else 1
        if state[C_SUB] == 0 and (side == 0 or state[C_DEFENDED]):
            state[C_SUB] = 1
            ab = react_ability(state, cfg, side)
            if ab >= 0:
                push_decision(state, D_USE, combat_player(state, side), ab, side)
        else:
            state[C_SUB] = 0
            state[C_STAGE] = CS_REACT_D if side == 0 else CS_END
    else:
        for side in range(2):
            p = combat_player(state, side)
            c = state[c_card_at(side)]
            if c >= 0:
                to_discard(state, c, 1)
                state[c_card_at(side)] = -1
            r = state[c_repl_at(side)]
            if r >= 0:
                gain_public(state, cfg, p, r)
                state[c_repl_at(side)] = -1
        for t in range(T):
            state[discard_at(t)] += state[carea_at(t)]
            state[carea_at(t)] = 0
        state[C_ACTIVE] = 0
        state[C_REVEALED] = 0
        state[C_DEFENDED] = 0
        state[C_WINNER] = -1
        state[C_ATT] = -1
        state[C_DEF] = -1
        state[C_EDGE] = -1
        for s in range(2):
            state[c_bonus_at(s)] = 0
            state[c_nothief_at(s)] = 0
        pop_decision(state)


# =============================================================================================
# resolving abilities
# =============================================================================================

# the card(s) each ability's use put in limbo: a type, or the ability's x1 (a reinforcement,
# a single Builder, a Worker), or x1 and x2 (a pair), or none (a revealed card's reaction)
CARD_X1, CARD_PAIR, NO_CARD = -1, -2, -3
ABILITY_CARD = np.array([AD, NO_CARD, NO_CARD, NO_CARD, NO_CARD, NO_CARD, BIRDS, PARROT, PARROT, RUSSULA, VEILED,
                         FLY, INKY, PENNY, CARD_X1, CARD_PAIR, CARD_X1, CARD_X1, MAGIC, TRUFFLE, WITCH, CARD_PAIR,
                         NO_CARD], dtype=np.int64)


@njit(cache=True)
def release_card(state, ab, t, cancelled):
    """A card leaves limbo: to the discard pile (a reinforcement that resolved stays in the
    combat until its end)."""
    state[limbo_at(t)] -= 1
    if ab == AB_REINF and not cancelled:
        state[carea_at(t)] += 1
    else:
        to_discard(state, t, 1)


@njit(cache=True)
def release_cards(state, ab, x1, x2, cancelled):
    """The ability's cards leave limbo (after its effect, or cancelled)."""
    c = ABILITY_CARD[ab]
    if c == NO_CARD:
        return
    release_card(state, ab, c if c >= 0 else x1, cancelled)
    if c == CARD_PAIR:
        release_card(state, ab, x2, cancelled)


@njit(cache=True)
def shuffle_nutrients_all(state):
    """The nutrient deck and discard pile shuffled together: nobody knows any position."""
    ndiscard_onto_deck(state)
    shuffle_range(state, NDECK, state[NDECK_N], RNG)
    forget_deck_top(state, True)
    for p in range(MAXP):
        for i in range(NN):
            state[nseen_at(p, i)] = 0


@njit(cache=True)
def witch_onto_deck(state, nutrient):
    """Witch's Hat: the discard pile shuffled onto its deck; everyone saw the pile, so the set
    on top is public (added to a set already there: the top cards are all of them)."""
    if nutrient:
        public_pile_onto_deck(state, NDISCARD, NK, NDECK, NDECK_N, NDECK_TOP, NDECK_TOP_N)
    else:
        public_pile_onto_deck(state, DISCARD, T, DECK, DECK_N, DECK_TOP, DECK_TOP_N)


@njit(cache=True)
def public_pile_onto_deck(state, counts, nkinds, pile, count_off, top_set, top_n):
    for k in range(nkinds):
        state[top_set + k] += state[counts + k]
    n0 = state[count_off]
    m = counts_onto_pile(state, counts, nkinds, pile, count_off)
    shuffle_range(state, pile + n0, m, RNG)
    state[top_n] += m


@njit(cache=True)
def resolve_top(state, cfg, work):
    u = top_player(state)
    ab = top_arg(state, 0)
    x1 = top_arg(state, 1)
    x2 = top_arg(state, 2)
    x3 = top_arg(state, 3)
    cancelled = top_arg(state, 4)
    pop_decision(state)
    n = cfg[CFG_NP]
    if cancelled:
        release_cards(state, ab, x1, x2, True)
        return
    if ab == AB_FLY:
        set_decision_at(state, x1, CANCEL_COL, 1)
    elif ab == AB_DECEIVE:
        if state[discard_at(x1)] > 0:
            state[discard_at(x1)] -= 1
            gain_public(state, cfg, u, x1)
    elif ab == AB_AD_REACT:
        t = draw_type_face_up(state)
        if t >= 0:
            state[c_repl_at(x1)] = t
    elif ab == AB_CHICKEN_DEF:
        draw_cards(state, u, 3)
    elif ab == AB_CHICKEN_ATT:
        draw_cards(state, u, 1)
    elif ab == AB_PUFF:
        state[c_nothief_at(1 - x1)] = 1
    elif ab == AB_LIBERTY:
        push_decision(state, D_PLACE_PATH, u, 1)
    elif ab == AB_BIRDS:
        start_gathering(state, cfg, u, x1, work)   # variant: team (optional gathering asks first)
    elif ab == AB_PARROT_VIEW:
        for t in range(T):
            state[known_at(u, x1, t)] = state[hand_at(x1, t)]
    elif ab == AB_PARROT_ATT:
        if state[paths_at(x1, x2)] != 0 and hand_size(state, u) > 0:
            start_combat(state, cfg, u, x1, x2)
    elif ab == AB_RUSSULA:
        state[gatherer_at(u, 0)] = x1
        state[gatherer_at(u, 1)] = x2
        state[gatherer_at(u, 2)] = x3
    elif ab == AB_VEILED:
        top = state[NDECK_N]
        for i in range(min(n, top)):
            state[nseen_at(u, top - 1 - i)] = 1
    elif ab == AB_INKY:
        if has_path(state, x2, x1):
            if hand_size(state, x1) >= 2:
                push_decision(state, D_INKY_GIVE, x1, u, x2, 0)
            else:
                remove_path(state, x1, x2)
    elif ab == AB_PENNY:
        remove_path(state, x1, x2)
    elif ab == AB_REINF:
        state[c_bonus_at(x2)] += 2 if x1 == BLUE_OY else 3
    elif ab == AB_BUILD_PAIR:
        push_decision(state, D_PLACE_PATH, u, 2)
    elif ab == AB_BUILD_REMOVE:
        if remove_path(state, u, x2) and spore_supply(state, cfg) > 0:
            state[mat_spores_at(u)] += 1
    elif ab == AB_SPAWN:
        amount = (2 if x1 == NIGHT else 1) + _EM.spawn_bonus(state, u)   # variant: emsporium (Pickaxe)
        s = spore_supply(state, cfg)
        amount = amount if amount < s else s
        state[loc_spores_at(x2)] += amount
    elif ab == AB_MAGIC:
        top = state[NDECK_N]
        kk = min(n, top)
        for i in range(kk):
            for p in range(MAXP):
                state[nseen_at(p, top - 1 - i)] = 1 if p == u else 0
        if kk >= 2:
            push_decision(state, D_ARRANGE, u, 0, kk)
            if kk > state[NDECK_TOP_N]:   # the public set on top gets mixed with unknown cards
                forget_deck_top(state, True)
    elif ab == AB_TRUFFLE:
        if x1 == 0:
            discard_onto_deck(state)
            shuffle_range(state, DECK, state[DECK_N], RNG)
            forget_deck_top(state, False)
        else:
            shuffle_nutrients_all(state)
    elif ab == AB_WITCH:
        witch_onto_deck(state, x1 == 1)
    elif ab == AB_THIEF_PAIR:
        if state[loc_spores_at(x3)] > 0:
            state[loc_spores_at(x3)] -= 1
            state[mat_spores_at(u)] += 1
    elif ab == AB_THIEF_STEAL:
        v = combat_player(state, 1 - x1)
        hs = hand_size(state, v)
        if hs > 0:
            r = rng_below(state, RNG, hs)
            for t in range(T):
                c = state[hand_at(v, t)]
                if r < c:
                    lose_hidden(state, cfg, v, t, u)
                    state[hand_at(u, t)] += 1
                    state[known_at(v, u, t)] += 1
                    break
                r -= c
    # the cards leave limbo after the effect (Truffle and Witch's Hat do not shuffle themselves in)
    release_cards(state, ab, x1, x2, False)


# =============================================================================================
# the loop between decisions
# =============================================================================================

@njit(cache=True)
def prompt_live(state, cfg):
    k = top_kind(state)
    p = top_player(state)
    if k == D_FA:
        return decision_at(state, top_arg(state, 0), CANCEL_COL) == 0
    if k == D_PATHWIN:
        return has_path(state, top_arg(state, 1), top_arg(state, 0))
    if k == D_PLACE_PATH:
        return top_arg(state, 0) > 0 and any_build_edge(state, cfg, p)
    if k == D_REMOVE_OWN:
        return any_removable(state, cfg, p, top_arg(state, 0))
    if k == D_INKY_GIVE:
        return has_path(state, top_arg(state, 1), p) and hand_size(state, p) > 0
    if k == D_BN:
        return bn_eligible(state, cfg, p) or False
    return True


@njit(cache=True)
def advance(state, cfg, work):
    while True:
        if state[DONE]:
            return
        if decision_depth(state) > 0:
            k = top_kind(state)
            if k == D_RESOLVE:
                resolve_top(state, cfg, work)
                continue
            if k == D_COMBAT:
                combat_stage(state, cfg, work)
                continue
            if not prompt_live(state, cfg):
                pop_decision(state)
                continue
            return
        ph = state[PHASE]
        if ph == PH_NUTRIENT:
            state[PHASE] = PH_ACTION
            continue
        if ph == PH_DISCARD and hand_size(state, state[TP]) <= _EM.hand_limit(state, state[TP]):   # variant: emsporium
            end_turn(state, cfg)
            continue
        return


# =============================================================================================
# the kernel contract
# =============================================================================================

@njit(cache=True)
def current_player(state):
    """The agent to act: the seat's own index, except in the 2-player game (variant: team),
    where an agent acts for two seats (``agent_of``)."""
    if decision_depth(state) > 0:
        return state[agent_of_at(top_player(state))]
    return state[agent_of_at(state[TP])]


@njit(cache=True)
def arg_ok(state, cfg, v, code, level):
    if code >= 0:
        return 0 <= v <= code
    if code == ARG_PLAYER:
        return 0 <= v < cfg[CFG_NP]
    if code == ARG_EDGE:
        return 0 <= v < cfg[CFG_NE]
    if code == ARG_GLOC:
        return 0 <= v < cfg[CFG_NG]
    if code == ARG_TYPE:
        return 0 <= v < T
    return 0 <= v < level            # ARG_LEVEL: an entry below this one


@njit(cache=True)
def validate(state, cfg, work):
    """0 if the kernels can run on ``state`` safely, else a code (see :mod:`.validate`: one
    check per field group, beyond the per-slot bounds)."""
    return _checks.validate(state, cfg, work)


@njit(cache=True)
def is_terminal(state):
    return state[DONE] != 0


@njit(cache=True)
def is_truncated(state, cfg):
    """The turn limit cut the game (not an ending of the rulebook), unless the option
    turn_limit_end="score" makes the limit an ending scored by Nutrients."""
    return state[DONE] == DONE_LIMIT and cfg[CFG_LIMIT_SCORED] == 0


@njit(cache=True)
def returns(state, cfg, out):
    """+1 to the winner, -1/(n-1) to each other player. A truncation gives 0 to all; a turn
    limit scored (turn_limit_end="score") makes the k players with the most Nutrients
    winners of (n-k)/(k(n-1)) each (0 when all tie)."""
    if cfg[CFG_TEAM]:   # variant: team (rewards shared by the team)
        _TM.team_returns(state, cfg, out)
        return
    n = cfg[CFG_NP]
    w = state[WINNER]
    if state[DONE] == DONE_LIMIT:
        best = -1
        k = 0
        for p in range(n):
            x = state[mat_nut_at(p)]
            if x > best:
                best = x
                k = 0
            if x == best:
                k += 1
        for p in range(n):
            if cfg[CFG_LIMIT_SCORED] == 0:
                out[p] = 0.0
            elif state[mat_nut_at(p)] == best:
                out[p] = (n - k) / (k * (n - 1.0))
            else:
                out[p] = -1.0 / (n - 1)
        return
    for p in range(n):
        if w < 0:
            out[p] = 0.0
        else:
            out[p] = 1.0 if p == w else -1.0 / (n - 1)


@njit(cache=True)
def _set(mask, a):
    mask[a] = 1
    return 1


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    mask[:] = 0
    if state[DONE]:
        return 0
    n = cfg[CFG_NP]
    ne = cfg[CFG_NE]
    c = 0
    if decision_depth(state) > 0:
        k = top_kind(state)
        p = top_player(state)
        if k == D_FA:
            c += _set(mask, A_PASS)
            if state[hand_at(p, FLY)] > 0:
                c += _set(mask, A_FLY)
        elif k == D_PATHWIN:
            c += _set(mask, A_PASS)
            if state[hand_at(p, PENNY)] > 0:
                c += _set(mask, A_PENNY)
            if state[hand_at(p, INKY)] > 0:
                c += _set(mask, A_INKY)
        elif k == D_REINF:
            c += _set(mask, A_PASS)
            for s in range(2):
                if state[hand_at(p, BLUE_OY)] > 0:
                    c += _set(mask, reinforce_action(0, s))
                if state[hand_at(p, PINK_OY)] > 0:
                    c += _set(mask, reinforce_action(1, s))
                if state[ctok_at(p)] > 0:
                    c += _set(mask, combat_token_action(s))
            c += _TV.reinf_mask(state, cfg, p, mask, A_HERO)   # variant: hero_tavern (combat reactions)
        elif k == D_BN:
            c += _set(mask, A_PASS)
            if state[hand_at(p, BIRDS)] > 0:
                placed = 0
                for i in range(3):
                    if state[gatherer_at(p, i)] >= 0:
                        placed |= 1 << i
                for sub in range(1, 8):
                    if sub & placed == sub:
                        c += _set(mask, birds_nest_action(sub - 1))
        elif k == D_USE:
            c += _set(mask, A_PASS)
            c += _set(mask, A_USE)
        elif k == D_PAY:
            c += _set(mask, A_PAY_DONE)
            if top_arg(state, 0) < MAX_PAID:
                if state[mat_spores_at(p)] > 0:
                    c += _set(mask, A_PAY_TOKEN)
                for t in range(T):
                    if state[hand_at(p, t)] > 0 and cfg[cfg_spore_at(t)] > 0:
                        c += _set(mask, pay_card_action(t))
        elif k == D_PLACE_PATH:
            for e in range(ne):
                if can_build_at(state, cfg, p, e):
                    c += _set(mask, place_path_action(e))
        elif k == D_REMOVE_OWN:
            keep = top_arg(state, 0)
            for e in range(ne):
                if e != keep and has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
                    c += _set(mask, remove_own_action(e))
        elif k == D_ATT_CARD or k == D_DEFEND or k == D_INKY_GIVE:
            for t in range(T):
                if state[hand_at(p, t)] > 0:
                    c += _set(mask, card_action(t))
            if k == D_DEFEND:
                c += _set(mask, A_NO_DEFENSE)
            if k == D_INKY_GIVE and top_arg(state, 2) == 0:
                c += _set(mask, A_PASS)
        elif k == D_RUSSULA_PICK:
            for g in range(cfg[CFG_NG]):
                c += _set(mask, place_gatherer_action(g))
        elif k == D_ARRANGE:
            i0 = top_arg(state, 0)
            for j in range(i0, top_arg(state, 1)):
                c += _set(mask, arrange_action(j))
        elif k == D_BUY:   # variant: emsporium
            c += _EM.buy_mask(state, cfg, p, mask, A_PAY_TOKEN, A_PAY_CARD, A_PAY_DONE, A_BUY_ITEM)
        elif k == D_HERO_PICK:   # variant: hero_tavern
            c += _TV.pick_mask(state, mask, A_HERO_PICK)
        elif k == D_LEGEND:   # variant: legends
            c += _TV.legend_mask(state, p, mask, A_LEGEND)
        elif k == D_TRADE or k == D_GATHER:   # variant: team
            c += _TM.team_decision_mask(state, cfg, k, p, mask, work)
        elif k == D_EXCHANGE:   # mycelium_v1
            c += _EX.pick_mask(state, cfg, p, mask)
        return c
    ph = state[PHASE]
    p = state[TP]
    if ph == PH_EXPLORE or ph == PH_PLACE:
        for g in range(cfg[CFG_NG]):
            c += _set(mask, place_gatherer_action(g))
        if _TV.on(cfg):   # variant: hero_tavern
            c += _set(mask, A_PLACE_TAVERN)
        return c
    if ph == PH_DISCARD:
        for t in range(T):
            if state[hand_at(p, t)] > 0:
                c += _set(mask, card_action(t))
        return c
    # Action Phase menu
    c += _set(mask, A_END)
    if state[ACTIONS] >= MAX_ACTIONS_PER_TURN:
        return c
    if cfg[CFG_TEAM]:   # variant: team
        c += _TM.trade_menu(state, cfg, p, mask)
    hs = hand_size(state, p)
    if pay_capacity(state, cfg, p) >= 3 and any_build_edge(state, cfg, p):
        c += _set(mask, A_BUILD)
    if _EM.can_start_buy(state, cfg, p, pay_capacity(state, cfg, p)):   # variant: emsporium
        c += _set(mask, A_BUY)
    c += _TV.menu_mask(state, cfg, p, mask, A_HERO)   # variant: hero_tavern
    ss = spore_supply(state, cfg)
    if cfg[CFG_BY_TYPE]:   # mycelium_v1: by Mushling Card Type
        c += _EX.exchange_menu(state, cfg, p, mask, ss > 0)
    else:
        for t in range(T):
            if state[hand_at(p, t)] >= 2:
                c += _set(mask, exchange_action(t, 0))
                if ss > 0:
                    for q in range(n):
                        c += _set(mask, exchange_action(t, 1 + q))
    if hs > 0:
        bows = _EM.bow_reach(state, cfg, p, work)   # variant: emsporium (Bow: work[e] = within reach)
        for e in range(ne):
            for s in range(2):
                if attackable(state, cfg, p, e, s, bows > 0 and work[e] == 1):
                    c += _set(mask, attack_action(e, s))
    if state[hand_at(p, AD)] > 0:
        for t in range(T):
            if state[discard_at(t)] > 0:
                c += _set(mask, deceive_action(t))
    if state[hand_at(p, PARROT)] > 0:
        for o in range(n - 1):
            c += _set(mask, parrot_view_action(o))
        if hs >= 2:
            for e in range(ne):
                for s in range(2):
                    if attackable(state, cfg, p, e, s, True):
                        c += _set(mask, parrot_attack_action(e, s))
    if state[hand_at(p, RUSSULA)] > 0:
        c += _set(mask, A_RUSSULA)
    if state[hand_at(p, VEILED)] > 0:
        c += _set(mask, A_VEILED)
    nch = state[hand_at(p, CHANT)]
    nbl = state[hand_at(p, BLEWIT)]
    if nch >= 2:
        c += _set(mask, builder_pair_action(0))
    if nch >= 1 and nbl >= 1:
        c += _set(mask, builder_pair_action(1))
    if nbl >= 2:
        c += _set(mask, builder_pair_action(2))
    if nch + nbl > 0:
        for e in range(ne):
            if has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
                if nch > 0:
                    c += _set(mask, builder_remove_action(0, e))
                if nbl > 0:
                    c += _set(mask, builder_remove_action(1, e))
    for w in range(2):
        if state[hand_at(p, NIGHT if w == 0 else MOREL)] > 0:
            for q in range(n):
                c += _set(mask, spawn_action(w, q))
    if state[hand_at(p, MAGIC)] > 0:
        c += _set(mask, A_MAGIC)
    for d in range(2):
        if state[hand_at(p, TRUFFLE)] > 0:
            c += _set(mask, truffle_action(d))
        if state[hand_at(p, WITCH)] > 0:
            c += _set(mask, witch_action(d))
    npa = state[hand_at(p, PARASOL)]
    nsh = state[hand_at(p, SHIITAKE)]
    for pair in range(3):
        ok = (pair == 0 and npa >= 2) or (pair == 1 and npa >= 1 and nsh >= 1) or (pair == 2 and nsh >= 2)
        if ok:
            for q in range(n):
                if state[loc_spores_at(cfg[cfg_cave_at(q)])] > 0:
                    c += _set(mask, thief_pair_action(pair, q))
    return c


@njit(cache=True)
def exchange_discard(state, cfg, p, t):
    """An Exchange discards a card of kind ``t`` from ``p``'s hand, in view of all."""
    lose_public(state, cfg, p, t)
    to_discard(state, t, 1)


@njit(cache=True)
def exchange_effect(state, cfg, p, o):
    """The Exchange's action once its 2 cards are discarded: option 0 draws a card, 1 + c
    spawns a spore in seat c's Spore Cave."""
    if o == 0:
        draw_cards(state, p, 1)
    else:
        amount = 1 + _EM.spawn_bonus(state, p)   # variant: emsporium (Pickaxe)
        s = spore_supply(state, cfg)
        state[loc_spores_at(cfg[cfg_cave_at(o - 1)])] += amount if amount < s else s


@njit(cache=True)
def pair_types(kind_a, kind_b, pair):
    if pair == 0:
        return kind_a, kind_a
    if pair == 1:
        return kind_a, kind_b
    return kind_b, kind_b


@njit(cache=True)
def step_action_phase(state, cfg, a, work):
    p = state[TP]
    if a == A_END:
        _TV.tavern_gather(state, cfg, p)   # variant: hero_tavern (before the gatherers come home)
        start_gathering(state, cfg, p, 7, work)   # variant: team (optional gathering asks first)
        if state[DONE]:
            return
        state[PHASE] = PH_PLACE
        state[PLACED] = 0
        return
    state[ACTIONS] += 1
    if a == A_BUILD:
        push_decision(state, D_PAY, p, 0)
    elif a == A_BUY:   # variant: emsporium
        _EM.start_buy(state, p)
    elif A_HERO <= a < A_HERO + 2 * NH:   # variant: hero_tavern
        h, k = hero_args(a)
        _TV.use_hero(state, cfg, p, h, k, work)
    elif A_EXCHANGE <= a < A_EXCHANGE + T * (1 + MAXP):
        t, o = exchange_args(a)
        if cfg[CFG_BY_TYPE]:   # mycelium_v1: t is a Mushling Card Type; the cards may be chosen next
            _EX.start_exchange(state, cfg, p, t, o)
        else:
            exchange_discard(state, cfg, p, t)
            exchange_discard(state, cfg, p, t)
            exchange_effect(state, cfg, p, o)
    elif A_ATTACK <= a < A_ATTACK + 2 * E:
        e, s = attack_args(a)
        start_combat(state, cfg, p, e, s)
    elif A_DECEIVE <= a < A_DECEIVE + T:
        play_card(state, cfg, p, AD, AB_DECEIVE, deceive_args(a), 0, 0)
    elif A_PVIEW <= a < A_PVIEW + MAXP - 1:
        q = (p + 1 + parrot_view_args(a)) % cfg[CFG_NP]
        play_card(state, cfg, p, PARROT, AB_PARROT_VIEW, q, 0, 0)
    elif A_PATTACK <= a < A_PATTACK + 2 * E:
        e, s = parrot_attack_args(a)
        play_card(state, cfg, p, PARROT, AB_PARROT_ATT, e, s, 0)
    elif a == A_RUSSULA:
        to_limbo(state, cfg, p, RUSSULA)
        push_decision(state, D_RUSSULA_PICK, p, 0, 0, 0)
    elif a == A_VEILED:
        play_card(state, cfg, p, VEILED, AB_VEILED, 0, 0, 0)
    elif A_BPAIR <= a < A_BPAIR + 3:
        t1, t2 = pair_types(CHANT, BLEWIT, builder_pair_args(a))
        play_pair(state, cfg, p, t1, t2, AB_BUILD_PAIR, 0)
    elif A_BREMOVE <= a < A_BREMOVE + 2 * E:
        b, e = builder_remove_args(a)
        t = CHANT if b == 0 else BLEWIT
        play_card(state, cfg, p, t, AB_BUILD_REMOVE, t, e, 0)
    elif A_SPAWN <= a < A_SPAWN + 2 * MAXP:
        w, q = spawn_args(a)
        t = NIGHT if w == 0 else MOREL
        play_card(state, cfg, p, t, AB_SPAWN, t, cfg[cfg_cave_at(q)], 0)
    elif a == A_MAGIC:
        play_card(state, cfg, p, MAGIC, AB_MAGIC, 0, 0, 0)
    elif A_TRUFFLE <= a < A_TRUFFLE + 2:
        play_card(state, cfg, p, TRUFFLE, AB_TRUFFLE, truffle_args(a), 0, 0)
    elif A_WITCH <= a < A_WITCH + 2:
        play_card(state, cfg, p, WITCH, AB_WITCH, witch_args(a), 0, 0)
    elif A_TPAIR <= a < A_TPAIR + 3 * MAXP:
        pair, q = thief_pair_args(a)
        t1, t2 = pair_types(PARASOL, SHIITAKE, pair)
        play_pair(state, cfg, p, t1, t2, AB_THIEF_PAIR, cfg[cfg_cave_at(q)])
    elif A_TRADE <= a < A_TRADE + T + 1:   # variant: team
        _TM.trade_offer(state, cfg, p, a - A_TRADE)


@njit(cache=True)
def step_decision(state, cfg, a, work):
    k = top_kind(state)
    p = top_player(state)
    if k == D_TRADE or k == D_GATHER:   # variant: team
        _TM.team_step_decision(state, cfg, k, a, work)
    elif k == D_EXCHANGE:   # mycelium_v1
        _EX.step_pick(state, cfg, p, card_args(a))
    elif k == D_FA:
        target = top_arg(state, 0)
        pop_decision(state)
        if a == A_FLY:
            play_card(state, cfg, p, FLY, AB_FLY, target, 0, 0)
    elif k == D_PATHWIN:
        builder = top_arg(state, 0)
        e = top_arg(state, 1)
        pop_decision(state)
        if a == A_PENNY:
            play_card(state, cfg, p, PENNY, AB_PENNY, builder, e, 0)
        elif a == A_INKY:
            play_card(state, cfg, p, INKY, AB_INKY, builder, e, 0)
    elif k == D_REINF:
        pop_decision(state)
        if a == A_PASS:
            state[C_PASSES] += 1
        elif A_HERO <= a < A_HERO + 2 * NH:   # variant: hero_tavern (a hero's combat reaction)
            h, hk = hero_args(a)
            _TV.use_hero(state, cfg, p, h, hk, work)
        elif A_REINF <= a < A_REINF + 4:
            o, s = reinforce_args(a)
            t = BLUE_OY if o == 0 else PINK_OY
            state[C_PASSES] = 0
            play_card(state, cfg, p, t, AB_REINF, t, s, 0)
        else:
            s = combat_token_args(a)
            state[C_PASSES] = 0
            state[ctok_at(p)] -= 1
            state[c_bonus_at(s)] += 1
    elif k == D_BN:
        pop_decision(state)
        if a != A_PASS:
            sub = birds_nest_args(a) + 1
            state[BN_PLAYED] |= 1 << p
            play_card(state, cfg, p, BIRDS, AB_BIRDS, sub, 0, 0)
            tp = state[TP]
            if p != tp and bn_eligible(state, cfg, tp):
                push_decision(state, D_BN, tp, 1)
    elif k == D_USE:
        ab = top_arg(state, 0)
        side = top_arg(state, 1)
        pop_decision(state)
        if a == A_USE:
            use_ability(state, cfg, p, ab, side, 0, 0)
    elif k == D_PAY:
        paid = top_arg(state, 0)
        if a == A_PAY_DONE:
            pop_decision(state)
            if paid >= 3:
                push_decision(state, D_PLACE_PATH, p, paid // 3)
        elif a == A_PAY_TOKEN:
            state[mat_spores_at(p)] -= 1
            set_top_arg(state, 0, paid + 3)
        else:
            t = pay_card_args(a)
            lose_public(state, cfg, p, t)
            to_discard(state, t, 1)
            set_top_arg(state, 0, paid + cfg[cfg_spore_at(t)])
    elif k == D_PLACE_PATH:
        e = place_path_args(a)
        left = top_arg(state, 0) - 1
        if left <= 0:
            pop_decision(state)
        else:
            set_top_arg(state, 0, left)
        place_path(state, cfg, p, e)
        push_path_window(state, cfg, p, e)
        if state[npaths_at(p)] > MAX_PATHS:
            push_decision(state, D_REMOVE_OWN, p, e)
    elif k == D_REMOVE_OWN:
        pop_decision(state)
        remove_path(state, p, remove_own_args(a))
    elif k == D_ATT_CARD:
        t = card_args(a)
        pop_decision(state)
        lose_hidden(state, cfg, p, t, -1)
        state[c_card_at(0)] = t
        if hand_size(state, state[C_DEF]) > 0:
            push_decision(state, D_DEFEND, state[C_DEF])
    elif k == D_DEFEND:
        pop_decision(state)
        if a != A_NO_DEFENSE:
            t = card_args(a)
            lose_hidden(state, cfg, p, t, -1)
            state[c_card_at(1)] = t
            state[C_DEFENDED] = 1
    elif k == D_INKY_GIVE:
        recv = top_arg(state, 0)
        e = top_arg(state, 1)
        given = top_arg(state, 2)
        if a == A_PASS:
            pop_decision(state)
            remove_path(state, p, e)
        else:
            t = card_args(a)
            lose_hidden(state, cfg, p, t, recv)
            state[hand_at(recv, t)] += 1
            state[known_at(p, recv, t)] += 1
            if given + 1 >= 2:
                pop_decision(state)
            else:
                set_top_arg(state, 2, given + 1)
    elif k == D_RUSSULA_PICK:
        i = top_arg(state, 0)
        g = place_gatherer_args(a)
        if i < 2:
            set_top_arg(state, 1 + i, g)
            set_top_arg(state, 0, i + 1)
        else:
            l0 = top_arg(state, 1)
            l1 = top_arg(state, 2)
            pop_decision(state)
            use_ability(state, cfg, p, AB_RUSSULA, l0, l1, g)
    elif k == D_HERO_PICK:   # variant: hero_tavern
        _TV.step_pick(state, p, hero_pick_args(a))
    elif k == D_LEGEND:   # variant: legends
        _TV.step_legend(state, cfg, p, legend_keep_args(a))
    elif k == D_BUY:   # variant: emsporium
        if a == A_PAY_DONE:
            pop_decision(state)
        elif a == A_PAY_TOKEN:
            _EM.pay_token(state, p)
        elif A_PAY_CARD <= a < A_PAY_CARD + T:
            _EM.pay_card(state, cfg, p, pay_card_args(a))
        else:
            _EM.buy_item(state, cfg, p, buy_item_args(a))
    elif k == D_ARRANGE:
        i = top_arg(state, 0)
        kk = top_arg(state, 1)
        j = arrange_args(a)
        top = state[NDECK_N] - 1
        x = state[ndeck_at(top - i)]
        state[ndeck_at(top - i)] = state[ndeck_at(top - j)]
        state[ndeck_at(top - j)] = x
        if i + 1 >= kk - 1:
            pop_decision(state)
        else:
            set_top_arg(state, 0, i + 1)


@njit(cache=True)
def step(state, action, cfg, work):
    a = action
    if decision_depth(state) > 0:
        step_decision(state, cfg, a, work)
    else:
        ph = state[PHASE]
        p = state[TP]
        if ph == PH_EXPLORE or ph == PH_PLACE:
            state[gatherer_at(p, state[PLACED])] = TAVERN if a == A_PLACE_TAVERN else place_gatherer_args(a)   # variant: hero_tavern
            after_place(state, cfg)
        elif ph == PH_DISCARD:
            t = card_args(a)
            lose_public(state, cfg, p, t)
            to_discard(state, t, 1)
        else:
            step_action_phase(state, cfg, a, work)
    advance(state, cfg, work)


# =============================================================================================
# observation
# =============================================================================================

@njit(cache=True)
def observe(state, player, cfg, out, work):
    out[:] = 0.0
    n = cfg[CFG_NP]
    me = _TM.observer_seat(state, player)   # variant: team (the player itself, except in the 2-player game)
    ne = cfg[CFG_NE]
    ng = cfg[CFG_NG]
    out[O_PHASE + state[PHASE]] = 1.0
    depth = decision_depth(state)
    if state[DONE] == 0:
        actor = top_player(state) if depth > 0 else state[TP]
        out[O_ACTOR + (actor - me) % n] = 1.0
        if depth > 0:
            if top_kind(state) < NUM_D_BASE:
                out[O_DKIND + top_kind(state)] = 1.0
            elif top_kind(state) < NUM_D_ITEMS:   # the items' variant decisions (their field exists with them on)
                out[O_VDKIND + top_kind(state) - NUM_D_BASE] = 1.0
            # (variant: team: its decisions are in its own block, team_observe)
    out[O_TURNP + (state[TP] - me) % n] = 1.0
    out[O_FIRST + (state[FIRST] - me) % n] = 1.0
    lim = cfg[CFG_TURN_LIMIT]
    out[O_TURN] = min(1.0, state[TURN] / lim) if lim > 0 else 0.0
    out[O_ACTIONS] = state[ACTIONS] / MAX_ACTIONS_PER_TURN
    # the ability in question
    focus_edge = -1
    lvl = -1
    if depth > 0:
        k = top_kind(state)
        if k == D_FA:
            lvl = top_arg(state, 0)
        elif k == D_PATHWIN:
            focus_edge = top_arg(state, 1)
            out[O_AB_TARGET + (top_arg(state, 0) - me) % n] = 1.0
        elif k == D_INKY_GIVE or k == D_REMOVE_OWN:
            focus_edge = top_arg(state, 1) if k == D_INKY_GIVE else top_arg(state, 0)
        elif k == D_USE:
            out[O_AB + top_arg(state, 0)] = 1.0
            out[O_AB_USER + (top_player(state) - me) % n] = 1.0
            out[O_AB_SIDE + top_arg(state, 1)] = 1.0
        elif k == D_PAY:
            out[O_PAY] = min(1.0, top_arg(state, 0) / MAX_PAID)  # the last payment may overshoot 30
        elif k == D_PLACE_PATH:
            out[O_PAY + 1] = min(1.0, top_arg(state, 0) / 10.0)
        elif k == D_RUSSULA_PICK:
            for i in range(top_arg(state, 0)):
                out[O_AB_LOC + top_arg(state, 1 + i)] += 1.0
        if lvl < 0:
            for lv in range(depth - 1, -1, -1):
                if decision_at(state, lv, 0) == D_RESOLVE:
                    lvl = lv
                    break
    if lvl >= 0:
        ab = decision_at(state, lvl, 2)
        x1 = decision_at(state, lvl, 3)
        x2 = decision_at(state, lvl, 4)
        x3 = decision_at(state, lvl, 5)
        out[O_AB + ab] = 1.0
        out[O_AB_USER + (decision_at(state, lvl, 1) - me) % n] = 1.0
        if ab == AB_AD_REACT or ab == AB_CHICKEN_DEF or ab == AB_CHICKEN_ATT or ab == AB_PUFF \
                or ab == AB_LIBERTY or ab == AB_THIEF_STEAL:
            out[O_AB_SIDE + x1] = 1.0
        elif ab == AB_REINF:
            out[O_AB_SIDE + x2] = 1.0
            out[O_AB_KIND + x1] = 1.0
        elif ab == AB_DECEIVE:
            out[O_AB_KIND + x1] = 1.0
        elif ab == AB_PARROT_VIEW:
            out[O_AB_TARGET + (x1 - me) % n] = 1.0
        elif ab == AB_PARROT_ATT:
            focus_edge = x1
        elif ab == AB_INKY or ab == AB_PENNY:
            out[O_AB_TARGET + (x1 - me) % n] = 1.0
            focus_edge = x2
        elif ab == AB_BUILD_REMOVE:
            out[O_AB_KIND + x1] = 1.0
            focus_edge = x2
        elif ab == AB_SPAWN:
            out[O_AB_KIND + x1] = 1.0
            out[O_AB_LOC + x2] += 1.0
        elif ab == AB_THIEF_PAIR:
            out[O_AB_LOC + x3] += 1.0
        elif ab == AB_RUSSULA:
            out[O_AB_LOC + x1] += 1.0
            out[O_AB_LOC + x2] += 1.0
            out[O_AB_LOC + x3] += 1.0
        elif ab == AB_TRUFFLE or ab == AB_WITCH:
            out[O_AB_SIDE + x1] = 1.0
    # combat
    if state[C_ACTIVE]:
        att = state[C_ATT]
        dfd = state[C_DEF]
        out[O_C] = 1.0
        out[O_C + 1] = state[C_DEFENDED]
        out[O_C + 2] = state[C_REVEALED]
        w = state[C_WINNER]
        if w >= 0:
            out[O_C + 3 + w] = 1.0
        out[O_C + 5] = min(1.0, state[c_bonus_at(0)] / 20.0)
        out[O_C + 6] = min(1.0, state[c_bonus_at(1)] / 20.0)
        out[O_C + 7] = 1.0 if me == att or me == dfd else 0.0
        out[O_C_WHO + (att - me) % n] = 1.0
        out[O_C_WHO + MAXP + (dfd - me) % n] = 1.0
        out[O_C_STAGE + state[C_STAGE]] = 1.0
        for side in range(2):
            cc = state[c_card_at(side)]
            if cc >= 0 and (state[C_REVEALED] or combat_player(state, side) == me):
                out[O_C_CARD + side * T + cc] = 1.0
            r = state[c_repl_at(side)]
            if r >= 0:
                out[O_C_REPL + side * T + r] = 1.0
            out[O_C_NOTHIEF + side] = state[c_nothief_at(side)]
        if focus_edge < 0:
            focus_edge = state[C_EDGE]
    if focus_edge < 0:
        focus_edge = state[LAST_EDGE]
    if focus_edge >= 0:
        out[O_FOCUS_EDGE + focus_edge] = 1.0
    # board
    for e in range(ne):
        for s in range(2):
            q = state[paths_at(e, s)] - 1
            if q >= 0:
                out[O_PATHS + e * MAXP + (q - me) % n] = 1.0
        if cfg[cfg_permanent_at(e)] >= 0:
            out[O_PERM + e] = 1.0
    bonded_edges(state, cfg, me, work)
    for g in range(ng):
        out[O_LOC_NUT + g] = state[loc_nut_at(g)]
        out[O_LOC_SPORES + g] = state[loc_spores_at(g)]
        out[O_BONDED + g] = bonded_count(cfg, g, work)
        out[O_BN + g] = (state[BN_TRIGGER] >> g) & 1
    for q in range(n):
        o = (q - me) % n
        home = 0
        for i in range(3):
            g = state[gatherer_at(q, i)]
            if g >= 0:
                if g < G:   # variant: hero_tavern (a gatherer on the Tavern: the tavern_gatherers field)
                    out[O_LOC_GATH + g * MAXP + o] += 1.0
            else:
                home += 1
        b = O_PLAYERS + o * 8
        out[b] = 1.0
        out[b + 1] = hand_size(state, q)
        out[b + 2] = state[mat_spores_at(q)]
        out[b + 3] = state[mat_nut_at(q)]
        out[b + 4] = state[ctok_at(q)]
        out[b + 5] = state[npaths_at(q)]
        out[b + 6] = home
        out[b + 7] = (state[BN_PLAYED] >> q) & 1
        if o > 0:
            for t in range(T):
                out[O_KNOWN + (o - 1) * T + t] = state[known_at(me, q, t)]
    for t in range(T):
        out[O_HAND + t] = state[hand_at(me, t)]
        out[O_DISCARD + t] = state[discard_at(t)]
        out[O_LIMBO + t] = state[limbo_at(t)]
        out[O_CAREA + t] = state[carea_at(t)]
    out[O_DECKS] = state[DECK_N]
    out[O_DECKS + 1] = state[NDECK_N]
    for kd in range(NK):
        out[O_NDISCARD + kd] = state[ndiscard_at(kd)]
    top = state[NDECK_N]
    for i in range(top):
        pos = top - 1 - i
        if state[nseen_at(me, pos)]:
            out[O_NKNOWN + i * NK + state[ndeck_at(pos)]] = 1.0
    for t in range(T):
        out[O_DECK_TOP + t] = state[deck_top_at(t)]
    for kd in range(NK):
        out[O_NDECK_TOP + kd] = state[ndeck_top_at(kd)]
    out[O_TOP_N] = state[DECK_TOP_N]
    out[O_TOP_N + 1] = state[NDECK_TOP_N]
    out[O_SUPPLY] = spore_supply(state, cfg)
    out[O_SUPPLY + 1] = nutrient_supply(state, cfg)
    out[O_SUPPLY + 2] = ctok_supply(state)
    if cfg[CFG_EMS]:   # variant: emsporium
        _EM.observe_emsporium(state, cfg, me, n, out, O_ITEMS, O_SHOP, O_IDECK, O_BUY,
                              depth > 0 and top_kind(state) == D_BUY)
    if _TV.on(cfg):   # variant: hero_tavern, legends
        _TV.observe_tavern(state, cfg, me, n, out, O_HEROES, O_HERO_UP, O_HDECK, O_DEAL, O_TAVERN, O_PICKS)
    if cfg[CFG_TEAM]:   # variant: team
        _TM.team_observe(state, cfg, me, out, work)
    if cfg[CFG_BY_TYPE]:   # mycelium_v1: the Exchange block after v0's fields
        _EX.observe_exchange(state, cfg, me, n, out)


# the variants' modules (imported as modules: they import this one's names, and their
# functions are looked up when a kernel compiles)
from . import emsporium as _EM  # noqa: E402
from . import tavern as _TV  # noqa: E402
# variant: team (a module like the two above: team.py imports this one's names, so importing
# team.py first works too; its kernels use the helpers above)
from . import team as _TM  # noqa: E402
# mycelium_v1: the Exchange by Mushling Card Type (exchange.py imports this one's names too)
from . import exchange as _EX  # noqa: E402

install_batch_kernels(globals())

from . import validate as _checks  # noqa: E402  (the state check's field groups: they use this module)
