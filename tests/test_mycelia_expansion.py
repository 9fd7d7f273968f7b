"""Mycelia's North American expansion (``expansion="north_america"``): options, data, set-up,
the fifth player, wild spores, saplings, AGE and Grandfather Trees, the expansion's decay
actions and every Common Question of its rulebook as a scenario (RULES.md, "North American
expansion")."""

from __future__ import annotations

import numpy as np
import pytest

from mushgym import testing
from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.data import DECAYS, MyceliaDataError, load_cards
from mushgym.envs.mycelia.game import MyceliaGame, encode_action

from mycelia_helpers import scenario

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
    assert encode_action("stop") == base.num_actions - 1   # the base game's groups end where they did
    for kind in ("card_na", "pay_seat4", "seat4", "no_invest", "push_sapling", "age", "reroll", "keep_tile"):
        assert encode_action(kind, *([0] * (kind not in ("seat4", "age", "no_invest")))) >= R.NUM_ACTIONS_BASE
    lo, hi = base.obs_low, base.obs_high
    np.testing.assert_array_equal(game.obs_low[:R.OBS_SIZE], lo)
    # the expansion raises only bounds that it makes larger (cards, insects, the fifth seat)
    assert (game.obs_high[:R.OBS_SIZE] >= hi).all()


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
    for d in ("sapling_spore_roll", "reroll_symbiosis", "explore_two_keep_one", "add_two_saplings",
              "remove_sapling_spore"):
        assert d in names
    text = (R.__file__.rsplit("/", 1)[0] + "/cards_north_america.toml")
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
    held = int(s[R.INS:R.INS + n].sum())
    assert held >= n and int(s[R.INS_SUPPLY]) + int(s[R.T_INS:R.T_INS + R.NT_MAX].sum()) + held == R.INSECTS_MAX
    assert list(s[R.TREES_LEFT:R.TREES_LEFT + R.MAXS]) == [3] * n + [0] * (R.MAXS - n)
    assert all(s[R.LOC + c] != R.L_ABSENT for c in range(R.NC)), "the 35 cards are shuffled into the deck"


def test_base_game_has_no_expansion_pieces(base):
    s = base.new_state(2)
    assert s[R.FORMATION] == -1 and s[R.SAP_SUPPLY] == 0 and not s[R.SAP:R.SAP + R.NT_MAX].any()
    assert all(s[R.LOC + c] == R.L_ABSENT for c in range(R.NC_BASE, R.NC))
    assert (s[R.TREE:R.TREE + R.NT_MAX] == -1).all()


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
        with_sapling += int(last[R.SAP + 12:R.SAP + n].sum())
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
    assert obs[O_NA_SEAT4] == 1   # present
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
        game.step_inplace(s, encode_action("tile", 1))   # grow on the red tile: its spore pays the wild
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
