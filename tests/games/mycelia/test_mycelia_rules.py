"""Mycelia rules: the rulebook's worked examples as scenarios, every decay action, blocking,
the turn structure, the end and scoring, options and data errors."""

from __future__ import annotations

from pathlib import Path

import ci_scope
import numpy as np
import pytest
from mycelia_helpers import WORK, act, legal_tiles, mask_with, scenario, spores_of, with_requirement
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.board import in_cone
from mushgym.envs.mycelia.data import BASE_DECAYS, DECAYS, MyceliaDataError, load_automata, load_cards, load_tiles
from mushgym.envs.mycelia.game import MyceliaGame, encode_action

RED, BLUE = 0, 1
SYM = {"O": 0, "U": 1, "A": 2}


@pytest.fixture(scope="module")
def game():
    return MyceliaGame()


def card_with(game, decay, exclude=()):
    return next(c for c in range(R.NC) if game.cards.decay[c] == DECAYS.index(decay) and c not in exclude)


# --- spores: rulebook Examples A-D ----------------------------------------------------------
# origin t0 points up at (0,0); its bottom edge A opens the cone: t1 (distance 1), t2 and t3
# (distance 2), t6 and t7 below them (distance 3); t4 and t5 are the origin's other neighbours.
CONE_BOARD = [
    (0, 0, "red"),
    (0, 1, "green"),
    (-1, 1, "brown"),
    (1, 1, "yellow"),
    (-1, 0, "green"),
    (1, 0, "brown"),
    (-1, 2, "red"),
    (1, 2, "yellow"),
]


def cone_state(game, tiles, sym):
    return scenario(game, tiles, mothers={RED: 0, BLUE: len(tiles) - 1}, symbols={0: {0: sym}})


def test_spore_example_a_fills_the_larger_triangle(game):
    s = cone_state(game, CONE_BOARD, "U")
    R.spore_from(s, game.config, RED, 0, SYM["U"], 4, -1, WORK)
    assert spores_of(s, RED, 8) == [1, 1, 1, 1, 0, 0, 0, 0]
    assert s[R.SUPPLY + RED] == 26
    game.check_invariants(s)


def test_spore_example_b_player_chooses_among_tiles_at_the_same_distance(game):
    s = cone_state(game, CONE_BOARD, "A")
    R.spore_from(s, game.config, RED, 0, SYM["A"], 3, -1, WORK)
    assert spores_of(s, RED, 8)[:2] == [1, 1]
    assert game.current_player(s) == RED and game._top(s)[0] == R.D_SPORE_PICK
    assert legal_tiles(game, s) == [2, 3]  # the tile to its left or to its right
    game.step_inplace(s, encode_action("tile", 3))
    assert spores_of(s, RED, 8) == [1, 1, 0, 1, 0, 0, 0, 0]
    assert game._top(s)[0] == R.D_MAIN


def test_spore_example_c_fills_the_available_tiles_nearest_first(game):
    board = [t for i, t in enumerate(CONE_BOARD) if i not in (3, 7)]  # no tile at (1,1) (nor below it)
    s = cone_state(game, board, "O")
    R.spore_from(s, game.config, RED, 0, SYM["O"], 4, -1, WORK)
    # "fill up the available tiles" of the 4-spore triangle: origin, (0,1), (-1,1); the fourth
    # spore is not placed ((-1,2) lies beyond the triangle: RULES.md, "SPORE")
    cells = [(board[t][0], board[t][1]) for t in range(len(board)) if s[R.SP + t * R.MAXS + RED]]
    assert sorted(cells) == sorted([(0, 0), (0, 1), (-1, 1)])
    assert s[R.SUPPLY + RED] == 27


def test_spore_example_d_towards_the_board_edge_only_two_tiles(game):
    board = [CONE_BOARD[0], CONE_BOARD[1], CONE_BOARD[4], CONE_BOARD[5], (-2, 0, "red"), (2, 0, "red")]
    s = cone_state(game, board, "U")
    R.spore_from(s, game.config, RED, 0, SYM["U"], 5, -1, WORK)
    assert spores_of(s, RED, 6) == [1, 1, 0, 0, 0, 0]
    assert s[R.SUPPLY + RED] == 28


def test_spore_with_no_tile_beyond_the_edge_puts_only_the_first_spore(game):
    board = [CONE_BOARD[0], CONE_BOARD[4], CONE_BOARD[5]]
    s = cone_state(game, board, "A")
    R.spore_from(s, game.config, RED, 0, SYM["A"], 4, -1, WORK)
    assert spores_of(s, RED, 3) == [1, 0, 0]


def test_spore_is_limited_by_the_supply(game):
    s = cone_state(game, CONE_BOARD, "U")
    s[R.SUPPLY + RED] = 2
    s[R.SP + 7 * R.MAXS + RED] += 28  # the rest sits on a tile outside the cone
    game.check_invariants(s)
    R.spore_from(s, game.config, RED, 0, SYM["U"], 4, -1, WORK)
    assert spores_of(s, RED, 2) == [1, 1] and s[R.SUPPLY + RED] == 0


def test_spore_action_rolls_the_die_and_follows_the_rolled_symbol(game):
    for seed in range(12):
        s = game.new_state(seed)
        while game._top(s)[0] == R.D_SETUP:
            game.step_inplace(s, int(game.legal_actions(s)[0]))
        p = game.current_player(s)
        origin = int(s[R.M_POS + p])
        game.step_inplace(s, encode_action("spore", 0))
        sym = int(s[R.ROLL])
        k = next(k for k in range(3) if R.wind_symbol(s, game.config, origin, k) == sym)
        c0, r0 = int(s[R.T_C + origin]), int(s[R.T_R + origin])
        for t in range(int(s[R.NTP])):
            if s[R.SP + t * R.MAXS + p]:
                assert in_cone(c0, r0, k, int(s[R.T_C + t]), int(s[R.T_R + t]))
        assert s[R.SP + origin * R.MAXS + p] == 1
        assert s[R.SUPPLY + p] <= 29
        game.check_invariants(s)


# --- networks: the rulebook's blue/red example -------------------------------------------------
ROW = [(x, 0, c) for x, c in enumerate(["green", "brown", "green", "yellow", "red", "red"])]


def test_network_split_by_another_players_mother_mushroom(game):
    spores = {(t, BLUE): 1 for t in range(5)}
    s = scenario(game, ROW, mothers={RED: 3, BLUE: 0}, spores=spores)
    assert sorted(sorted(c) for c in game.networks(s, BLUE)) == [[0, 1, 2], [4]]  # (C) and (A)
    assert sorted(sorted(c) for c in game.networks(s, RED)) == [[3]]
    assert R.spendable(s, RED, 3, BLUE) == 1  # (B) red may spend the blue spore under its M
    assert R.spendable(s, BLUE, 3, BLUE) == 0
    # with the red Mother mushroom gone the networks reconnect into one of 5 spores
    s2 = scenario(game, ROW, mothers={RED: 5, BLUE: 0}, spores=spores)
    assert sorted(sorted(c) for c in game.networks(s2, BLUE)) == [[0, 1, 2, 3, 4]]


@pytest.mark.parametrize("options", [{}, {"num_players": 3, "automata": True}, {"expansion": "north_america"}])
def test_kernel_networks_equal_an_independent_search(options):
    """On random positions, every seat's networks by the kernels (``label_networks``) are those of
    ``MyceliaGame.networks`` (a breadth-first search in Python); a spore on a sapling puts no tile
    in a network (RULES.md, the expansion: sapling spores are no piece of a network)."""
    from mushgym import testing

    g = MyceliaGame(**options)
    work = np.zeros(R.WORK_SIZE, np.int64)
    checked = 0
    for s in testing.random_states(g, n_games=2, seed=5, every=3):
        n = int(s[R.NTP])
        for seat in range(g.num_seats):
            count = int(R.label_networks(s, seat, work))
            labelled = {}
            for t in range(n):
                if work[R.LABEL + t] >= 0:
                    labelled.setdefault(int(work[R.LABEL + t]), set()).add(t)
            assert count == len(labelled)
            assert sorted(map(sorted, labelled.values())) == sorted(map(sorted, g.networks(s, seat)))
            for t in range(n):
                alone = (
                    s[R.SAP_SP + t * R.MAXS + seat] > 0
                    and s[R.SP + t * R.MAXS + seat] == 0
                    and R.controller(s, t) != seat
                    and s[R.TREE + t] != seat
                )
                assert not (alone and work[R.LABEL + t] >= 0), f"seat {seat}: a sapling spore put tile {t} in a network"
            checked += 1
    assert checked > 100


# --- fruit: Example A with its points B-D ---------------------------------------------------------
# t0 brown (one blue spore, A); t1 brown with red's 1-pip mushroom, a blue spore and 2 red
# spores (B: red has 3 browns); t2..t4 green with blue spores (C: no brown for blue);
# t5 green above t1 with 2 red spores (D).
FRUIT_BOARD = [(0, 0, "brown"), (1, 0, "brown"), (2, 0, "green"), (3, 0, "green"), (4, 0, "green"), (1, -1, "green")]


def fruit_state(game, player, hand_card, mushroom_card):
    spores = {(0, BLUE): 1, (1, BLUE): 1, (1, RED): 2, (2, BLUE): 1, (3, BLUE): 1, (4, BLUE): 1, (5, RED): 2}
    return scenario(
        game,
        FRUIT_BOARD,
        mothers={RED: 5, BLUE: 4},
        spores=spores,
        mushrooms={1: (RED, 0, mushroom_card, 0)},
        hands={RED: [hand_card[0]], BLUE: [hand_card[1]]},
        player=player,
    )


def test_fruit_example_a_network_split_by_a_mushroom_token(game):
    blue_card, red_card, red_mush = 20, 30, 40
    s = fruit_state(game, BLUE, (red_card, blue_card), red_mush)
    cfg = with_requirement(game, blue_card, green=3, brown=1)
    assert sorted(sorted(c) for c in game.networks(s, BLUE)) == [[0], [2, 3, 4]]
    assert mask_with(s, cfg)[R.A_CARD + blue_card] == 0  # C: blue's network has no brown
    # A: the lone blue spore pays for a single-brown card on its own
    cfg_a = with_requirement(game, blue_card, brown=1)
    assert mask_with(s, cfg_a)[R.A_CARD + blue_card] == 1
    act(s, cfg_a, R.A_CARD + blue_card)
    act(s, cfg_a, R.A_MAT + 0) if s[R.STACK_N] and game._top(s)[0] == R.D_FRUIT_MAT else None
    assert s[R.MUSH_P + 0] == BLUE and s[R.SP + 0 * R.MAXS + BLUE] == 0
    # C': if red removed its mushroom token, blue would reach the browns
    s2 = scenario(
        game,
        FRUIT_BOARD,
        mothers={RED: 5, BLUE: 4},
        spores={(0, BLUE): 1, (1, BLUE): 1, (1, RED): 2, (2, BLUE): 1, (3, BLUE): 1, (4, BLUE): 1, (5, RED): 2},
        hands={BLUE: [blue_card]},
        player=BLUE,
    )
    assert mask_with(s2, cfg)[R.A_CARD + blue_card] == 1


def test_fruit_example_a_points_b_and_d_red_spends_blue_spores(game):
    blue_card, red_card, red_mush = 20, 30, 40
    s = fruit_state(game, RED, (red_card, blue_card), red_mush)
    # B: red controls t1 and counts 3 browns there, the blue spore included
    cfg_b = with_requirement(game, red_card, brown=3)
    assert R.spendable_all(s, RED, 1) == 3
    assert mask_with(s, cfg_b)[R.A_CARD + red_card] == 0  # but it cannot grow on t1 (a mushroom is there)
    # D: 2 green + 1 brown: the mushroom must go on the green tile t5
    cfg = with_requirement(game, red_card, green=2, brown=1)
    assert mask_with(s, cfg)[R.A_CARD + red_card] == 1
    act(s, cfg, R.A_CARD + red_card)
    if game._top(s)[0] == R.D_FRUIT_MAT:
        act(s, cfg, R.A_MAT + 1)
    if game._top(s)[0] == R.D_FRUIT_TILE:
        assert np.flatnonzero(mask_with(s, cfg)[: R.A_PAY]).tolist() == [5]
        act(s, cfg, R.A_TILE + 5)
    blue_supply = int(s[R.SUPPLY + BLUE])
    while game._top(s)[0] == R.D_PAY:
        m = mask_with(s, cfg)
        if m[R.A_PAY + 1 * 4 + BLUE]:
            act(s, cfg, R.A_PAY + 1 * 4 + BLUE)  # spend blue's spore on red's tile
        else:
            act(s, cfg, int(np.flatnonzero(m)[0]))
    assert s[R.MUSH_P + 5] == RED and s[R.SUPPLY + BLUE] == blue_supply + 1  # back to blue's supply
    assert s[R.SP + 5 * R.MAXS + RED] == 0 and s[R.SP + 1 * R.MAXS + BLUE] == 0
    assert s[R.PTS + RED] == game.cards.points[red_mush] + game.cards.points[red_card]


def test_fruit_with_black_tile_as_any_colour_and_on_the_mothers_tile(game):
    board = [(0, 0, "black"), (1, 0, "yellow"), (2, 0, "red")]
    card = 12
    cfg = with_requirement(game, card, red=1, yellow=1)
    s = scenario(game, board, mothers={RED: 0, BLUE: 2}, spores={(0, RED): 1, (1, RED): 1}, hands={RED: [card]})
    assert mask_with(s, cfg)[R.A_CARD + card] == 1  # the black spore stands for red
    act(s, cfg, R.A_CARD + card)
    while not game._top(s)[0] == R.D_MAIN:
        m = mask_with(s, cfg)
        act(s, cfg, int(np.flatnonzero(m)[0]))
    assert s[R.MUSH_P + 0] == RED or s[R.MUSH_P + 1] == RED
    assert sum(spores_of(s, RED, 3)) == 0


# --- The Prince -------------------------------------------------------------------------------
def test_the_prince_is_as_printed(game):
    c = game.cards.names.index("The Prince")
    assert game.cards.latin[c] == "Agaricus augustus"
    assert game.cards.points[c] == 6 and game.cards.require[c].sum() == 3 and game.cards.spores[c] == 4
    assert DECAYS[game.cards.decay[c]] == "move_opponent_mother"


def test_the_prince_decay_moves_an_opponents_mother_to_an_empty_triangle(game):
    prince = game.cards.names.index("The Prince")
    board = [(x, 0, "green") for x in range(7)]
    s = scenario(
        game,
        board,
        mothers={RED: 0, BLUE: 2},
        mushrooms={1: (RED, 0, prince, 2)},
        spores={(3, RED): 1, (5, BLUE): 1},
        insects=(4,),
    )
    game.step_inplace(s, R.A_DECAY + 0)
    assert s[R.MAT_UNDER + 0] == 1 and s[R.MAT_TILE + 0] == -1 and s[R.MAT_CTR + 0] == 0
    assert s[R.LOC + prince] == R.L_UNDER + 0
    assert game._top(s)[0] == R.D_MOTHER_DEST  # the only opponent is chosen automatically
    assert legal_tiles(game, s) == [1, 6]  # empty now; t3/t5 have spores, t4 an insect
    game.step_inplace(s, R.A_TILE + 6)
    assert s[R.M_POS + BLUE] == 6
    game.check_invariants(s)


def test_empty_triangle_fallbacks(game):
    """Nothing on it; else an insect token only; else the fewest spores; never a tile with a
    Mother mushroom or a mushroom token."""
    board = [(x, 0, "green") for x in range(5)]
    s = scenario(
        game,
        board,
        mothers={RED: 0, BLUE: 1},
        spores={(2, RED): 2, (3, RED): 1},
        insects=(3,),
        mushrooms={4: (RED, 0, 10, 0)},
    )
    assert [int(R.empty_tier(s, t)) for t in range(5)] == [-1, -1, 4, 3, -1]
    s = scenario(game, board, mothers={RED: 0, BLUE: 1}, spores={(2, RED): 2}, insects=(3,))
    assert int(R.best_tier(s)) == 0 and [int(R.empty_tier(s, t)) for t in (2, 3, 4)] == [4, 1, 0]
    s = scenario(game, board, mothers={RED: 0, BLUE: 1}, spores={(2, RED): 2, (4, BLUE): 1}, insects=(3,))
    assert int(R.best_tier(s)) == 1


# --- decay actions ---------------------------------------------------------------------------
STAR = [
    (-1, -1, "red"),
    (0, -1, "green"),
    (1, -1, "brown"),
    (1, 0, "yellow"),
    (0, 0, "red"),
    (-1, 0, "green"),
    (-2, -1, "brown"),
    (0, -2, "yellow"),
    (2, -1, "red"),
    (2, 0, "green"),
    (0, 1, "brown"),
    (-2, 0, "yellow"),
]


def decay_state(game, decay, **kw):
    card = card_with(game, decay)
    args = dict(mothers={RED: 0, BLUE: 3}, mushrooms={4: (RED, 0, card, 2)})
    args.update(kw)
    return scenario(game, STAR, **args), card


def test_decay_move_an_outer_tile_with_all_its_contents(game):
    s, _ = decay_state(game, "move_outer_tile", spores={(6, BLUE): 2}, insects=(6,))
    game.step_inplace(s, R.A_DECAY + 0)
    assert game._top(s)[0] == R.D_OUTER_PICK
    assert legal_tiles(game, s) == [6, 7, 8, 9, 10, 11]  # the star's points touch by one edge
    game.step_inplace(s, R.A_TILE + 6)
    assert game._top(s)[0] == R.D_PLACE
    places = np.flatnonzero(game.legal_mask(s))
    assert len(places) > 0
    for a in places:  # never its old cell, never touching only itself
        i, e = divmod(int(a) - R.A_PLACE, 3)
        assert i != 6
    game.step_inplace(s, int(places[-1]))
    game.step_inplace(s, R.A_ROT + 1)
    assert (int(s[R.T_C + 6]), int(s[R.T_R + 6])) != (-2, -1)
    assert s[R.SP + 6 * R.MAXS + BLUE] == 2 and s[R.T_INS + 6] == 1 and s[R.T_ROT + 6] == 1
    game.check_invariants(s)


def test_decay_move_an_opponents_mushroom_with_the_fallbacks(game):
    other = card_with(game, "draw_two")
    every = {(t, BLUE): 1 for t in range(12) if t not in (0, 3, 4, 5)}
    every[(5, BLUE)] = 3
    s, _ = decay_state(
        game,
        "move_opponent_mushroom",
        mushrooms={4: (RED, 0, card_with(game, "move_opponent_mushroom"), 2), 1: (BLUE, 2, other, 1)},
        spores=every,
        insects=(0,),
    )
    # every tile but t0 (red M + insect), t3 (blue M), t4 (red mushroom) and t5 has 1 spore
    game.step_inplace(s, R.A_DECAY + 0)
    # blue's mushroom (t1) is the only one to pick, and t4 (empty since the decay) the only
    # empty triangle: both decisions were forced and applied
    assert (
        s[R.MUSH_P + 4] == BLUE and s[R.MAT_TILE + BLUE * R.NMATS + 2] == 4 and s[R.MAT_CTR + BLUE * R.NMATS + 2] == 1
    )
    game.check_invariants(s)


def test_decay_steal_a_random_card(game):
    blue_hand = [5, 6, 7]
    stolen = set()
    for seed in range(8):
        s, _ = decay_state(game, "steal_card", hands={BLUE: blue_hand, RED: []}, seed=seed)
        game.step_inplace(s, R.A_DECAY + 0)
        assert s[R.HAND_N + RED] == 1 and s[R.HAND_N + BLUE] == 2
        stolen |= {c for c in blue_hand if s[R.LOC + c] == R.L_HAND + RED}
    assert len(stolen) >= 2  # random


def test_decay_draw_two_from_market_or_deck_then_refill(game):
    s, _ = decay_state(game, "draw_two", hands={RED: []})
    game.step_inplace(s, R.A_DECAY + 0)
    assert game._top(s)[0] == R.D_DRAW2
    m0 = int(s[R.MARKET])
    game.step_inplace(s, R.A_MARKET + 0)
    assert s[R.MARKET] == -1  # refilled only after both cards
    game.step_inplace(s, R.A_DECK)
    assert s[R.HAND_N + RED] == 2 and s[R.LOC + m0] == R.L_HAND + RED and s[R.MARKET] >= 0


def test_decay_mushroom_upgrade_extra_spore_on_the_same_mat(game):
    s, _ = decay_state(game, "extra_spore")
    game.step_inplace(s, R.A_DECAY + 0)
    assert s[R.MAT_UPG + 0] == R.MU_EXTRA and s[R.GUPG + RED] == 0
    card = 3
    s[R.MAT_CARD + 0] = card  # grow a new mushroom on that mat and spore it
    s[R.LOC + card] = R.L_TOP + 0
    s[R.MAT_TILE + 0] = 9
    s[R.MUSH_P + 9], s[R.MUSH_M + 9] = RED, 0
    before = int(s[R.SUPPLY + RED])
    R.spore_action(s, game.config, RED, 1, WORK)
    placed = before - int(s[R.SUPPLY + RED])
    assert placed <= game.cards.spores[card] + 1
    assert s[R.MAT_CTR + 0] == 1


def test_decay_spore_with_mother_spores_both_with_one_roll(game):
    s, _ = decay_state(game, "spore_with_mother")
    game.step_inplace(s, R.A_DECAY + 0)
    assert s[R.MAT_UPG + 0] == R.MU_BOTH
    card = 3
    s[R.MAT_CARD + 0], s[R.LOC + card], s[R.MAT_TILE + 0] = card, R.L_TOP + 0, 9
    s[R.MUSH_P + 9], s[R.MUSH_M + 9] = RED, 0
    R.spore_action(s, game.config, RED, 1, WORK)
    if game._top(s)[0] == R.D_SPORE_PICK:
        while game._top(s)[0] == R.D_SPORE_PICK:
            game.step_inplace(s, int(game.legal_actions(s)[0]))
    assert s[R.SP + 9 * R.MAXS + RED] >= 1 and s[R.SP + 0 * R.MAXS + RED] >= 1  # mushroom's tile and M's tile


@pytest.mark.parametrize(
    "decay,bit",
    [
        ("same_action_twice", R.GU_TWICE),
        ("discover_two_keep_one", R.GU_DISC2),
        ("mother_moves_three", R.GU_MOVE3),
        ("mother_spores_three", R.GU_SPORE3),
    ],
)
def test_decay_game_upgrades_apply_once(game, decay, bit):
    s, _ = decay_state(game, decay)
    game.step_inplace(s, R.A_DECAY + 0)
    assert s[R.GUPG + RED] == bit
    # a second card with the same upgrade does not double it
    s2, _ = decay_state(game, decay, upgrades={RED: bit})
    game.step_inplace(s2, R.A_DECAY + 0)
    assert s2[R.GUPG + RED] == bit


def test_same_action_twice_upgrade(game):
    s = scenario(game, STAR, mothers={RED: 0, BLUE: 3})
    game.step_inplace(s, R.A_DECK)
    assert game.legal_mask(s)[R.A_DECK] == 0  # two different actions
    s = scenario(game, STAR, mothers={RED: 0, BLUE: 3}, upgrades={RED: R.GU_TWICE})
    game.step_inplace(s, R.A_DECK)
    assert game.legal_mask(s)[R.A_DECK] == 1


def test_discover_two_keep_one_upgrade(game):
    s = scenario(game, STAR, mothers={RED: 0, BLUE: 3}, upgrades={RED: R.GU_DISC2}, hands={RED: []})
    top2 = [int(s[R.DECK + s[R.DECK_N] - 1]), int(s[R.DECK + s[R.DECK_N] - 2])]
    game.step_inplace(s, R.A_DECK)
    assert game._top(s)[0] == R.D_KEEP
    assert sorted(np.flatnonzero(game.legal_mask(s)) - R.A_CARD) == sorted(top2)
    game.step_inplace(s, R.A_CARD + top2[1])
    game.step_inplace(s, R.A_STOP)  # the other back in the box (test_mycelia_rulings: or the deck's bottom)
    assert s[R.LOC + top2[1]] == R.L_HAND + RED and s[R.LOC + top2[0]] == R.L_BOX
    # the market is not affected by the upgrade
    s[R.ACTS] = 0
    s[R.USED] = 0
    game.step_inplace(s, R.A_MARKET + 0)
    assert s[R.HAND_N + RED] == 2


def test_mother_moves_three_and_spores_three(game):
    board = [(x, 0, "green") for x in range(6)]
    s = scenario(game, board, mothers={RED: 0, BLUE: 5}, upgrades={RED: R.GU_MOVE3 | R.GU_SPORE3})
    game.step_inplace(s, R.A_TILE + 1)
    game.step_inplace(s, R.A_TILE + 2)
    assert game._top(s)[0] == R.D_MOVE
    game.step_inplace(s, R.A_TILE + 3)
    assert s[R.M_POS + RED] == 3 and game._top(s)[0] == R.D_MAIN
    assert R.mother_spore_count(s, RED) == 3


# --- move, blocking, free actions ----------------------------------------------------------------
def test_move_two_steps_back_and_forth_never_onto_another_mother_and_collects_insects(game):
    board = [(x, 0, "green") for x in range(6)]
    s = scenario(game, board, mothers={RED: 1, BLUE: 3}, insects=(2,))
    assert legal_tiles(game, s) == [0, 2]  # t3 holds blue's M... not a neighbour; t0 and t2 are
    game.step_inplace(s, R.A_TILE + 2)
    assert s[R.INS + RED] == 2 and s[R.T_INS + 2] == 0  # picked up on the way
    assert legal_tiles(game, s) == [1]  # back is allowed; t3 has blue's Mother mushroom
    game.step_inplace(s, R.A_TILE + 1)
    assert s[R.M_POS + RED] == 1 and game._top(s)[0] == R.D_MAIN
    assert game.legal_mask(s)[R.A_TILE : R.A_PAY].sum() == 0  # move used this turn


def test_mother_on_an_opponents_mushroom_blocks_spore_and_decay(game):
    card = 10
    s = scenario(game, STAR, mothers={RED: 5, BLUE: 4}, mushrooms={4: (RED, 1, card, 2), 2: (RED, 2, 11, 1)})
    m = game.legal_mask(s)
    assert m[R.A_DECAY + 1] == 0 and m[R.A_SPORE + 2] == 0  # mat 1 is blocked
    assert m[R.A_SPORE + 3] == 1  # mat 2 is free to spore
    assert R.controller(s, 4) == BLUE


def test_free_actions_insects_and_trade(game):
    board = [(x, 0, "green") for x in range(6)]
    s = scenario(game, board, mothers={RED: 0, BLUE: 3}, hands={RED: [1, 2, 3, 4]})
    s[R.INS + RED] = 3
    s[R.INS_SUPPLY] -= 2
    m = game.legal_mask(s)
    assert m[R.A_INSECT_MOVE] and m[R.A_REFRESH] and m[R.A_TRADE]
    market = s[R.MARKET : R.MARKET + 3].copy()
    game.step_inplace(s, R.A_REFRESH)
    assert s[R.INS + RED] == 2 and not set(market) & set(s[R.MARKET : R.MARKET + 3])
    assert all(s[R.LOC + c] == R.L_DISCARD for c in market)
    game.step_inplace(s, R.A_INSECT_MOVE)
    assert game._top(s)[0] == R.D_MOTHER_DEST and s[R.INS + RED] == 0
    assert legal_tiles(game, s) == [1, 2, 4, 5]  # any tile without a Mother mushroom
    game.step_inplace(s, R.A_TILE + 5)
    assert s[R.M_POS + BLUE] == 5
    for c in (1, 2, 3):
        if game._top(s)[0] == R.D_MAIN:
            game.step_inplace(s, R.A_TRADE)
        game.step_inplace(s, R.A_CARD + c)
    assert s[R.INS + RED] == 1 and s[R.HAND_N + RED] == 1
    assert s[R.ACTS] == 0  # none of this used an action
    game.check_invariants(s)


# --- setup, turns, end and scoring -------------------------------------------------------
def test_setup(game):
    for seed in range(10):
        s = game.new_state(seed)
        first = int(s[R.FIRST])
        assert s[R.HAND_N + first] == 3 and s[R.HAND_N + 1 - first] == 4  # 2-player rule
        assert s[R.NTP] == 12 and s[R.PILE_N] + s[R.PILE_N + 1] == 38
        assert game.current_player(s) == 1 - first  # reverse order: the second player places first
        assert all(game.tiles.colour[s[R.T_ID + t]] != 4 for t in legal_tiles(game, s))
        assert legal_tiles(game, s) and max(legal_tiles(game, s)) < 6
        while game._top(s)[0] == R.D_SETUP:
            game.step_inplace(s, int(game.legal_actions(s)[0]))
        assert game.current_player(s) == first and (s[R.MARKET : R.MARKET + 3] >= 0).all()
        game.check_invariants(s)
    assert MyceliaGame(num_players=3).new_state(0)[R.HAND_N : R.HAND_N + 3].tolist() == [3, 3, 3]


def test_solo_removes_black_tiles_and_gives_the_automata_five_cards_and_two_insects():
    g = MyceliaGame(num_players=1)
    s = g.new_state(4)
    assert g.automata and g.num_seats == 2
    ids = [int(x) for x in s[R.T_ID : R.T_ID + 12]] + [
        int(x) for j in range(2) for x in s[R.PILE + j * 50 : R.PILE + j * 50 + s[R.PILE_N + j]]
    ]
    assert len(ids) == 44 and all(g.tiles.colour[t] != 4 for t in ids)
    assert s[R.HAND_N + 1] == 5 and s[R.INS + 1] == 2
    g.step_inplace(s, int(g.legal_actions(s)[0]))
    a_tile, p_tile = int(s[R.M_POS + 1]), int(s[R.M_POS])
    assert (a_tile - p_tile) % 6 == 3  # directly opposite


def test_decay_under_the_last_mat_ends_the_game_at_once_with_the_end_game_token():
    g = MyceliaGame(mats=3)
    card = 10
    s = scenario(g, STAR, mothers={RED: 0, BLUE: 3}, mushrooms={4: (RED, 2, card, 2)})
    s[R.MAT_UNDER + 0] = 1
    s[R.MAT_UNDER + 1] = 1
    s[R.LOC + 20] = R.L_UNDER + 0
    s[R.LOC + 21] = R.L_UNDER + 1
    s[R.PTS + RED] += g.cards.points[20] + g.cards.points[21]
    s[R.GROWN + RED] += 2  # the two decayed mushrooms were grown
    s[R.DECK : R.DECK + R.NC] = 0
    deck = [c for c in range(R.NC) if s[R.LOC + c] == R.L_DECK]
    s[R.DECK : R.DECK + len(deck)] = deck
    s[R.DECK_N] = len(deck)
    g.check_invariants(s)
    g.step_inplace(s, R.A_DECAY + 2)  # the first action of the turn
    assert g.is_terminal(s) and s[R.ENDER] == RED
    pts = g.cards.points[[10, 20, 21]].sum()
    assert g.final_scores(s)[RED] == pts + s[R.INS + RED] // 2 + 3  # EGT = number of mats
    assert g.returns(s).tolist() == [1.0, -1.0]


def test_ties_by_mushrooms_grown_then_insects_then_shared():
    """The tie-break alone (the kernel's returns): points and mushrooms grown are set by hand, not
    backed by cards on the mats, which ``Game.validate`` (the functional API) would refuse."""
    game = MyceliaGame(turn_limit_end="score")  # the turn limit scored (no End Game Token)

    def returns(s):
        out = np.zeros(game.num_players)
        R.returns(s, game.config, out)
        return out.tolist()

    s = scenario(game, STAR, mothers={RED: 0, BLUE: 3})
    s[R.OVER] = 1
    s[R.ENDER] = R.TURN_LIMIT_END
    s[R.PTS + RED], s[R.PTS + BLUE] = 10, 10
    s[R.GROWN + RED], s[R.GROWN + BLUE] = 2, 3
    assert returns(s) == [-1.0, 1.0]
    s[R.GROWN + RED] = 3
    s[R.INS + RED], s[R.INS + BLUE] = 1, 0  # same points (1 // 2 = 0): more insects wins
    assert returns(s) == [1.0, -1.0]
    s[R.INS + BLUE] = 1
    assert returns(s) == [0.0, 0.0]


def test_turn_limit_ends_the_game_without_the_token():
    g = MyceliaGame(turn_limit=40)
    if ci_scope.runs_rollouts(g.env_id):
        r = g.random_rollouts(8, seed=3, threads=1)
        assert r["max_length"] <= g.spec.max_game_length
    s = g.new_state(1)
    rng = np.random.default_rng(0)
    while not g.is_terminal(s):
        a = g.legal_actions(s)
        g.step_inplace(s, int(a[rng.integers(len(a))]))
    assert s[R.TURN] <= g.max_turns
    if s[R.ENDER] == R.TURN_LIMIT_END:
        assert s[R.TURN] == g.max_turns and g.final_scores(s) == [
            int(s[R.PTS + p]) + int(s[R.INS + p]) // 2 for p in range(2)
        ]


def _cut_game(**options):
    """A game that reached the turn limit (40 rounds, random play), and its game."""
    g = MyceliaGame(turn_limit=40, **options)
    for seed in range(20):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        while not g.is_terminal(s):
            a = g.legal_actions(s)
            before, action = s.copy(), int(a[rng.integers(len(a))])
            g.step_inplace(s, action)
        if s[R.ENDER] == R.TURN_LIMIT_END:
            return g, s, before, action
    raise AssertionError("no random game reached the 40-round limit")


def test_turn_limit_is_a_truncation_by_default_and_scored_on_request():
    g, s, _, _ = _cut_game()
    assert g.is_truncated(s) and g.returns(s).tolist() == [0.0, 0.0]
    scored = MyceliaGame(turn_limit=40, turn_limit_end="score")
    s = scored.stamp_header(s.copy())  # the same position under the other option (the header names the options)
    assert not scored.is_truncated(s)
    scores = scored.final_scores(s)
    assert scores == [int(s[R.PTS + p]) + int(s[R.INS + p]) // 2 for p in range(2)]  # no End Game Token
    assert sorted(scored.returns(s).tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="turn_limit_end"):
        MyceliaGame(turn_limit_end="draw")


def test_truncation_reaches_the_aec_env_and_the_vector_api():
    import mushgym

    env = mushgym.make("mycelia_v1", turn_limit=40)
    rng = np.random.default_rng(0)
    for seed in range(20):
        env.reset(seed=seed)
        last = None
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                last = (term, trunc)
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        if last == (False, True):
            break
    else:
        raise AssertionError("no AEC game was cut by the turn limit")
    if not ci_scope.runs_vector("mycelia_v1"):
        return
    from mushgym import vector as mv

    g, _, before, action = _cut_game()
    vec = mv.from_game(g, 1, seed=0)  # a vector env stepped into the cut game's last step
    vec.reset()
    vec.set_state(0, before)
    _, rewards, term, trunc, *_ = vec.step(np.array([action]))
    assert trunc[0] and not term[0] and np.all(rewards == 0)


# --- options and data -----------------------------------------------------------------------
def test_options_are_checked():
    with pytest.raises(ValueError, match="1 to 3 players"):
        MyceliaGame(num_players=4, automata=True)
    with pytest.raises(ValueError, match="solo game"):
        MyceliaGame(num_players=1, automata=False)
    with pytest.raises(ValueError, match="needs the Automata"):
        MyceliaGame(automata=False, automata_level="hard")
    with pytest.raises(ValueError, match="valid choices"):
        MyceliaGame(num_players=5)
    with pytest.raises(ValueError, match="valid choices"):
        MyceliaGame(mats=2)
    assert MyceliaGame(automata_level="hard").automata
    assert MyceliaGame(num_players=3, automata=True).spec.num_players == 3


def test_data_files_load_and_follow_the_published_counts():
    cards, tiles, auto = load_cards(), load_tiles(), load_automata()
    assert len(cards.names) == 69 and cards.points.min() >= 2 and cards.points.max() <= 8
    assert sorted(np.bincount(tiles.colour).tolist()) == [6, 11, 11, 11, 11]
    for t in range(50):
        assert sorted(tiles.order[t].tolist()) == [0, 1, 2]
    assert tiles.insect.sum() == 16 and auto.require.shape == (2, 10, 5)
    assert set(np.unique(cards.decay)) == set(range(BASE_DECAYS))  # the expansion's only on its cards


def test_malformed_data_files_name_the_file_entry_and_field(tmp_path: Path):
    src = REPO_ROOT / "envs" / "mycelia" / "cards.toml"
    text = src.read_text()
    bad = tmp_path / "cards.toml"
    bad.write_text(text.replace('decay = "steal_card"', 'decay = "eat_it"', 1))
    with pytest.raises(MyceliaDataError, match=r"card \d+ .*decay.*eat_it.*valid choices"):
        load_cards(bad)
    bad.write_text(text.replace("points = 6", "points = 11", 1))
    with pytest.raises(MyceliaDataError, match="points.*2..8"):
        load_cards(bad)
    bad.write_text(text.replace("require = { red = 2 }", "require = { blue = 2 }", 1))
    with pytest.raises(MyceliaDataError, match="colour 'blue'"):
        load_cards(bad)
    bad.write_text("[[card]]\nname = 'x'\n")
    with pytest.raises(MyceliaDataError, match="69 cards, the file has 1"):
        load_cards(bad)
    bad.write_text("not toml [")
    with pytest.raises(MyceliaDataError, match="not valid TOML"):
        load_cards(bad)
    tsrc = (src.parent / "tiles.toml").read_text()
    (tmp_path / "tiles.toml").write_text(tsrc.replace('order = "OUA"', 'order = "OOA"', 1))
    with pytest.raises(MyceliaDataError, match=r"tile 0.*order"):
        load_tiles(tmp_path / "tiles.toml")
    # numeric fields are bounded: the message names the file, the card and the field
    for old, new_, msg in (
        (
            "spores = ",
            "spores = 99 #",
            r"cards\.toml: card 0 \(.*\): field 'spores' must be an integer in 1\.\.6, got 99",
        ),
        ("spores = ", "spores = true #", r"card 0 .*'spores'.*got True"),
        ("points = ", "points = -3 #", r"card 0 .*'points'.*2\.\.8, got -3"),
    ):
        bad.write_text(text.replace(old, new_, 1))
        with pytest.raises(MyceliaDataError, match=msg):
            load_cards(bad)
    bad.write_text(text.replace("require = { red = 2 }", "require = { red = 7 }", 1))
    with pytest.raises(MyceliaDataError, match=r"card \d+ .*'red' must be an integer in 1\.\.6, got 7"):
        load_cards(bad)
    asrc = (src.parent / "automata.toml").read_text()
    (tmp_path / "automata.toml").write_text(asrc.replace("spores = 3,", "spores = 0,", 1))
    with pytest.raises(
        MyceliaDataError, match=r"automata\.toml: Automata card 0 side medium: field 'spores'.*1\.\.6, got 0"
    ):
        load_automata(tmp_path / "automata.toml")


# --- the Automata: Examples A-C ------------------------------------------------------------------
def test_automata_example_a_fate_decides_between_equidistant_mushrooms():
    g = MyceliaGame(num_players=2, automata=True)
    a = 2
    board = [(x, 0, "green") for x in range(9)]
    ends = set()
    for seed in range(20):
        s = scenario(
            g, board, mothers={RED: 7, BLUE: 8, a: 3}, seed=seed, mushrooms={0: (RED, 0, 10, 0), 6: (BLUE, 0, 11, 0)}
        )
        cfg = g.config.copy()
        s[R.A_CARDNOW] = 0
        side = cfg[R.CFG_LEVEL]
        cfg[R.CFG_AMOVE + side * 30 : R.CFG_AMOVE + side * 30 + 3] = R.MT_OPP_MUSH
        assert R.automata_move(s, cfg, a, WORK)
        ends.add(int(s[R.M_POS + a]))
    assert ends == {1, 5}  # two spaces towards the red or the blue mushroom


def _place_mothers(g, s, ring):
    for k in range(len(ring)):
        t = ring[k]
        g.step_inplace(s, R.A_TILE + t)


def _setup_seeds(g, ring, n=40):
    out = []
    for seed in range(200):
        s = g.new_state(seed)
        if all(g.tiles.colour[s[R.T_ID + t]] != 4 for t in range(6)):
            out.append(s)
        if len(out) == n:
            break
    return out


# Example B (the drawn player decides the side): tests/games/mycelia/test_mycelia_rulings.py


def test_automata_example_c_three_equidistant_players_put_it_between_two():
    g = MyceliaGame(num_players=3, automata=True)
    seen = set()
    for s in _setup_seeds(g, (0, 2, 4)):
        _place_mothers(g, s, (0, 2, 4))
        seen.add(int(s[R.M_POS + 3]))
    assert seen == {1, 3, 5}


def test_automata_plays_inside_step_and_is_never_an_agent():
    g = MyceliaGame(num_players=1)
    s = g.new_state(2)
    rng = np.random.default_rng(2)
    while not g.is_terminal(s):
        assert g.current_player(s) == 0
        a = g.legal_actions(s)
        g.step_inplace(s, int(a[rng.integers(len(a))]))
    assert s[R.STATS + R.ST_AUTO] > 0  # it fruited
    from mushgym.envs import mycelia_v1

    assert mycelia_v1.raw_env(num_players=1).possible_agents == ["player_0"]


def test_automata_fruit_takes_spores_from_the_most_populated_tile_and_grows_on_a_card_colour():
    g = MyceliaGame(num_players=1)
    a = 1
    board = [(0, 0, "red"), (1, 0, "green"), (2, 0, "brown"), (3, 0, "yellow"), (4, 0, "red")]
    s = scenario(g, board, mothers={RED: 4, a: 0}, spores={(0, a): 1, (1, a): 3, (2, a): 1, (3, a): 1})
    s[R.A_CARDNOW] = 0
    cfg = g.config.copy()
    side = cfg[R.CFG_LEVEL]
    cfg[R.CFG_AREQ + side * 50 : R.CFG_AREQ + side * 50 + 5] = [1, 0, 0, 0, 2]  # 1 red + 2 wild
    n = R.label_networks(s, a, WORK)
    assert R.automata_fruit(s, cfg, a, n, WORK)
    assert s[R.SP + 1 * R.MAXS + a] == 1  # both wild spores from the 3-spore green tile
    assert s[R.SP + 0 * R.MAXS + a] == 0 and s[R.MUSH_P + 0] == a  # grown on the red tile (a card colour)
    assert s[R.PTS + a] == 5


def test_designed_cards_follow_their_stated_rules():
    """cards.toml: points = 2 x spores required - 1 - (spore count - 3) + decay adjustment, in 2..8;
    colours asked for about equally often; The Prince as printed."""
    cards = load_cards()
    adj = {
        "move_outer_tile": 1,
        "move_opponent_mother": 1,
        "extra_spore": -1,
        "spore_with_mother": -1,
        "same_action_twice": -1,
        "mother_spores_three": -1,
    }
    for c in range(R.NC_BASE):
        if cards.names[c] == "The Prince":
            continue
        d = DECAYS[cards.decay[c]]
        want = 2 * int(cards.require[c].sum()) - 1 - (int(cards.spores[c]) - 3) + adj.get(d, 0)
        assert cards.points[c] == max(2, min(8, want)), cards.names[c]
    per_colour = cards.require.sum(axis=0)
    assert per_colour.min() >= 58 and per_colour.max() <= 64
    assert (cards.require > 0).sum(axis=1).max() <= 3
