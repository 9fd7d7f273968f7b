"""Mycelia positions from a description (``MyceliaGame.state_from``) and back (``describe``):
the round trip over random play, what a description fills in, and the refusals."""

import numpy as np
import pytest

from mushgym.envs.mycelia import layout as LY
from mushgym.envs.mycelia.game import MyceliaGame
from mushgym.envs.mycelia.positions import KINDS

RED, BLUE = 0, 1
STAR = [(-1, -1, "red"), (0, -1, "green"), (1, -1, "brown"), (1, 0, "yellow"), (0, 0, "red"), (-1, 0, "green")]
GAMES = {
    "base": {},
    "automata": {"num_players": 2, "automata": True},
    "expansion": {"num_players": 3, "expansion": "north_america"},
}


@pytest.fixture(scope="module")
def game():
    return MyceliaGame()


@pytest.fixture(scope="module", params=list(GAMES), ids=list(GAMES))
def any_game(request):
    return MyceliaGame(**GAMES[request.param])


def random_positions(game, games=2, steps=300, every=7, seed=0):
    rng = np.random.default_rng(seed)
    for i in range(games):
        s = game.new_state(seed + i)
        for k in range(steps):
            if game.is_terminal(s):
                break
            if k % every == 0:
                yield s
            s = game.step(s, int(rng.choice(game.legal_actions(s))))


def test_describe_then_state_from_reproduces_random_positions(any_game):
    """With the hidden piles, every slot but the generator and the event counters comes back;
    without them, every player's observation and the legal moves do (the piles dealt afresh)."""
    g = any_game
    n = 0
    for s in random_positions(g):
        back = g.state_from(**g.describe(s, hidden=True))
        a, b = LY.L.arrays(s.astype(np.int64)), LY.L.arrays(back)
        assert not [f for f in a if f not in ("rng", "stats") and not np.array_equal(a[f], b[f])]
        public = g.state_from(**g.describe(s), seed=n)
        for p in range(g.num_players):
            assert np.array_equal(g.observe(s, p), g.observe(public, p))
        assert np.array_equal(g.legal_mask(s), g.legal_mask(public))
        n += 1
    assert n > 40


def test_a_described_position_holds_what_was_described_and_accounts_for_the_rest(game):
    s = game.state_from(
        tiles=STAR,
        mothers={RED: 0, BLUE: 3},
        spores={1: {RED: 2}, 2: {BLUE: 1}},
        mats={RED: {0: {"card": "Death Cap", "tile": 4, "counter": 1, "under": ["Death Cap"]}}},
        hands={RED: ["Beefsteak Fungus", 7], BLUE: []},
        market=[10, None, 12],
        insects=[5],
        held_insects={RED: 2},
        turn_player=BLUE,
    )
    v = LY.L.arrays(s)
    assert int(v["tiles_placed"]) == 6 and int(v["mother"][RED]) == 0 and int(v["mother"][BLUE]) == 3
    assert list(v["supply"][:2]) == [28, 29] and int(v["mushroom_owner"][4]) == RED
    assert [int(x) for x in v["card_loc"][[0, 4, 5, 7]]] == [LY.L_HAND + RED, LY.L_TOP, LY.L_UNDER, LY.L_HAND + RED]
    assert int(v["points"][RED]) == int(game.cards.points[4] + game.cards.points[5]) and int(v["grown"][RED]) == 2
    assert list(v["market"]) == [10, -1, 12] and int(v["hand_count"][BLUE]) == 0
    assert int(v["insect_supply"]) == 20 - 1 - 2 - 1
    assert int(v["deck_count"]) == 69 - 2 - 2 - 2 and sum(v["pile_count"]) == 50 - 6
    assert v["adjacency"][0, 2] == 5 or 5 in v["adjacency"][0]  # the lattice links the star
    assert game.current_player(s) == BLUE and int(v["decisions"][0, 0]) == LY.D_MAIN


def test_a_pending_decision_is_named_as_the_layout_names_its_kind(game):
    """Every ``D_*`` kind of the layout is a name of ``pending``; here the Mother mushroom's
    move is asked (a0: moves left)."""
    assert KINDS["main"] == LY.D_MAIN and KINDS["move"] == LY.D_MOVE and len(KINDS) == LY.NUM_DECISIONS
    s = game.state_from(
        tiles=STAR,
        mothers={RED: 0, BLUE: 3},
        pending=[("main", RED), ("move", RED, 2)],
        actions_done=0,
        action_types=["move"],
    )
    assert game.describe(s)["pending"][-1][:3] == ("move", RED, 2)
    assert game.legal_actions(s).size >= 1


def test_a_finished_game(game):
    s = game.state_from(tiles=STAR, mothers={RED: 0, BLUE: 3}, over=True, turns_played=game.max_turns)
    assert game.is_terminal(s)


@pytest.mark.parametrize(
    "description,field",
    [
        (dict(hands={RED: ["Truffle"]}), "hands[0][0]: unknown card 'Truffle'; valid choices are 'Beefsteak Fungus'"),
        (dict(hands={RED: ["Death Cap"] * 5}), "hands[0][4]: too many Death Cap: the game has 4"),
        (
            dict(hands={RED: [3], BLUE: [3]}),
            "hands[1][0]: card 3 (Beefsteak Fungus) is placed twice: also in hands[0][0]",
        ),
        (dict(hands={RED: [80]}), "hands[0][0]: card 80 is not in this game; its cards are 0..68"),
        (dict(hands={2: [1]}), "hands: seat(s) [2] do not exist; seats are 0..1"),
        (dict(tiles=STAR + [(9, 9, "red")]), "tiles[6]: cell (9, 9) is off the board"),
        (dict(tiles=STAR + [(0, 0, "red")]), "tiles[6]: cell (0, 0) already holds tiles[4]"),
        (dict(tiles=STAR + [(0, 1, "purple")]), "tiles[6]: unknown tile 'purple'; valid choices are 'red', 'green'"),
        (dict(tiles=STAR + [(k, 1, "black") for k in range(7)]), "tiles[12]: too many black: the game has 6"),
        (dict(tiles=STAR[:5] + [(-1, 0, "green", 3)]), "tiles[5] rotation: must be an integer in 0..2, got 3"),
        (dict(mothers={RED: 0, BLUE: 9}), "mothers[1]: must be an integer in 0..5, got 9"),
        (dict(mothers={RED: 0, BLUE: 0}), "mothers[1]: tile 0 already holds the Mother mushroom of seat 0"),
        (dict(spores={1: {RED: 31}}), "spores[1][0]: must be an integer in 0..30"),
        (
            dict(spores={1: {RED: 20}, 2: {RED: 20}}),
            "spores: seat 0 has 40 spores on tiles and saplings; a seat has 30",
        ),
        (
            dict(insects=[0, 1, 2, 3, 4, 5], held_insects={RED: 14}),
            "insects: 1 insect tokens too many on tiles and held: the game has 20",
        ),
        (dict(mats={RED: {5: {"card": 1, "tile": 2}}}), "mats[0] mat: must be an integer in 0..4, got 5"),
        (dict(mats={RED: {0: {"card": 1}}}), "mats[0][0] tile: must be an integer in 0..5, got None"),
        (dict(mats={RED: {0: {"card": 1, "tile": 2, "colour": 1}}}), "mats[0][0]: unknown key(s) ['colour']"),
        (dict(mats={RED: {0: (1, 2), 1: (5, 2)}}), "mats[0][1] tile: tile 2 already holds a mushroom token"),
        (dict(mats={RED: {0: ("automata", 2)}}), "mats[0][0]: an Automata mushroom stands only on the Automata's mats"),
        (dict(market=[1, 2]), "market: must be 3 cards (None for an empty slot)"),
        (dict(pending=[("eat", RED)]), "pending[0]: unknown decision kind 'eat'; valid choices are ['main', 'setup'"),
        (dict(pending=[("main", 4)]), "pending[0] player: must be an integer in 0..1, got 4"),
        (dict(pending=[]), "pending: a running game has a decision to take"),
        (dict(pending=[("pay", RED, 0, 0, 0, 0)]), "invalid state: the decision stack is impossible"),
        (dict(turn_player=2), "turn_player: must be an integer in 0..1, got 2"),
        (dict(action_types=["fly"]), "action_types[0]: unknown action type 'fly'; valid choices are 'move'"),
        (dict(saplings={0: {}}), "saplings: only with the North American expansion"),
        (dict(automata_drawn=[1]), "automata_drawn: only in a game with the Automata"),
        (dict(deck=[1, 2, 3]), "deck: cards [0, 4, 5"),
        (dict(piles=([1], [2])), "piles[0][0]: tile 1 (red) is placed twice: also in tiles[4]"),
        (dict(colour="red"), "unknown description field(s) ['colour']; valid fields are ['tiles'"),
        (dict(ender=RED), "ender: only a finished game (over=True) has an ender"),
    ],
)
def test_bad_descriptions_are_refused_naming_the_field(game, description, field):
    position = dict(tiles=STAR, mothers={RED: 0, BLUE: 3})
    position.update(description)
    with pytest.raises(ValueError, match="^mycelia_v1: ") as e:
        game.state_from(**position)
    assert field in str(e.value)


def test_the_expansion_and_the_automata_pieces_are_refused_when_wrong():
    g = MyceliaGame(num_players=3, expansion="north_america")
    base = dict(tiles=STAR, mothers={0: 0, 1: 3, 2: 5})
    s = g.state_from(**base, saplings={1: {0: 2}}, trees={2: 1}, formation="U")
    v = LY.L.arrays(s)
    assert int(v["sapling_supply"]) == 14 and int(v["trees_left"][1]) == 2 and int(v["supply"][0]) == 28
    with pytest.raises(ValueError, match=r"saplings\[1\]\[0\]: must be an integer in 0..3"):
        g.state_from(**base, saplings={1: {0: 4}})
    with pytest.raises(ValueError, match=r"trees\[2\]: must be an integer in 0..2, got 3"):
        g.state_from(**base, trees={2: 3})
    with pytest.raises(ValueError, match="formation: unknown formation 'X'; valid choices are 'O', 'U', 'A'"):
        g.state_from(**base, formation="X")
    a = MyceliaGame(num_players=2, automata=True)
    with pytest.raises(ValueError, match="automata_deck: the Automata's deck and the cards drawn from it hold each"):
        a.state_from(tiles=STAR, mothers={0: 0, 1: 3, 2: 5}, automata_drawn=[1], automata_deck=[1, 2])
