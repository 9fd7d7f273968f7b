"""Mycelium's observation layout: what one player sees, as named fields of one float32 vector
(:mod:`.observation` fills it; the spec table of ``env.py`` lists it)."""

from mushgym.core import Layout

from .layout import (
    MAX_EDGES,
    MAX_GATHER_LOCS,
    MAX_GATHER_TAKE,
    MAX_NUTRIENT_KINDS,
    MAXP,
    NUM_AB,
    NUM_CARD_TYPES,
    NUM_CS,
    NUM_D_BASE,
    NUM_D_ITEMS,
    NUM_HEROES,
    NUM_ITEM_CARDS,
    NUM_ITEM_TYPES,
    NUM_MUSHLING_CARDS,
    NUM_MUSHLING_KINDS,
    NUM_NUTRIENT_CARDS,
    NUM_PHASES,
    NUTRIENT_TOKENS,
    SPORE_TOKENS,
    WIN_NUTRIENTS,
)

OBSERVATION = Layout("observation")
O_PHASE = OBSERVATION.field(
    "phase", NUM_PHASES, doc="phase one-hot (explore, nutrient, action, place, discard, over)", low=0, high=1
)
O_DKIND = OBSERVATION.field(
    "decision", NUM_D_BASE, doc="kind of the pending decision on top of the stack, one-hot", low=0, high=1
)
O_ACTOR = OBSERVATION.field("actor", MAXP, doc="player to act, by seat offset from the observer", low=0, high=1)
O_TURNP = OBSERVATION.field("turn_player", MAXP, doc="turn player, by seat offset", low=0, high=1)
O_FIRST = OBSERVATION.field("first_player", MAXP, doc="first player, by seat offset", low=0, high=1)
O_TURN = OBSERVATION.field("turn", doc="turns completed / turn limit", low=0, high=1)
O_ACTIONS = OBSERVATION.field(
    "actions_used", doc="attacks and Amethyst Deceiver exchanges this Action Phase / 30", low=0, high=1
)
O_AB = OBSERVATION.field(
    "ability",
    NUM_AB,
    doc="the ability in question (Fly Agaric window, use prompt, ability in flight), one-hot",
    low=0,
    high=1,
)
O_AB_USER = OBSERVATION.field("ability_user", MAXP, doc="its user, by seat offset", low=0, high=1)
O_AB_SIDE = OBSERVATION.field("ability_side", 2, doc="combat side it concerns (attacker, defender)", low=0, high=1)
O_AB_KIND = OBSERVATION.field(
    "ability_kind",
    NUM_MUSHLING_KINDS,
    doc="card type it names (Amethyst Deceiver's pick, reinforcement)",
    low=0,
    high=1,
)
O_AB_LOC = OBSERVATION.field(
    "ability_locs",
    MAX_GATHER_LOCS + 1,
    doc="locations it names (spawn or thief cave, Russula's 3 placements: counts; the last: the Hero Tavern)",
    low=0,
    high=3,
)
O_AB_TARGET = OBSERVATION.field(
    "ability_target", MAXP, doc="player it names (Parrot view, path builder), by seat offset", low=0, high=1
)
O_FOCUS_EDGE = OBSERVATION.field(
    "focus_edge", MAX_EDGES, doc="edge in question (new Path, attack target, Path to remove), one-hot", low=0, high=1
)
O_PAY = OBSERVATION.field("pay", 2, doc="Build: spore value paid / 30, Paths left to place / 10", low=0, high=1)
O_C = OBSERVATION.field(
    "combat",
    8,
    doc="combat: active, defended, revealed, winner attacker, winner defender, bonus A / 20, bonus D / 20, I am a combatant",  # noqa: E501 (a literal that reads best on one line)
    low=0,
    high=1,
)
O_C_WHO = OBSERVATION.field(
    "combat_players", (2, MAXP), dims=("side", "offset"), doc="attacker and defender by seat offset", low=0, high=1
)
O_C_STAGE = OBSERVATION.field("combat_stage", NUM_CS, doc="combat stage one-hot", low=0, high=1)
O_C_CARD = OBSERVATION.field(
    "combat_cards",
    (2, NUM_MUSHLING_KINDS),
    dims=("side", "kind"),
    doc="face-down card of each side once revealed (or my own)",
    low=0,
    high=1,
)
O_C_REPL = OBSERVATION.field(
    "combat_repl",
    (2, NUM_MUSHLING_KINDS),
    dims=("side", "kind"),
    doc="card an Amethyst Deceiver drew in its place",
    low=0,
    high=1,
)
O_C_NOTHIEF = OBSERVATION.field(
    "combat_nothief", 2, doc="Thief of this side cancelled by a Common Puffball", low=0, high=1
)
O_PATHS = OBSERVATION.field(
    "paths",
    (MAX_EDGES, MAXP),
    dims=("edge", "offset"),
    doc="a Path of the player at this seat offset on the edge",
    low=0,
    high=1,
)
O_PERM = OBSERVATION.field(
    "permanent", MAX_EDGES, dims=("edge",), doc="the edge holds a permanent Colony Path", low=0, high=1
)
O_LOC_NUT = OBSERVATION.field(
    "loc_nutrients", MAX_GATHER_LOCS, doc="Nutrient Tokens on each gather location", low=0, high=NUTRIENT_TOKENS
)
O_LOC_SPORES = OBSERVATION.field(
    "loc_spores", MAX_GATHER_LOCS, doc="Spore Tokens on each gather location", low=0, high=SPORE_TOKENS
)
O_LOC_GATH = OBSERVATION.field(
    "loc_gatherers",
    (MAX_GATHER_LOCS, MAXP),
    dims=("gloc", "offset"),
    doc="gatherers of each seat offset on each location",
    low=0,
    high=3,
)
O_BONDED = OBSERVATION.field("my_bonded", MAX_GATHER_LOCS, doc="my bonded Paths on each location", low=0, high=6)
O_BN = OBSERVATION.field(
    "bn_trigger", MAX_GATHER_LOCS, doc="a Nutrient was placed on this tree in this Nutrient Card Phase", low=0, high=1
)
O_PLAYERS = OBSERVATION.field(
    "players",
    (MAXP, 8),
    dims=("offset", "value"),
    doc="per seat offset: present, hand size, mat spores, mat nutrients, combat tokens, Paths, gatherers home, played Bird's Nest this phase",  # noqa: E501 (a literal that reads best on one line)
    low=0,
    high=NUM_MUSHLING_CARDS,
)
O_HAND = OBSERVATION.field("my_hand", NUM_MUSHLING_KINDS, doc="my cards per type", low=0, high=NUM_MUSHLING_CARDS)
O_KNOWN = OBSERVATION.field(
    "known",
    (MAXP - 1, NUM_MUSHLING_KINDS),
    dims=("offset", "kind"),
    doc="cards I know seat offset + 1 still holds (Parrot Toadstool, thefts, gifts)",
    low=0,
    high=NUM_MUSHLING_CARDS,
)
O_DISCARD = OBSERVATION.field(
    "discard", NUM_MUSHLING_KINDS, doc="mushling discard pile per type", low=0, high=NUM_MUSHLING_CARDS
)
O_LIMBO = OBSERVATION.field(
    "limbo", NUM_MUSHLING_KINDS, doc="cards of abilities in flight", low=0, high=NUM_MUSHLING_CARDS
)
O_CAREA = OBSERVATION.field(
    "carea", NUM_MUSHLING_KINDS, doc="reinforcements played in this combat", low=0, high=NUM_MUSHLING_CARDS
)
O_DECKS = OBSERVATION.field("decks", 2, doc="mushling deck size, nutrient deck size", low=0, high=NUM_MUSHLING_CARDS)
O_NDISCARD = OBSERVATION.field(
    "nutrient_discard", MAX_NUTRIENT_KINDS, doc="nutrient discard pile per kind", low=0, high=NUM_NUTRIENT_CARDS
)
O_DECK_TOP = OBSERVATION.field(
    "deck_top",
    NUM_MUSHLING_KINDS,
    doc="the public set the top mushling cards come from (a Witch's Hat's shuffle)",
    low=0,
    high=NUM_MUSHLING_CARDS,
)
O_NDECK_TOP = OBSERVATION.field(
    "nutrient_top",
    MAX_NUTRIENT_KINDS,
    doc="the nutrient cards a Witch's Hat put on top that are still there (public)",
    low=0,
    high=NUM_NUTRIENT_CARDS,
)
O_TOP_N = OBSERVATION.field(
    "top_n", 2, doc="how many cards on top of the mushling / nutrient deck those are", low=0, high=NUM_MUSHLING_CARDS
)
O_NKNOWN = OBSERVATION.field(
    "nutrient_known",
    (NUM_NUTRIENT_CARDS, MAX_NUTRIENT_KINDS),
    dims=("from_top", "nkind"),
    doc="nutrient cards I know, by position from the top of the deck",
    low=0,
    high=1,
)
O_SUPPLY = OBSERVATION.field("supply", 3, doc="supply of spores, nutrients, combat tokens", low=0, high=SPORE_TOKENS)
# the Exchange's choice of its 2 cards (exchange.py; public: everyone sees the Exchange and the cards discarded)
O_X_DECISION = OBSERVATION.field(
    "exchange_decision", doc="the pending decision is the Exchange's choice of its 2 cards", low=0, high=1
)
O_X_TYPE = OBSERVATION.field(
    "exchange_type",
    NUM_CARD_TYPES,
    doc="its Mushling Card Type, one-hot (builder, thief, enforcer, warrior, reinforcement, wizard, scout, worker)",
    low=0,
    high=1,
)
O_X_OPTION = OBSERVATION.field(
    "exchange_option",
    1 + MAXP,
    doc="its action: 0 draw a card, 1 + k spawn a spore in the Spore Cave of seat offset k",
    low=0,
    high=1,
)
O_X_FIRST = OBSERVATION.field(
    "exchange_first", NUM_MUSHLING_KINDS, doc="the first of its 2 cards, already discarded, one-hot", low=0, high=1
)
OBS_SIZE_BASE = OBSERVATION.size  # the observation without variants (options all off): the fields above
# variant fields (present when emsporium, hero_tavern or legends is on; also when team is on: the
# spaces are the prefix up to the last block of an option that is on, see MyceliumGame.make_spec)
O_VDKIND = OBSERVATION.field(
    "variant_decision",
    NUM_D_ITEMS - NUM_D_BASE,
    doc="variant decision on top (buy, hero pick, legend), one-hot",
    low=0,
    high=1,
)
O_ITEMS = OBSERVATION.field(
    "items", (MAXP, NUM_ITEM_TYPES), dims=("offset", "item"), doc="Emsporium items owned, by seat offset", low=0, high=2
)
O_SHOP = OBSERVATION.field("shop", NUM_ITEM_TYPES, doc="Emsporium items face up in the shop, per type", low=0, high=2)
O_IDECK = OBSERVATION.field("item_deck", doc="cards in the item deck", low=0, high=NUM_ITEM_CARDS)
O_BUY = OBSERVATION.field("buy", 2, doc="Buy: spore value paid / 30, value left to spend / 30", low=0, high=1)
O_HEROES = OBSERVATION.field(
    "heroes", (MAXP, NUM_HEROES), dims=("offset", "hero"), doc="Hero Tavern: heroes held, by seat offset", low=0, high=1
)
O_HERO_UP = OBSERVATION.field("hero_up", NUM_HEROES, doc="heroes face up at the Tavern", low=0, high=1)
O_HDECK = OBSERVATION.field("hero_deck", doc="heroes in the hero deck", low=0, high=NUM_HEROES)
O_DEAL = OBSERVATION.field(
    "legend_deal",
    (2, NUM_HEROES),
    dims=("k", "hero"),
    doc="Legends: the 2 heroes dealt to me, until I keep one",
    low=0,
    high=1,
)
O_TAVERN = OBSERVATION.field(
    "tavern_gatherers", MAXP, doc="gatherers on the Hero Tavern, by seat offset", low=0, high=3
)
O_PICKS = OBSERVATION.field("hero_picks", doc="heroes still to recruit in this Gather Phase", low=0, high=3)
OBS_SIZE_ITEMS = OBSERVATION.size  # the observation with the items' block (emsporium / hero_tavern / legends)
# variant: team (also the 2-player game)
O_TEAM_DKIND = OBSERVATION.field(
    "team_decision", 2, doc="Team: the pending decision is a Trade offer to answer / a gathering choice", low=0, high=1
)
O_CONTROLLED = OBSERVATION.field(
    "controlled", MAXP, doc="Team: seats (by offset) I act for: 0, and 2 in the 2-player game", low=0, high=1
)
O_TRADE_OFFER = OBSERVATION.field(
    "trade_offer",
    NUM_MUSHLING_KINDS + 1,
    doc="Team: the kind offered in the pending Trade (23: a Spore Token)",
    low=0,
    high=1,
)
O_TRADE_BACK = OBSERVATION.field(
    "trade_back",
    NUM_MUSHLING_KINDS + 1,
    doc="Team: the kind the teammate gives back, for the proposer to accept (23: a Spore Token)",
    low=0,
    high=1,
)
O_TRADE_USED = OBSERVATION.field("trade_used", doc="Team: the turn player has traded this turn", low=0, high=1)
O_GATHER_LOC = OBSERVATION.field(
    "gather_loc", MAX_GATHER_LOCS, doc="Team: the location of the pending gathering choice", low=0, high=1
)
O_GATHER_MAX = OBSERVATION.field(
    "gather_max",
    doc="Team: the most tokens that choice may take (up to 3, 6 with Backpacks)",
    low=0,
    high=MAX_GATHER_TAKE,
)
O_TEAM_NUT = OBSERVATION.field(
    "team_nutrients", 2, doc="Team: combined Nutrients of my team and of the other team", low=0, high=2 * WIN_NUTRIENTS
)
O_PARTNER_HAND = OBSERVATION.field(
    "partner_hand",
    NUM_MUSHLING_KINDS,
    doc="2-player game: the hand of my other Colony (0 in the Team variant)",
    low=0,
    high=NUM_MUSHLING_CARDS,
)
OBS_SIZE = OBSERVATION.size
OBSERVATION.generated(globals(), prefix="obs_")
# fmt: off
from .generated.observation_layout import (  # noqa: E402,F401  (generated from OBSERVATION by `mushgym generate`)  # isort: skip
    obs_ability_at, obs_ability_kind_at, obs_ability_locs_at, obs_ability_side_at, obs_ability_target_at,
    obs_ability_user_at, obs_actor_at, obs_bn_trigger_at, obs_buy_at, obs_carea_at, obs_combat_at,
    obs_combat_cards_at, obs_combat_nothief_at, obs_combat_players_at, obs_combat_repl_at,
    obs_combat_stage_at, obs_controlled_at, obs_decision_at, obs_deck_top_at, obs_decks_at, obs_discard_at,
    obs_exchange_first_at, obs_exchange_option_at, obs_exchange_type_at, obs_first_player_at,
    obs_focus_edge_at, obs_gather_loc_at, obs_hero_up_at, obs_heroes_at, obs_items_at, obs_known_at,
    obs_legend_deal_at, obs_limbo_at, obs_loc_gatherers_at, obs_loc_nutrients_at, obs_loc_spores_at,
    obs_my_bonded_at, obs_my_hand_at, obs_nutrient_discard_at, obs_nutrient_known_at, obs_nutrient_top_at,
    obs_partner_hand_at, obs_paths_at, obs_pay_at, obs_permanent_at, obs_phase_at, obs_players_at,
    obs_shop_at, obs_supply_at, obs_tavern_gatherers_at, obs_team_decision_at, obs_team_nutrients_at,
    obs_top_n_at, obs_trade_back_at, obs_trade_offer_at, obs_turn_player_at, obs_variant_decision_at,
)
# fmt: on
