"""Mycelium positions from a description (``MyceliumGame.state_from``) and back (``describe``):
the round trip over random play (the variants too), a combat set up mid-way, and the refusals."""

import numpy as np
import pytest
from mycelium_helpers import K

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import load_board
from mushgym.envs.mycelium.game import MyceliumGame
from mushgym.envs.mycelium.positions import KINDS

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3
GAMES = {
    "2p": {},
    "4p": {"num_players": 4},
    "emsporium": {"num_players": 3, "emsporium": True},
    "legends": {"num_players": 4, "legends": True},
    "team": {"num_players": 4, "team": True},
}


@pytest.fixture(scope="module")
def game():
    return MyceliumGame(num_players=4)


@pytest.fixture(scope="module", params=list(GAMES), ids=list(GAMES))
def any_game(request):
    return MyceliumGame(**GAMES[request.param])


def random_positions(game, games=2, steps=250, every=5, seed=0):
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
    """With the hidden decks, every slot but the generator comes back; without them every
    player's observation and the legal moves do (the decks dealt afresh, what is known kept)."""
    g = any_game
    n = 0
    for s in random_positions(g):
        back = g.state_from(**g.describe(s, hidden=True))
        a, b = rules.STATE.arrays(s.astype(np.int64)), rules.STATE.arrays(back)
        assert not [f for f in a if f != "rng" and not np.array_equal(a[f], b[f])]
        public = g.state_from(**g.describe(s), seed=n)
        for p in range(g.num_players):
            assert np.array_equal(g.observe(s, p), g.observe(public, p))
        assert np.array_equal(g.legal_mask(s), g.legal_mask(public))
        n += 1
    assert n > 50


def combat_after_the_reveal(game, **more):
    """The rulebook's combat example at its reinforcement window: Blue's Parasol against Red's
    Liberty Cap on Red's Path, both revealed; Blue holds a Blue Oyster, Red a combat token."""
    return game.state_from(
        paths={39: RED},
        turn_player=BLUE,
        first_player=BEIGE,
        phase="action",
        turn=1,
        hands={BLUE: ["Blue Oyster"], RED: ["Death Cap"]},
        combat_tokens={RED: 1},
        combat={
            "attacker": BLUE,
            "defender": RED,
            "edge": 39,
            "cards": ["Parasol", "Liberty Cap"],
            "defended": 1,
            "revealed": 1,
            "stage": "reinf",
            "next": GREEN,
        },
        pending=[("combat", BLUE), ("reinf", BLUE)],
        **more,
    )


def test_a_combat_in_progress_from_a_description_plays_out_as_the_rulebook_says(game):
    s = combat_after_the_reveal(game, deck=None)
    v = rules.STATE.arrays(s)
    assert game.current_player(s) == BLUE and int(v["deck_n"]) == rules.NUM_MUSHLING_CARDS - 4
    act = game.encode_action
    for name, args in (("reinforce", (0, 0)), ("pass", ()), ("combat_token", (1,)), ("pass", ())):
        game.step_inplace(s, act(name, *args))
    assert list(v["c_bonus"]) == [2, 1] and int(v["c_winner"]) == 1  # a tie: the defender wins
    assert v["paths"][39].tolist().count(RED + 1) == 1 and v["hand"][RED].sum() == 2


def test_a_reaction_window_is_a_pending_entry_named_by_its_kind(game):
    """Every ``D_*`` kind of the layout is a name of ``pending`` (a new kind needs no edit):
    here the Fly Agaric window over Blue's Veiled Lady, in flight."""
    assert len(KINDS) == rules.NUM_D and KINDS["fa"] == rules.D_FA and KINDS["resolve"] == rules.D_RESOLVE
    s = game.state_from(
        turn_player=BLUE,
        hands={GREEN: ["Fly Agaric"]},
        limbo={"Veiled Lady": 1},
        pending=[("resolve", BLUE, rules.AB_VEILED, 0, 0, 0, 0), ("fa", GREEN, 0)],
    )
    assert game.current_player(s) == GREEN
    mask = game.legal_mask(s)
    assert mask[game.encode_action("fly_agaric")] and mask[game.encode_action("pass")]
    assert game.describe(s)["pending"][-1][:2] == ("fa", GREEN)


def test_what_a_description_fills_in(game):
    s = game.state_from(
        hands={BLUE: {"Russula": 2}},
        gatherers={RED: ["Oak", None, "Mush Room"]},
        discard=["Truffle"],
        nutrients={GREEN: 4},
        location_nutrients={"Oak": 2},
        deck_top={"Shiitake": 2},
        deck_top_n=2,
        nutrient_discard={"Forest Rain": 1},
    )
    v = rules.STATE.arrays(s)
    assert (
        int(v["deck_n"]) == rules.NUM_MUSHLING_CARDS - 3
        and list(v["deck"][int(v["deck_n"]) - 2 : int(v["deck_n"])]) == [K["Shiitake"]] * 2
    )
    assert list(v["gatherer"][RED]) == [
        load_board(4).gloc_names.index("Oak"),
        -1,
        load_board(4).gloc_names.index("Mush Room"),
    ]
    assert int(v["ndeck_n"]) == int(game.config[rules.CFG_NNUT]) - 1
    assert list(v["mat_spores"]) == [3, 3, 3, 3] and int(v["npaths"].sum()) == 0  # set-up spores, no Paths built


@pytest.mark.parametrize(
    "description,field",
    [
        (dict(hands={BLUE: ["Truffles"]}), "hands[0]: unknown kind 'Truffles'; valid choices are 'Amethyst Deceiver'"),
        (
            dict(hands={BLUE: {"Death Cap": 2}}),
            "hands[0]: too many Death Cap: the game has 1, the description places 2",
        ),
        (
            dict(hands={BLUE: ["Truffle"]}, discard=["Truffle"]),
            "discard: too many Truffle: the game has 1, the description places 2 (hands[0] 1, discard 1)",
        ),
        (dict(hands={4: ["Truffle"]}), "hands: seat(s) [4] do not exist; seats are 0..3"),
        (dict(paths={500: BLUE}), "paths: must be an integer in 0..131, got 500"),
        (dict(paths={39: [RED, RED]}), "paths[39]: an edge never holds two Paths of one player (seat 2)"),
        (dict(paths={39: [RED]}), "paths[39]: an edge holds 2 Paths"),
        (
            dict(gatherers={BLUE: ["Atlantis"]}),
            "gatherers[0][0]: unknown location 'Atlantis'; valid choices are 'Blue Spore Cave'",
        ),
        (dict(gatherers={BLUE: ["Oak"] * 4}), "gatherers[0]: a player has 3 gatherers"),
        (dict(gatherers={BLUE: ["Hero Tavern"]}), "gatherers[0][0]: unknown location 'Hero Tavern'"),
        (dict(spores={BLUE: 51}), "spores[0]: must be an integer in 0..50, got 51"),
        (dict(spores={BLUE: 30, RED: 30}), "spore tokens: 60 Spore Tokens placed; the game has 50"),
        (dict(phase="lunch"), "phase: unknown phase 'lunch'; valid choices are 'explore', 'nutrient', 'action'"),
        (dict(phase="over"), "done: phase 'over' goes with done 'rules' or 'turn_limit'"),
        (dict(pending=[("eat", BLUE)]), "pending[0]: unknown decision kind 'eat'; valid choices are ['resolve'"),
        (dict(pending=[("pay", BLUE, 99)]), "invalid state"),
        (dict(pending=[("fa", 7, 0)]), "pending[0] player: must be an integer in 0..3, got 7"),
        (dict(combat={"attacker": BLUE}), "combat defender: must be an integer in 0..3, got None"),
        (
            dict(combat={"attacker": BLUE, "defender": RED, "edge": 39, "stage": "brawl"}),
            "combat stage: unknown stage 'brawl'; valid choices are 'reveal', 'ad', 'reinf'",
        ),
        (
            dict(combat={"attacker": BLUE, "defender": RED, "edge": 39, "cards": ["Parasol"]}),
            "combat cards: one card (kind or None) per side",
        ),
        (dict(combat={"fighters": 2}), "combat: unknown key(s) ['fighters']"),
        (dict(known={RED: {BLUE: ["Truffle"]}}), "known[2][0]: player 2 cannot know of cards player 0 does not hold"),
        (dict(deck=["Truffle"]), "deck: must hold exactly the kinds not placed"),
        (dict(deck_top={"Truffle": 1}, deck_top_n=2), "deck_top_n: must be an integer in 0..1, got 2"),
        (dict(nutrient_discard={"Forest Rain": 2}), "nutrient_discard: too many Forest Rain: the game has 1"),
        (dict(items={BLUE: ["Sword"]}), "items: only with the emsporium variant (emsporium=True)"),
        (dict(heroes={BLUE: ["Earthstar"]}), "heroes: only with the hero_tavern variant"),
        (dict(trade_used=1), "trade_used: only with the team variant"),
        (dict(nutrients_seen={BLUE: {0: "Acorn"}}), "nutrients_seen[0][0]: unknown nutrient card 'Acorn'"),
        (dict(colour="red"), "unknown description field(s) ['colour']; valid fields are ['paths'"),
    ],
)
def test_bad_descriptions_are_refused_naming_the_field(game, description, field):
    with pytest.raises(ValueError, match="^mycelium_v2: ") as e:
        game.state_from(**description)
    assert field in str(e.value)


def test_the_variants_pieces_are_counted_and_refused_when_wrong():
    em = MyceliumGame(num_players=3, emsporium=True)
    s = em.state_from(items={BLUE: ["Sword", "Sword"]}, shop=["Bow", None, None, None, None], phase="action")
    v = rules.STATE.arrays(s)
    assert int(v["items"][BLUE, 0]) == 2 and int(v["item_deck_n"]) == 16 - 3
    with pytest.raises(ValueError, match=r"shop\[0\]: too many Sword: the game has 2"):
        em.state_from(items={BLUE: ["Sword", "Sword"]}, shop=["Sword", None, None, None, None])
    tv = MyceliumGame(num_players=3, hero_tavern=True)
    with pytest.raises(ValueError, match=r"hero_up\[1\]: too many Earthstar: the game has 1"):
        tv.state_from(heroes={RED: ["Earthstar"]}, hero_up=["Ghost Fungus", "Earthstar"])
    with pytest.raises(ValueError, match="legend_deal: only with the legends variant"):
        tv.state_from(legend_deal={BLUE: ["Earthstar", None]})
