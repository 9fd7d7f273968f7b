"""Mycelia's second reading of both rulebooks (RULES.md, each section's *choice* or *fixed*): one
scenario per finding, its expectation taken from the rulebook's words (quoted in each docstring)."""

from __future__ import annotations

import numpy as np
import pytest
from mycelia_helpers import WORK, legal_tiles, scenario

from mushgym.envs.mycelia import expansion as NAK
from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.data import DECAYS
from mushgym.envs.mycelia.game import MyceliaGame, decode_action, encode_action

NA = "north_america"
RED, BLUE = 0, 1
SYM = {"O": 0, "U": 1, "A": 2}
# t0 points up at (0,0); its bottom edge A opens the cone: t1 (distance 1), t2 and t3 (distance 2),
# t6 and t7 below them (distance 3); t4 and t5 are t0's other neighbours
BOARD = [
    (0, 0, "red"),
    (0, 1, "green"),
    (-1, 1, "brown"),
    (1, 1, "yellow"),
    (-1, 0, "green"),
    (1, 0, "brown"),
    (-1, 2, "red"),
    (1, 2, "yellow"),
]


@pytest.fixture(scope="module")
def base():
    return MyceliaGame()


@pytest.fixture(scope="module")
def na():
    return MyceliaGame(expansion=NA)


def settle(game, s):
    R.settle(s, game.config, WORK[R.W_MASK : R.W_MASK + R.NUM_ACTIONS], WORK)


def legal(game, s):
    return [decode_action(int(a)) for a in np.flatnonzero(game.legal_mask(s))]


def card_with_decay(game, decay, base_only=True):
    return next(c for c in range(R.NC_BASE if base_only else R.NC) if DECAYS[int(game.cards.decay[c])] == decay)


def spores_on(s, t, p):
    return int(s[R.SP + t * R.MAXS + p])


# --- 11: a chain of Grandfather Tree pushes belongs to the spore pushed --------------------------
def test_tree_push_chain_is_kept_per_spore(na):
    """ "You can redirect spores through multiple G creating a daisy chain effect": the trees a
    chain went through are those of the spore pushed. A blue spore pushed from tree t1 into tree
    t2 cannot go back to t1; the red spore that landed on t2 itself never went through t1 and may
    be pushed there."""
    s = scenario(na, BOARD, mothers={RED: 4, BLUE: 5}, trees={1: RED, 2: RED})
    R.start_action(s, R.T_SPORE)
    NAK.begin_spore(s, RED)
    R.put_spore(s, BLUE, 1)  # a blue spore on t1 (pushed first: the lower tile)
    R.put_spore(s, RED, 2)  # a red spore on t2
    settle(na, s)
    assert na._top(s)[:4] == (R.D_TREE_PUSH, RED, 1, BLUE)
    na.step_inplace(s, encode_action("tile", 2))  # the blue spore into tree t2: its chain goes on
    # t2's neighbours: t1 (a tree it went through) and t6: pushed on to t6, the only way left
    assert spores_on(s, 6, BLUE) == 1 and spores_on(s, 2, BLUE) == 0
    # then the red spore on t2, a fresh chain: t1 is open to it
    assert na._top(s)[:4] == (R.D_TREE_PUSH, RED, 2, RED)
    assert legal_tiles(na, s) == [1, 6]
    na.check_invariants(s)


# --- 12: a sapling is something on a tile ------------------------------------------------------
def test_a_sapling_tile_is_not_an_empty_triangle(na):
    """The Prince: "An empty triangle tile should mean a tile with nothing on it. But if this is
    not possible then use a tile with an insect token on and if not, a tile with the least amount
    of spores." A sapling (even with spores only on it) is something: the insect tile comes first,
    and without one the sapling tile ranks by its spores (none here: the least)."""
    prince = card_with_decay(na, "move_opponent_mother")
    spores = {(1, RED): 1, (2, RED): 1, (4, RED): 1, (5, RED): 1, (6, BLUE): 1}  # t4: after the decay
    kw = dict(mothers={RED: 0, BLUE: 7}, mushrooms={4: (RED, 0, prince, 2)}, spores=spores)
    s = scenario(
        na,
        BOARD,
        saplings={3: {BLUE: 2}},
        insects=(1,),
        **{**kw, "spores": {k: v for k, v in spores.items() if k[0] != 1}},
    )
    na.step_inplace(s, encode_action("decay", 0))  # one destination: applied at once
    assert s[R.M_POS + BLUE] == 1  # the insect tile, not the sapling tile
    s = scenario(na, BOARD, saplings={3: {}}, **kw)
    na.step_inplace(s, encode_action("decay", 0))
    assert s[R.M_POS + BLUE] == 3  # no insect tile: the sapling tile has the fewest spores (0)


# --- 13: the Automata grows where a payment leaves a free tile ------------------------------------
def test_automata_fruits_when_another_payment_leaves_a_free_tile():
    """ "When fruiting a mushroom place the mushroom token on a tile where a spore was used": the
    most populated tiles hold its own mushrooms, but a payment with a spore of the free brown tile
    lets it grow there (1 red + 2 wild)."""
    g = MyceliaGame(num_players=1)
    a = 1
    board = [(0, 0, "red"), (1, 0, "green"), (2, 0, "brown"), (3, 0, "yellow"), (4, 0, "red")]
    s = scenario(
        g,
        board,
        mothers={RED: 4, a: 3},
        spores={(0, a): 2, (1, a): 3, (2, a): 1},
        mushrooms={0: (a, 0, R.AUTO_CARD, 0), 1: (a, 1, R.AUTO_CARD, 0)},
    )
    s[R.A_CARDNOW] = 0
    cfg = g.config.copy()
    side = cfg[R.CFG_LEVEL]
    cfg[R.CFG_AREQ + side * 50 : R.CFG_AREQ + side * 50 + 5] = [1, 0, 0, 0, 2]
    n = R.label_networks(s, a, WORK)
    assert R.automata_fruit(s, cfg, a, n, WORK)
    assert s[R.MUSH_P + 2] == a and s[R.MAT_TILE + a * R.NMATS + 2] == 2  # grown on the brown tile
    assert (spores_on(s, 0, a), spores_on(s, 1, a), spores_on(s, 2, a)) == (1, 2, 0)


# --- 14: free actions at any point of the turn ----------------------------------------------------
def test_free_actions_after_the_second_action_and_between_move_steps(base):
    """ "You can spend your tokens at any point on your turn"; "trade in three cards from your hand at
    any point on your turn": after the second action the turn waits for them (or `stop`), and a MOVE
    may be interrupted between its two steps."""
    hands = {RED: [0, 1, 2, 3]}
    s = scenario(base, BOARD, mothers={RED: 0, BLUE: 7}, hands=hands, held_insects={RED: 2, BLUE: 1})
    base.step_inplace(s, encode_action("market", 0))  # DISCOVER
    base.step_inplace(s, encode_action("tile", 1))  # MOVE: the first step ...
    assert base._top(s)[0] == R.D_MOVE
    offered = legal(base, s)
    assert {("refresh",), ("trade",), ("insect_move",), ("stop",)} <= set(offered)
    market = s[R.MARKET : R.MARKET + 3].copy()
    base.step_inplace(s, encode_action("refresh"))  # ... a free action between the steps ...
    assert base._top(s)[0] == R.D_MOVE and not (s[R.MARKET : R.MARKET + 3] == market).all()
    base.step_inplace(s, encode_action("tile", 3))  # ... and the second step
    assert base.current_player(s) == RED and s[R.ACTS] == 2  # two actions done: still RED's turn
    assert set(legal(base, s)) == {("trade",), ("refresh",), ("stop",)}  # 1 insect left: no M move
    base.step_inplace(s, encode_action("trade"))
    for c in range(3):
        base.step_inplace(s, encode_action("card", int(np.flatnonzero(base.legal_mask(s))[0]) - R.A_CARD))
    assert s[R.INS + RED] == 2 and base.current_player(s) == RED
    base.step_inplace(s, encode_action("stop"))
    assert base.current_player(s) == BLUE and s[R.ACTS] == 0


def test_turn_ends_by_itself_when_no_free_action_is_possible(base):
    s = scenario(base, BOARD, mothers={RED: 0, BLUE: 7}, hands={RED: [0]}, held_insects={RED: 0, BLUE: 1})
    base.step_inplace(s, encode_action("market", 0))
    base.step_inplace(s, encode_action("tile", 1))
    base.step_inplace(s, encode_action("stop"))  # the MOVE ends after one step; the turn with it
    assert base.current_player(s) == BLUE


# --- 15: the owner of the tree pushes the Automata's spores ---------------------------------------
def test_tree_owner_pushes_the_automatas_spores():
    """ "Any future spores that land on a G tile are pushed outwards ... the direction is determined
    by the owner of the G": spores the Automata spreads onto a player's tree wait for that player."""
    g = MyceliaGame(num_players=1, expansion=NA)
    a = 1
    asked = 0
    for seed in range(30):
        s = scenario(g, BOARD, mothers={RED: 7, a: 0}, trees={1: RED}, seed=seed, automata_drawn=[0])
        s[R.ACTS] = 2
        s[R.USED] = 3
        R.next_turn(s, g.config, WORK)
        settle(g, s)
        top = g._top(s)
        if top[0] == R.D_TREE_PUSH:
            assert top[1:4] == (RED, 1, a) and g.current_player(s) == RED
            assert legal_tiles(g, s) == [0, 2, 3]  # any neighbour of t1, its owner's choice
            g.step_inplace(s, encode_action("tile", 3))
            assert spores_on(s, 3, a) >= 1 and spores_on(s, 1, a) == 0
            g.check_invariants(s)
            asked += 1
    assert asked > 0


# --- 16: the drawn player decides the Automata's side ---------------------------------------------
def test_automata_example_b_drawn_player_decides_the_side():
    """Example B: "A blue spore is pulled from the hat meaning that the A will be placed next to the
    blue player. Blue player will decide on which side the A will sit." """
    g = MyceliaGame(num_players=2, automata=True)
    deciders = set()
    for seed in range(200):
        s = g.new_state(seed)
        if any(g.tiles.colour[s[R.T_ID + t]] == 4 for t in range(6)):
            continue
        for t in (0, 3):
            g.step_inplace(s, R.A_TILE + t)
        top = g._top(s)
        assert top[0] == R.D_SETUP and top[2] == 1  # the drawn player decides
        p = top[1]
        sides = {0: [1, 5], 3: [2, 4]}[int(s[R.M_POS + p])]
        assert legal_tiles(g, s) == sides
        g.step_inplace(s, R.A_TILE + sides[1])
        assert s[R.M_POS + 2] == sides[1] and g._top(s)[0] == R.D_MAIN
        g.check_invariants(s)
        deciders.add(p)
        if len(deciders) == 2:
            break
    assert deciders == {RED, BLUE}


# --- 17: the game-ending decay resolves its action --------------------------------------------------
def test_game_ending_decay_resolves_its_decay_action(base):
    """Decay: "Resolve the mushroom's decay action" is part of decaying; the game ends after it. The
    Prince's move puts the opponent's Mother mushroom on the only tile left (an insect tile), whose
    token is then the opponent's: a point at the end."""
    prince = card_with_decay(base, "move_opponent_mother")
    under = {RED: {i: [30 + i] for i in range(1, 5)}}
    s = scenario(
        base,
        BOARD,
        mothers={RED: 0, BLUE: 7},
        mushrooms={4: (RED, 0, prince, 2)},
        insects=(3,),
        spores={(1, RED): 1, (2, RED): 1, (4, RED): 1, (5, RED): 1, (6, RED): 1},
        under=under,
    )
    base.step_inplace(s, encode_action("decay", 0))  # one destination: applied, then the end
    assert base.is_terminal(s) and s[R.ENDER] == RED
    assert s[R.M_POS + BLUE] == 3 and s[R.INS + BLUE] == 2


def test_game_ending_decay_resolves_the_sapling_roll(na):
    """With the expansion the last decay's "add spore to any sapling and roll" is offered too."""
    card = card_with_decay(na, "sapling_spore_roll", base_only=False)
    under = {RED: {i: [30 + i] for i in range(1, 5)}}
    s = scenario(
        na, BOARD, mothers={RED: 0, BLUE: 7}, mushrooms={4: (RED, 0, card, 2)}, saplings={2: {}, 6: {}}, under=under
    )
    na.step_inplace(s, encode_action("decay", 0))
    assert not na.is_terminal(s) and na._top(s)[:2] == (R.D_SAP_PICK, RED) and legal_tiles(na, s) == [2, 6]
    na.step_inplace(s, encode_action("tile", 6))
    assert s[R.SAP_SP + 6 * R.MAXS + RED] == 1  # its spore and its symbiosis roll
    while not na.is_terminal(s):  # the roll's bonus (if any), then the end
        assert na.current_player(s) == RED
        na.step_inplace(s, int(np.flatnonzero(na.legal_mask(s))[0]))
    assert s[R.ENDER] == RED


# --- 18: AGE over an Automata mushroom -------------------------------------------------------------
def test_age_over_an_automata_mushroom_resolves_its_cards_decay_action():
    """ "Any mushrooms on the G tile immediately decay ... Then resolve any decay action from the
    mushroom"; the Automata's: "perform the decay action shown on the card" (here: draw two)."""
    g = MyceliaGame(num_players=1, expansion=NA)
    a = 1
    k = next(i for i in range(R.NA_CARDS) if g.config[R.CFG_ADEC + i] == R.DC_DRAW2)  # medium side
    s = scenario(
        g,
        BOARD,
        mothers={RED: 4, a: 0},
        saplings={4: {RED: 3}},
        automata_drawn=[k],
        mushrooms={4: (a, 0, R.AUTO_CARD, 1)},
    )
    hand = int(s[R.HAND_N + a])
    g.step_inplace(s, encode_action("age"))
    assert s[R.TREE + 4] == RED and s[R.MAT_UNDER + a * R.NMATS] == 1
    assert s[R.HAND_N + a] == hand + 2


# --- 19: discover 2 keep 1: the box or the bottom of the deck --------------------------------------
@pytest.mark.parametrize("where", ["deck", "stop"])
def test_discover_two_keep_one_other_card_box_or_bottom_of_deck(base, where):
    """ "The discarded card is placed either back in the box or at the bottom of the deck": the
    player chooses."""
    s = scenario(base, BOARD, mothers={RED: 0, BLUE: 7}, upgrades={RED: R.GU_DISC2})
    deck = int(s[R.DECK_N])
    base.step_inplace(s, encode_action("deck"))
    drawn = [c for c in range(R.NC) if s[R.LOC + c] == R.L_PENDING]
    assert base._top(s)[0] == R.D_KEEP and len(drawn) == 2
    base.step_inplace(s, encode_action("card", drawn[0]))
    assert legal(base, s) == [("deck",), ("stop",)] and s[R.LOC + drawn[0]] == R.L_HAND + RED
    base.step_inplace(s, encode_action(where))
    if where == "deck":
        assert s[R.LOC + drawn[1]] == R.L_DECK and s[R.DECK] == drawn[1] and s[R.DECK_N] == deck - 1
    else:
        assert s[R.LOC + drawn[1]] == R.L_BOX and s[R.DECK_N] == deck - 2
    base.check_invariants(s)


# --- 20: the spore triangle is bounded by the count ------------------------------------------------
@pytest.mark.parametrize("count,placed", [(4, [0, 1, 2]), (5, [0, 1, 2, 3])])
def test_spores_past_a_missing_tile_stay_in_the_counts_triangle(base, count, placed):
    """Example C: "They have 4 spores to spread but the board doesn't exactly fit the triangle
    spreading area. In this case you fill up the available tiles"; Example D: "there are only 2
    available tiles to place them so the others are not placed". 4 spores spread over the 2-row
    triangle (1 + 3 cells); with (-1,1) missing the 4th is not placed, not carried on to (1,2) in
    the next row, which only a 5-spore spread (3 rows) reaches."""
    board = [(0, 0, "red"), (0, 1, "green"), (1, 1, "yellow"), (1, 2, "brown"), (-1, 0, "green"), (1, 0, "brown")]
    s = scenario(base, board, mothers={RED: 4, BLUE: 5}, symbols={0: {0: "U"}})
    R.spore_from(s, base.config, RED, 0, SYM["U"], count, -1, WORK)
    assert [t for t in range(len(board)) if spores_on(s, t, RED)] == placed
    assert s[R.SUPPLY + RED] == R.SPORES_EACH - len(placed)
