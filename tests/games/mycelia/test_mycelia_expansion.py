"""Mycelia's North American expansion (``expansion="north_america"``): options, data, set-up,
the fifth player, wild spores, saplings, AGE and Grandfather Trees, the expansion's decay
actions and every Common Question of its rulebook as a scenario (RULES.md, "North American
expansion")."""

from __future__ import annotations

import numpy as np
import pytest
from mycelia_helpers import scenario

from mushgym import testing
from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.data import DECAYS, MyceliaDataError, load_cards
from mushgym.envs.mycelia.game import MyceliaGame, decode_action, encode_action

NA = "north_america"
RED, BLUE = 0, 1


@pytest.fixture(scope="module")
def game():
    return MyceliaGame(expansion=NA)


@pytest.fixture(scope="module")
def base():
    return MyceliaGame()


def na_card(game, wild=None, **require):
    """An expansion card id (69..) with exactly these coloured requirements (and wild count)."""
    for c in range(R.NC_BASE, R.NC):
        req = {k: int(v) for k, v in zip(("red", "green", "brown", "yellow"), game.cards.require[c]) if v}
        if req == require and (wild is None or game.cards.wild[c] == wild):
            return c
    raise AssertionError(f"no expansion card needs {require} + {wild} wild")


# --- options -----------------------------------------------------------------------------------
def test_base_game_spaces_are_the_prefix_and_never_move(base, game):
    assert (base.num_actions, base.observation_shape) == (R.NUM_ACTIONS_BASE, (R.OBS_SIZE,)) == (502, (1652,))
    assert game.num_actions == R.NUM_ACTIONS > base.num_actions
    assert game.observation_shape == (R.OBS_SIZE_NA,)
    assert encode_action("stop") == base.num_actions - 1  # the base game's groups end where they did
    for kind in ("card_na", "pay_seat4", "seat4", "no_invest", "push_sapling", "age", "reroll", "keep_tile"):
        assert encode_action(kind, *([0] * (kind not in ("seat4", "age", "no_invest")))) >= R.NUM_ACTIONS_BASE
    lo, hi = base.obs_low, base.obs_high
    np.testing.assert_array_equal(game.obs_low[: R.OBS_SIZE], lo)
    # the expansion raises only bounds that it makes larger (cards, insects, the fifth seat)
    assert (game.obs_high[: R.OBS_SIZE] >= hi).all()


def test_unknown_expansion_names_the_valid_choices():
    with pytest.raises(ValueError, match="north_america"):
        MyceliaGame(expansion="europe")


def test_fifth_player_needs_the_expansion():
    with pytest.raises(ValueError, match=r"num_players 1\.\.4.*1\.\.5 with expansion='north_america'"):
        MyceliaGame(num_players=5)
    assert MyceliaGame(num_players=5, expansion=NA).num_seats == 5


def test_sapling_setup_needs_the_expansion():
    with pytest.raises(ValueError, match="sapling_setup='U' needs the North American expansion"):
        MyceliaGame(sapling_setup="U")
    with pytest.raises(ValueError, match="valid choices are"):
        MyceliaGame(expansion=NA, sapling_setup="X")


@pytest.mark.parametrize("n", [4, 5])
def test_automata_joins_at_most_three_players(n):
    with pytest.raises(ValueError, match="joins 1 to 3 players"):
        MyceliaGame(num_players=n, expansion=NA, automata=True)


def test_harness_plays_the_fifth_player_through_combinations():
    sets = testing.option_sets(MyceliaGame)
    assert {"num_players": 5} not in sets and {"expansion": NA} in sets
    combos = testing.option_combinations(MyceliaGame)
    assert {"num_players": 5, "expansion": NA} in combos
    assert {"num_players": 1, "expansion": NA} in combos


# --- data ----------------------------------------------------------------------------------------
def test_expansion_cards_data():
    c = load_cards(expansion=True)
    assert len(c.names) == 35
    assert (c.wild >= 1).all(), "every expansion card shows a wild spore"
    assert ((2 <= c.points) & (c.points <= 8)).all()
    names = {DECAYS[int(d)] for d in c.decay}
    for d in (
        "sapling_spore_roll",
        "reroll_symbiosis",
        "explore_two_keep_one",
        "add_two_saplings",
        "remove_sapling_spore",
    ):
        assert d in names
    text = R.__file__.rsplit("/", 1)[0] + "/cards_north_america.toml"
    assert open(text).read().count('designed = ["all"]') == 35


def test_base_cards_refuse_wild_and_expansion_decays(tmp_path):
    src = open(R.__file__.rsplit("/", 1)[0] + "/cards.toml").read()
    bad = src.replace("require = { red = 2 }", "require = { red = 2, wild = 1 }", 1)
    p = tmp_path / "cards.toml"
    p.write_text(bad)
    with pytest.raises(MyceliaDataError, match="wild"):
        load_cards(p)
    bad = src.replace('decay = "extra_spore"', 'decay = "add_two_saplings"', 1)
    p.write_text(bad)
    with pytest.raises(MyceliaDataError, match="add_two_saplings"):
        load_cards(p)


# --- set-up ------------------------------------------------------------------------------------
@pytest.mark.parametrize("face", ["O", "U", "A"])
def test_sapling_formations(face):
    g = MyceliaGame(expansion=NA, sapling_setup=face)
    s = g.new_state(3)
    f = "OUA".index(face)
    assert s[R.FORMATION] == f
    tiles = [t for t in R.FORMATION_TILES[f] if t >= 0]
    assert [t for t in range(R.NT_MAX) if s[R.SAP + t]] == tiles
    assert s[R.SAP_SUPPLY] == R.SAPLINGS - len(tiles)


def test_rolled_formation_uses_every_face(game):
    faces = {int(game.new_state(seed)[R.FORMATION]) for seed in range(40)}
    assert faces == {0, 1, 2}


@pytest.mark.parametrize("n", [2, 5])
def test_setup_with_the_expansion(n):
    g = MyceliaGame(expansion=NA, num_players=n)
    s = g.new_state(1)
    while g.current_player(s) >= 0 and g._top(s)[0] == R.D_SETUP:
        g.step_inplace(s, int(np.flatnonzero(g.legal_mask(s))[0]))
    assert len({int(s[R.M_POS + p]) for p in range(n)}) == n
    held = int(s[R.INS : R.INS + n].sum())
    assert held >= n and int(s[R.INS_SUPPLY]) + int(s[R.T_INS : R.T_INS + R.NT_MAX].sum()) + held == R.INSECTS_MAX
    assert list(s[R.TREES_LEFT : R.TREES_LEFT + R.MAXS]) == [3] * n + [0] * (R.MAXS - n)
    assert all(s[R.LOC + c] != R.L_ABSENT for c in range(R.NC)), "the 35 cards are shuffled into the deck"


def test_base_game_has_no_expansion_pieces(base):
    s = base.new_state(2)
    assert s[R.FORMATION] == -1 and s[R.SAP_SUPPLY] == 0 and not s[R.SAP : R.SAP + R.NT_MAX].any()
    assert all(s[R.LOC + c] == R.L_ABSENT for c in range(R.NC_BASE, R.NC))
    assert (s[R.TREE : R.TREE + R.NT_MAX] == -1).all()


def test_new_tiles_roll_for_saplings():
    """Over random play every tile added after the star rolls the wind die: about a third get a
    sapling (while the supply lasts); never without the expansion."""
    g = MyceliaGame(expansion=NA, sapling_setup="O")
    new, with_sapling = 0, 0
    for seed in range(6):
        last = None
        for state, _ in testing.random_trajectory(g, seed, check=False):
            last = state
        n = int(last[R.NTP])
        new += n - 12
        with_sapling += int(last[R.SAP + 12 : R.SAP + n].sum())
    assert new > 30
    assert 0.15 < with_sapling / new < 0.55


# --- the fifth player ---------------------------------------------------------------------------
def test_fifth_seat_observation_block():
    g = MyceliaGame(expansion=NA, num_players=5)
    s = g.new_state(4)
    for state, _ in testing.random_trajectory(g, 4, check=False, max_steps=200):
        s = state
    from mushgym.envs.mycelia.observation_na import O_NA_SEAT4

    p = g.current_player(s)
    fifth = (p + 4) % 5
    obs = g.observe(s, p)
    assert obs[O_NA_SEAT4] == 1  # present
    assert obs[O_NA_SEAT4 + 2] == s[R.SUPPLY + fifth]


# --- wild spores -----------------------------------------------------------------------------------
def test_wild_spore_is_paid_by_any_colour(game):
    """Common Question: the grey outlined square is a wild spore: any colour pays it."""
    card = na_card(game, wild=1, green=1)
    board = [(0, 0, "green"), (0, 1, "red"), (1, 1, "yellow")]
    # one green and one red spore: the green pays green, the red pays the wild spore
    s = scenario(game, board, mothers={RED: 0, BLUE: 2}, spores={(0, RED): 1, (1, RED): 1}, hands={RED: [card]})
    mask = game.legal_mask(s)
    assert mask[encode_action("card_na", card - R.NC_BASE)]
    pts = int(s[R.PTS + RED])
    game.step_inplace(s, encode_action("card_na", card - R.NC_BASE))
    if game._top(s)[0] == R.D_FRUIT_MAT:
        game.step_inplace(s, encode_action("mat", 0))
    if game._top(s)[0] == R.D_FRUIT_TILE:
        game.step_inplace(s, encode_action("tile", 1))  # grow on the red tile: its spore pays the wild
    while game._top(s) and game._top(s)[0] == R.D_PAY:
        legal = np.flatnonzero(game.legal_mask(s))
        game.step_inplace(s, int(legal[0]))
    assert s[R.PTS + RED] == pts + game.cards.points[card]
    assert s[R.SUPPLY + RED] == R.SPORES_EACH
    game.check_invariants(s)


def test_wild_spore_is_still_a_spore(game):
    """One spore cannot pay a card that needs a green and a wild one."""
    card = na_card(game, wild=1, green=1)
    board = [(0, 0, "green"), (0, 1, "red"), (1, 1, "yellow")]
    s = scenario(game, board, mothers={RED: 0, BLUE: 2}, spores={(0, RED): 1}, hands={RED: [card]})
    assert not game.legal_mask(s)[encode_action("card_na", card - R.NC_BASE)]
    # two red spores: the green is missing (only black tiles stand in for a colour)
    s = scenario(game, board, mothers={RED: 0, BLUE: 2}, spores={(1, RED): 2}, hands={RED: [card]})
    assert not game.legal_mask(s)[encode_action("card_na", card - R.NC_BASE)]


# --- scenarios: saplings, AGE, Grandfather Trees (every Common Question of the rulebook) ------------
from mycelia_helpers import WORK, legal_tiles  # noqa: E402

from mushgym.envs.mycelia import expansion as NAK  # noqa: E402

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


def settle(game, s):
    R.settle(s, game.config, WORK[R.W_MASK : R.W_MASK + R.NUM_ACTIONS], WORK)


def spore(game, s, p, origin, sym, count):
    """A SPORE action of ``p`` from tile ``origin`` with the wind symbol ``sym`` (the die fixed)."""
    R.start_action(s, R.T_SPORE)
    NAK.begin_spore(s, p)
    R.spore_from(s, game.config, p, origin, SYM[sym], count, -1, WORK)
    settle(game, s)


def legal(game, s):
    return [decode_action(int(a)) for a in np.flatnonzero(game.legal_mask(s))]


def held(s, t, p):
    return int(s[R.SAP_SP + t * R.MAXS + p])


def test_invest_once_per_spore_action(game):
    """Common Question: can I add multiple spores into saplings? No: ONE spore per SPORE action,
    onto a sapling of a tile one of its spores landed on (or none)."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, symbols={0: {0: "U"}}, saplings={1: {}, 3: {}, 5: {}})
    spore(game, s, RED, 0, "U", 4)  # t0, t1, t2, t3
    assert game._top(s)[0] == R.D_INVEST and game.current_player(s) == RED
    assert legal_tiles(game, s) == [1, 3]  # t5 has a sapling but no spore landed there
    assert ("no_invest",) in legal(game, s)
    s2 = s.copy()
    game.step_inplace(s, encode_action("tile", 3))
    assert held(s, 3, RED) == 1 and s[R.SP + 3 * R.MAXS + RED] == 0 and s[R.INVESTED] in (0, 1)
    top = game._top(s)
    assert not top or top[0] != R.D_INVEST  # never a second investment
    game.check_invariants(s)
    game.step_inplace(s2, encode_action("no_invest"))  # or keep every spore on its tile
    assert held(s2, 1, RED) == held(s2, 3, RED) == 0 and s2[R.SP + 3 * R.MAXS + RED] == 1


def test_sapling_spores_are_no_part_of_the_network(game):
    """Common Question: spores on a sapling cannot pay for a mushroom and are no part of the
    network (and no decay action but the sapling ones moves them)."""
    card = na_card(game, wild=1, red=1)
    board = [(0, 0, "green"), (0, 1, "red"), (1, 1, "yellow")]
    s = scenario(
        game, board, mothers={RED: 0, BLUE: 2}, spores={(0, RED): 1}, saplings={1: {RED: 1}}, hands={RED: [card]}
    )
    assert not game.legal_mask(s)[encode_action("card_na", card - R.NC_BASE)]
    n = R.label_networks(s, RED, WORK)
    assert n == 1 and WORK[R.LABEL + 1] == -1  # the sapling's tile is outside the network
    s[R.SP + 1 * R.MAXS + RED] += 1  # a spore on the tile itself does count
    s[R.SUPPLY + RED] -= 1
    assert game.legal_mask(s)[encode_action("card_na", card - R.NC_BASE)]


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("sym", ["O", "U", "A"])
def test_symbiosis_table(game, k, sym):
    """The symbiosis table: U a spore within the network (every row), O an EXPLORE (2 or 3 spores on
    the sapling), A an insect token (3 spores: the guaranteed bonus)."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, spores={(0, RED): 1})
    depth, ins = R.decision_depth(s), int(s[R.INS + RED])
    NAK._bonus(s, game.config, RED, k, SYM[sym])
    top = game._top(s)
    if sym == "U":
        assert top[0] == R.D_SYM_SPORE
        assert legal_tiles(game, s) == [0]  # RED's network: the M's tile
    elif sym == "O" and k >= 2:
        assert top[0] == R.D_BONUS_PILE and legal(game, s) == [("pile", 0), ("pile", 1)]
    elif sym == "A" and k == 3:
        assert R.decision_depth(s) == depth and s[R.INS + RED] == ins + 1
    else:
        assert R.decision_depth(s) == depth and s[R.INS + RED] == ins  # nothing: move along!


def test_reroll_upgrade_offers_a_second_roll(game):
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, saplings={1: {RED: 1}}, upgrades={RED: R.GU_REROLL})
    NAK.symbiosis(s, game.config, RED, 1)
    top = game._top(s)
    assert top[0] == R.D_REROLL and top[2] == 1 and legal(game, s) == [("reroll", 0), ("reroll", 1)]
    first = top[3]
    game.step_inplace(s, encode_action("reroll", 0))  # keep: the first roll's bonus
    t2 = game._top(s)
    # U: the bonus spore within the network, asked (or placed at once on RED's only tile, its Mother's)
    bonus = t2[0] == R.D_SYM_SPORE or s[R.SP + 0 * R.MAXS + RED] == 1
    assert bonus == (first == SYM["U"])


def _aged(game, mushroom=False, extra=None):
    """RED's M on t1's sapling (3 spores: 2 RED, 1 BLUE), optionally RED's mushroom on t1."""
    card = next(c for c in range(R.NC_BASE) if game.cards.decay[c] == DECAYS.index("extra_spore"))
    mush = {1: (RED, 0, card, 0)} if mushroom else None
    return scenario(
        game, BOARD, mothers={RED: 1, BLUE: 7}, saplings={1: {RED: 2, BLUE: 1}}, mushrooms=mush, spores=extra
    ), card


def test_age_grows_a_grandfather_tree_worth_five(game):
    s, _ = _aged(game)
    assert ("age",) in legal(game, s)
    before = [R.final_score(s, game.config, p) for p in (RED, BLUE)]
    game.step_inplace(s, encode_action("age"))
    assert s[R.TREE + 1] == RED and s[R.SAP + 1] == 0 and s[R.TREES_LEFT + RED] == 2
    assert s[R.SUPPLY + RED] == R.SPORES_EACH and s[R.SUPPLY + BLUE] == R.SPORES_EACH  # spores back to owners
    assert s[R.SAP_SUPPLY] == R.SAPLINGS  # the sapling back to the supply
    assert R.final_score(s, game.config, RED) == before[0] + 5 and R.final_score(s, game.config, BLUE) == before[1]
    assert ("age",) not in legal(game, s)
    game.check_invariants(s)


def test_age_needs_three_spores_and_the_mother_mushroom(game):
    s = scenario(game, BOARD, mothers={RED: 1, BLUE: 7}, saplings={1: {RED: 2}})
    assert ("age",) not in legal(game, s)
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, saplings={1: {RED: 3}})
    assert ("age",) not in legal(game, s)


def test_age_over_own_mushroom_decays_it_at_once(game):
    """Common Question: if I AGE a sapling into a Grandfather Tree whilst my mushroom token is
    present does it instantly decay? Yes, even if it has not spored (its decay action resolves)."""
    s, card = _aged(game, mushroom=True)
    game.step_inplace(s, encode_action("age"))
    assert s[R.MUSH_P + 1] == -1 and s[R.MAT_TILE + RED * R.NMATS] == -1
    assert s[R.LOC + card] == R.L_UNDER + RED * R.NMATS and s[R.MAT_UNDER + RED * R.NMATS] == 1
    assert s[R.MAT_UPG + RED * R.NMATS] & R.MU_EXTRA  # its decay action (extra spore) resolved
    game.check_invariants(s)


def test_spores_on_a_new_tree_are_pushed_but_never_into_a_sapling(game):
    """Common Question: a spore displaced by a Grandfather Tree that has just been added (an AGE
    action) cannot go onto a sapling: only a SPORE action invests."""
    s, _ = _aged(game, extra={(1, BLUE): 1})
    s[R.SAP + 2] = 1
    s[R.SAP_SUPPLY] -= 1
    game.step_inplace(s, encode_action("age"))
    top = game._top(s)
    assert top[0] == R.D_TREE_PUSH and game.current_player(s) == RED and top[3] == BLUE
    opts = legal(game, s)
    assert all(k == "tile" for k, *_ in opts) and sorted(t for _, t in opts) == [0, 2, 3]
    game.step_inplace(s, encode_action("tile", 2))
    assert s[R.SP + 2 * R.MAXS + BLUE] == 1 and s[R.SP + 1 * R.MAXS + BLUE] == 0
    game.check_invariants(s)


def test_mother_mushroom_moves_through_and_spores_on_a_tree(game):
    """Common Question: my Mother mushroom may move through a tile with an opponent's Grandfather
    Tree, stay there and spore from it."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={1: BLUE})
    assert ("tile", 1) in legal(game, s)
    game.step_inplace(s, encode_action("tile", 1))
    assert s[R.M_POS + RED] == 1
    assert ("tile", 2) in legal(game, s) or ("tile", 3) in legal(game, s)  # and on through it
    s = scenario(game, BOARD, mothers={RED: 1, BLUE: 7}, trees={1: BLUE})
    assert ("spore", 0) in legal(game, s)


def test_tree_is_part_of_its_owners_network_even_under_another_mother(game):
    """Common Questions: is my Grandfather Tree part of my network? Yes; still with another
    player's Mother mushroom on it (both are part of their own networks)."""
    s = scenario(game, BOARD, mothers={RED: 5, BLUE: 1}, trees={1: RED}, spores={(2, RED): 1, (0, RED): 1})
    R.label_networks(s, RED, WORK)
    labels = [int(WORK[R.LABEL + t]) for t in range(8)]
    assert labels[0] == labels[1] == labels[2] >= 0  # joined through the tree, under BLUE's M
    R.label_networks(s, BLUE, WORK)
    assert WORK[R.LABEL + 1] >= 0
    game.check_invariants(s)


def test_spore_from_own_tree_first_spore_is_redirected_any_way(game):
    """Common Question: sporing from my Mother mushroom on my own Grandfather Tree, I choose where
    the first spore goes (it lands on the tree, then the tree pushes it to any neighbour)."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={0: RED}, symbols={0: {0: "U"}})
    spore(game, s, RED, 0, "U", 2)  # t0 (the tree) and t1
    top = game._top(s)
    assert top[0] == R.D_TREE_PUSH and top[1] == RED and top[2] == 0
    assert sorted(t for _, t in legal(game, s)) == [1, 4, 5]  # every neighbour of the tree
    game.step_inplace(s, encode_action("tile", 4))
    assert s[R.SP + 4 * R.MAXS + RED] == 1 and s[R.SP + 0 * R.MAXS + RED] == 0
    game.check_invariants(s)


def test_redirect_back_the_way_it_came_and_by_the_owner(game):
    """Common Question: a spore that came into my Grandfather Tree may go back the way it came
    (only the tree's owner redirects: here BLUE, during RED's SPORE action)."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={1: BLUE}, symbols={0: {0: "U"}})
    spore(game, s, RED, 0, "U", 2)  # t0 and t1 (BLUE's tree)
    assert game._top(s)[0] == R.D_TREE_PUSH and game.current_player(s) == BLUE
    assert ("tile", 0) in legal(game, s)
    game.step_inplace(s, encode_action("tile", 0))
    assert s[R.SP + 0 * R.MAXS + RED] == 2 and game.current_player(s) == RED
    game.check_invariants(s)


def test_daisy_chain_through_trees(game):
    """Spores may be redirected through several Grandfather Trees (never back into a tree the
    spore already went through: the chain ends)."""
    s = scenario(game, BOARD, mothers={RED: 4, BLUE: 7}, trees={0: RED, 1: RED}, symbols={4: {2: "U"}})
    R.start_action(s, R.T_SPORE)
    NAK.begin_spore(s, RED)
    R.put_spore(s, RED, 0)  # a spore lands on tree t0
    settle(game, s)
    assert game._top(s)[:3] == (R.D_TREE_PUSH, RED, 0)
    game.step_inplace(s, encode_action("tile", 1))  # into tree t1 ...
    assert game._top(s)[:3] == (R.D_TREE_PUSH, RED, 1)
    assert ("tile", 0) not in legal(game, s)  # ... not back into t0
    game.step_inplace(s, encode_action("tile", 6 if ("tile", 6) in legal(game, s) else 2))
    assert not game._top(s) or game._top(s)[0] != R.D_TREE_PUSH
    game.check_invariants(s)


def test_push_into_a_sapling_gives_the_spore_owner_the_roll(game):
    """Common Question: I moved someone else's spore into a sapling via my Grandfather Tree: the
    spore's owner gets the bonus, and only if the SPORE action had not invested."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={1: BLUE}, saplings={2: {}}, symbols={0: {0: "U"}})
    spore(game, s, RED, 0, "U", 2)  # t0 and t1 (BLUE's tree); nothing landed on a sapling
    assert game._top(s)[0] == R.D_TREE_PUSH and game.current_player(s) == BLUE
    assert ("push_sapling", 2) in legal(game, s)
    game.step_inplace(s, encode_action("push_sapling", 2))
    assert held(s, 2, RED) == 1 and s[R.SP + 1 * R.MAXS + RED] == 0
    game.check_invariants(s)
    # after an investment the tree cannot redirect into a sapling
    s = scenario(
        game, BOARD, mothers={RED: 0, BLUE: 7}, trees={3: BLUE}, saplings={1: {}, 2: {}}, symbols={0: {0: "U"}}
    )
    spore(game, s, RED, 0, "U", 4)  # t0, t1 (sapling), t2 (sapling), t3 (BLUE's tree)
    assert game._top(s)[0] == R.D_INVEST
    game.step_inplace(s, encode_action("tile", 1))
    while game._top(s) and game._top(s)[0] != R.D_TREE_PUSH:  # the symbiosis bonus, if any
        game.step_inplace(s, int(np.flatnonzero(game.legal_mask(s))[0]))
    assert game._top(s)[0] == R.D_TREE_PUSH and game.current_player(s) == BLUE
    assert legal(game, s) and not any(k == "push_sapling" for k, *_ in legal(game, s))


def test_bonus_spore_on_own_tree_is_redirected(game):
    """Common Question: the "one spore within your network" bonus may go on my Grandfather Tree
    (part of my network) and then be redirected to a new tile."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={1: RED})
    NAK._bonus(s, game.config, RED, 1, SYM["U"])
    assert 1 in legal_tiles(game, s)
    game.step_inplace(s, encode_action("tile", 1))
    assert game._top(s)[0] == R.D_TREE_PUSH
    game.step_inplace(s, encode_action("tile", 3))
    assert s[R.SP + 3 * R.MAXS + RED] == 1
    game.check_invariants(s)


def test_no_mushroom_moved_onto_a_tree(game):
    """A Grandfather Tree tile holds no mushroom token: never a destination of a moved mushroom."""
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, trees={1: RED, 2: RED, 3: RED})
    assert R.empty_tier(s, 1) == -1 and R.empty_tier(s, 4) >= 0


# --- the expansion's decay actions --------------------------------------------------------------------
def _decaying(game, decay, **kw):
    card = next(c for c in range(R.NC_BASE, R.NC) if DECAYS[int(game.cards.decay[c])] == decay)
    s = scenario(game, BOARD, mothers={RED: 0, BLUE: 7}, mushrooms={4: (RED, 0, card, 2)}, **kw)
    game.step_inplace(s, encode_action("decay", 0))
    return s


def test_decay_add_a_spore_to_any_sapling_and_roll(game):
    s = _decaying(game, "sapling_spore_roll", saplings={2: {BLUE: 1}, 6: {}})
    assert game._top(s)[0] == R.D_SAP_PICK and legal_tiles(game, s) == [2, 6]
    game.step_inplace(s, encode_action("tile", 2))
    assert held(s, 2, RED) == 1 and held(s, 2, BLUE) == 1
    game.check_invariants(s)


def test_decay_reroll_and_explore_two_are_upgrades(game):
    s = _decaying(game, "reroll_symbiosis")
    assert s[R.GUPG + RED] & R.GU_REROLL
    s = _decaying(game, "explore_two_keep_one")
    assert s[R.GUPG + RED] & R.GU_EXPLORE2
    piles = int(s[R.PILE_N]) + int(s[R.PILE_N + 1])
    game.step_inplace(s, encode_action("pile", 0))  # EXPLORE: two tiles drawn, one kept
    top = game._top(s)
    assert top[0] == R.D_KEEP_TILE and legal(game, s) == [("keep_tile", 0), ("keep_tile", 1)]
    other = top[3]
    game.step_inplace(s, encode_action("keep_tile", 0))
    assert int(s[R.PILE_N]) + int(s[R.PILE_N + 1]) == piles - 2 and s[R.DRAWN] == top[2]
    assert R.bit_get(s, R.TILES_OUT, other)  # the other is discarded
    game.check_invariants(s)


def test_decay_add_two_saplings(game):
    s = _decaying(game, "add_two_saplings", saplings={2: {}}, trees={3: RED})
    assert game._top(s)[0] == R.D_SAP_ADD
    assert 2 not in legal_tiles(game, s) and 3 not in legal_tiles(game, s)  # one per tile, never on a tree
    supply = int(s[R.SAP_SUPPLY])
    game.step_inplace(s, encode_action("tile", 5))
    game.step_inplace(s, encode_action("tile", 6))
    assert s[R.SAP + 5] == s[R.SAP + 6] == 1 and s[R.SAP_SUPPLY] == supply - 2
    game.check_invariants(s)


def test_decay_remove_a_spore_from_a_sapling(game):
    s = _decaying(game, "remove_sapling_spore", saplings={2: {RED: 1, BLUE: 1}, 6: {BLUE: 2}})
    assert legal_tiles(game, s) == [2, 6]
    game.step_inplace(s, encode_action("tile", 2))  # two owners there: whose spore
    assert game._top(s)[0] == R.D_SAP_REMOVE_SEAT and legal(game, s) == [("seat", RED), ("seat", BLUE)]
    game.step_inplace(s, encode_action("seat", BLUE))
    assert held(s, 2, BLUE) == 0 and held(s, 2, RED) == 1 and s[R.SUPPLY + BLUE] == R.SPORES_EACH - 2
    game.check_invariants(s)


# --- greedy, hidden information, the determinizer ---------------------------------------------------
def test_greedy_beats_random_with_the_expansion():
    from mushgym.agents import GreedyAgent, RandomAgent, play_match

    g = MyceliaGame(expansion=NA)
    games = 10 * testing.slow_scale()  # the greedy player's steps run in Python: few games by default
    m = play_match(g, GreedyAgent("mycelia_v1", seed=0), RandomAgent(seed=1), games, seed=0)
    assert m.wins > 2 * m.losses


def test_greedy_and_observation_read_nothing_hidden_with_the_expansion():
    from mushgym.agents import GreedyAgent

    g = MyceliaGame(expansion=NA, num_players=3)
    agent = GreedyAgent("mycelia_v1", seed=0)
    rng = np.random.default_rng(2)
    checked = 0
    for s in testing.random_states(g, n_games=2, seed=6, every=9):
        p = g.current_player(s)
        if p < 0:
            continue
        other = g.perturb_hidden(s, p, rng)
        np.testing.assert_array_equal(g.observe(other, p), g.observe(s, p))
        np.testing.assert_array_equal(agent.scores(g, other, p), agent.scores(g, s, p))
        checked += 1
    assert checked > 20
    assert testing.check_hidden_information(g, n_games=1, seed=8) > 0


def test_determinize_keeps_the_view_with_the_expansion():
    from mushgym.core import rng_seed
    from mushgym.envs.mycelia.determinize import determinize

    g = MyceliaGame(expansion=NA, num_players=5)
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, 5)
    moved = 0
    for s in testing.random_states(g, n_games=1, seed=2, every=11):
        for p in range(g.num_players):
            d = s.copy()
            determinize(d, p, g.config, g.work, rng)
            g.validate(d)
            g.check_invariants(d)
            np.testing.assert_array_equal(g.observe(d, p), g.observe(s, p))
            moved += not np.array_equal(d, s)
    assert moved > 0


# --- the expansion with the base game's options (random play, every check on every step) ---------------
BASE_OPTIONS = [
    dict(num_players=2, mats=3),
    dict(num_players=4, mats=4),
    dict(num_players=1),
    dict(num_players=1, automata_level="hard"),
    dict(num_players=2, automata=True),
    dict(num_players=3, automata=True, automata_level="hard"),
    dict(num_players=5, mats=3),
    dict(num_players=2, turn_limit_end="score", reward="score_diff"),
]


@pytest.mark.parametrize("opts", BASE_OPTIONS, ids=testing.options_id)
def test_expansion_with_each_base_option(opts):
    g = MyceliaGame(expansion=NA, turn_limit=40, **opts)
    r = testing.play_random_games(g, n_games=1, seed=21)
    assert (r["lengths"] > 0).all()
    for s in testing.random_states(g, n_games=1, seed=22, every=6):
        g.validate(s)


def test_two_player_rule_with_the_expansion():
    g = MyceliaGame(expansion=NA)
    s = g.new_state(9)
    first = int(s[R.FIRST])
    assert s[R.HAND_N + first] == 3 and s[R.HAND_N + 1 - first] == 4


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_expansion_long_random_play(n):
    """The full form: whole games (80 rounds) for every player count."""
    g = MyceliaGame(expansion=NA, num_players=n)
    r = testing.play_random_games(g, n_games=2 * testing.slow_scale(), seed=400 + n)
    assert r["lengths"].max() <= g.spec.max_game_length
