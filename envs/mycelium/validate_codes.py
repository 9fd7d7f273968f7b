"""The codes of Mycelium's state check (:mod:`.validate`, :mod:`.validate_stack`) and what
each means (:data:`VALIDATION_ERRORS`, read by ``MyceliumGame.validate``'s message)."""

from numba import njit

from .layout import V_HEROES, V_ITEMS, V_TEAM

# codes (a code times 1000 plus a detail is returned; 0 = a consistent state)
V_OK = 0
V_PLAYER = 1
V_LOCATION = 2
V_CARDS = 3
V_NUTRIENT_CARDS = 4
V_DECK_TOP = 5
V_TOKENS = 6
V_COMBAT = 7
V_KIND = 8
V_ARG = 9
V_ARRANGE = 10
V_RNG = 11
V_USE = 12
V_SEAT_SLOTS = 13
V_TURN = 14
V_EXPLORE = 15
V_END = 16
V_LIMBO = 17
V_KNOWN = 18
V_PILE = 19
V_SEEN = 20
V_TOKEN_PLACE = 21
V_PATHS = 22
V_PATH_COUNT = 23
V_STACK_CLEAR = 24
V_STACK = 25
V_FA = 26
V_TOP = 27
V_COMBAT_PATH = 31  # after the variants' codes (layout.py: V_ITEMS 28, V_HEROES 29, V_TEAM 30)
V_SHOP = 32

VALIDATION_ERRORS = {
    V_RNG: "the random generator's state is all zero",
    V_PLAYER: "a seat, a Path owner or a decision's player is not a player of this {n}-player game (slot {d})",
    V_LOCATION: "a gatherer of player {d} is on no location of this board",
    V_CARDS: "the mushling cards of type {d}{name} do not add up to the deck's copies (or lie in an absent seat's hand)",  # noqa: E501 (a literal that reads best on one line)
    V_NUTRIENT_CARDS: "the nutrient deck and discard pile do not hold the game's nutrient cards (kind {d})",
    V_DECK_TOP: "a Witch's Hat's public set on top of a deck is not what the deck's top holds",
    V_TOKENS: "more tokens on mats and locations than the supply holds, or a player with 10 Nutrients (a team with "
    "15 under the Team rules) in a running game",
    V_COMBAT: "the combat fields are inconsistent (players, edge, cards, stage, bonuses; idle values outside a combat)",
    V_COMBAT_PATH: "the combat's edge does not hold a Path the attacker may attack: until the battle is decided, "
    "the edge must hold a Path of the defender that is not its permanent Colony Path (and not a "
    "teammate's under the Team rules); once the attacker has won, that Path is gone (detail {d}: "
    "0 no such Path, 1 the Path still there after the attacker won, 2 the defender is the "
    "attacker's teammate)",
    V_KIND: "a decision kind is misplaced on the stack (stack entry {d})",
    V_ARG: "decision stack entry {d} has an argument outside its kind's range",
    V_ARRANGE: "decision stack entry {d} (arrange nutrient cards) names more cards than the deck holds",
    V_USE: "decision stack entry {d} offers an ability that is not a revealed card's reaction, or not its own",
    V_SEAT_SLOTS: "a slot of a seat beyond the player count is not empty (detail: the seat)",
    V_TURN: "the phase, turn, turn player, gatherers placed or actions used do not fit together",
    V_EXPLORE: "the gatherers placed do not follow the Explore/Place Phase (player {d})",
    V_END: "the end of the game is inconsistent (phase, winner, Nutrients, a pending decision or combat after the end)",
    V_LIMBO: "the cards of type {d}{name} in flight are not those of the abilities on the decision stack",
    V_KNOWN: "a player 'knows' a card that another player (detail: viewer * 4 + holder) does not hold",
    V_PILE: "a deck slot above the deck's top is not empty",
    V_SEEN: "a player has seen a nutrient card above the nutrient deck's top, or is an absent seat",
    V_TOKEN_PLACE: "tokens lie on a location the rules never put them on (location {d})",
    V_PATHS: "the Paths on edge {d} are impossible (two of one player, or a permanent Colony Path missing)",
    V_PATH_COUNT: "player {d}'s count of Paths is not the Paths on the board, or a 21st Path is not being removed",
    V_STACK_CLEAR: "a decision-stack entry above the top is not cleared, or the depth is impossible",
    V_STACK: "decision stack entry {d} does not fit the phase, the combat or the entries below it",
    V_FA: "the Fly Agaric window or Fly Agaric at stack entry {d} does not concern an ability below it",
    V_TOP: "the decision to take is one the game never asks (a finished step, one with no answer, or one the rules force)",  # noqa: E501 (a literal that reads best on one line)
    V_SHOP: "the Emsporium's shop slot {d} is empty in the Explore Phase while the item deck holds items "
    "(a slot bought in a turn is refilled at the turn's end)",
    # the variants' codes (emsporium.py, tavern.py, team.py)
    V_ITEMS: "the Emsporium item cards of type {d}{name} are not the variant's 2 copies (owned by the players, "
    "in the shop, in the item deck; none without the variant or in an absent seat), or the item deck's "
    "slots above its top are not empty",
    V_HEROES: "hero {d}{name} is not exactly once (none without the Tavern) among the players' heroes, the "
    "face-up heroes, the hero deck and the Legends deals, or the deals and face-up heroes do not fit "
    "the Legends decisions",
    V_TEAM: "the Team fields do not fit this game's options (detail: 0-3 the seat whose agent_of is wrong; "
    "10 a Trade flag, 11 a gathering choice outside the Team rules; 12 a Colony above 10 Nutrients; "
    "13 a Trade offer of a card the proposer does not hold, or a card given back the teammate does not "
    "hold; 14 a gathering choice not before the location asked; 15 a gathering asked where nothing can be taken) (detail {d})",  # noqa: E501 (a literal that reads best on one line)
}
assert (
    len(VALIDATION_ERRORS) == V_SHOP
    and V_SHOP == V_COMBAT_PATH + 1
    and V_COMBAT_PATH == V_TEAM + 1
    and V_ITEMS == V_TOP + 1
    and V_HEROES == V_ITEMS + 1
    and V_TEAM == V_HEROES + 1
)

DETAIL = 1000  # a code times DETAIL plus a detail (a seat, a type, a stack level)


@njit(cache=True)
def error(code, detail):
    return code * DETAIL + detail
