"""Mycelium's variants combined (RULES.md, "Combining the variants"): the Team rules (``team=True``,
``num_players=2``) with Emsporium, the Hero Tavern and Legends. The spaces' prefix rule, the
rules where two variants meet (Backpack and optional gathering, a hero's gathering under the
Team rules), and random / greedy play of the combinations with the invariants and the
compiled validator on every state."""

from collections import Counter

import numpy as np
import pytest
from test_mycelium_emsporium import chain_to, own
from test_mycelium_tavern import SULPHUR, heroes
from test_mycelium_team import TeamScenario

from mushgym import testing
from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium import validate as V
from mushgym.envs.mycelium.game import MyceliumGame
from mushgym.envs.mycelium.greedy import heuristic

BLUE, GREEN, RED, BEIGE = range(4)

SIZES = [
    ({}, rules.NUM_ACTIONS_BASE, rules.OBS_SIZE_BASE),
    ({"emsporium": True}, rules.NUM_ACTIONS_ITEMS, rules.OBS_SIZE_ITEMS),
    ({"hero_tavern": True, "num_players": 3}, rules.NUM_ACTIONS_ITEMS, rules.OBS_SIZE_ITEMS),
    ({"legends": True}, rules.NUM_ACTIONS_ITEMS, rules.OBS_SIZE_ITEMS),
    ({"team": True}, rules.NUM_ACTIONS, rules.OBS_SIZE),
    ({"num_players": 2}, rules.NUM_ACTIONS, rules.OBS_SIZE),
    ({"team": True, "emsporium": True, "hero_tavern": True}, rules.NUM_ACTIONS, rules.OBS_SIZE),
    ({"num_players": 2, "legends": True}, rules.NUM_ACTIONS, rules.OBS_SIZE),
]


def test_the_codes_and_kinds_are_distinct_and_the_blocks_follow_each_other():
    assert (rules.NUM_ACTIONS_BASE, rules.NUM_ACTIONS_ITEMS, rules.NUM_ACTIONS) == (1235, 1263, 1294)
    assert (rules.OBS_SIZE_BASE, rules.OBS_SIZE_ITEMS, rules.OBS_SIZE) == (1506, 1614, 1705)
    assert rules.A_BUY == rules.NUM_ACTIONS_BASE and rules.A_TRADE == rules.NUM_ACTIONS_ITEMS
    assert rules.O_VDKIND == rules.OBS_SIZE_BASE and rules.O_TEAM_DKIND == rules.OBS_SIZE_ITEMS
    kinds = (rules.D_BUY, rules.D_HERO_PICK, rules.D_LEGEND, rules.D_TRADE, rules.D_GATHER, rules.D_EXCHANGE)
    assert kinds == (15, 16, 17, 18, 19, 20) and rules.NUM_D == 21
    assert (rules.V_ITEMS, rules.V_HEROES, rules.V_TEAM) == (V.V_ITEMS, V.V_HEROES, V.V_TEAM) == (28, 29, 30)
    assert sorted(V.VALIDATION_ERRORS) == list(range(1, V.V_SHOP + 1)) and (V.V_COMBAT_PATH, V.V_SHOP) == (31, 32)


@pytest.mark.parametrize("options, actions, obs", SIZES, ids=[testing.options_id(o) for o, _, _ in SIZES])
def test_the_spaces_are_the_prefix_up_to_the_last_block_of_an_option_that_is_on(options, actions, obs):
    g = MyceliumGame(**options)
    assert (g.num_actions, g.observation_shape) == (actions, (obs,))
    assert g.obs_low.shape == (obs,) and g.legal_mask(g.new_state(0)).shape == (actions,)
    assert g.encode_action("arrange", 3) == 1234  # the base game's ids never move
    if actions > rules.NUM_ACTIONS_BASE:
        assert g.encode_action("buy") == rules.A_BUY
    if actions == rules.NUM_ACTIONS:
        assert (
            g.encode_action("trade", 0) == rules.A_TRADE and g.encode_action("gather_take", 6) == rules.NUM_ACTIONS - 1
        )


def test_a_team_game_without_the_items_leaves_their_block_empty():
    g = MyceliumGame(team=True)
    rng = np.random.default_rng(0)
    s = g.new_state(3)
    for _ in range(400):
        if g.is_terminal(s):
            break
        mask = g.legal_mask(s)
        assert not mask[rules.NUM_ACTIONS_BASE : rules.NUM_ACTIONS_ITEMS].any()
        for p in range(g.num_players):
            assert not g.observe(s, p)[rules.OBS_SIZE_BASE : rules.OBS_SIZE_ITEMS].any()
        legal = np.flatnonzero(mask)
        g.step_inplace(s, int(legal[rng.integers(legal.size)]))


# --- where two variants meet ---------------------------------------------------------------------


def test_a_backpack_raises_what_a_team_gathering_may_take_beyond_three():
    sc = TeamScenario(tp=RED, emsporium=True)
    own(sc, RED, "Backpack")
    willow = chain_to(sc, RED, "Willow", extra=3)  # 4 bonded Paths on the Willow
    sc.v["loc_nut"][willow] = 5
    sc.v["gatherer"][RED] = [willow, willow, -1]  # 2 gatherers x (1 + 1 Backpack) = 4
    sc.game.validate(sc.s)
    sc.act("end_actions", player=RED)
    assert sc.top_kind() == rules.D_GATHER
    legal = np.flatnonzero(
        sc.game.legal_mask(sc.s)[rules.A_GATHER_TAKE : rules.A_GATHER_TAKE + rules.MAX_GATHER_TAKE + 1]
    )
    assert legal.tolist() == [0, 1, 2, 3, 4]
    assert sc.game.observe(sc.s, RED)[rules.O_GATHER_MAX] == 4
    sc.game.validate(sc.s)
    sc.act("gather_take", 4, player=RED)
    assert sc.v["mat_nut"][RED] == 4 and sc.v["loc_nut"][willow] == 1 and sc.v["decisions_n"] == 0


def test_a_heros_gathering_is_optional_under_the_team_rules():
    sc = TeamScenario(tp=BLUE, hero_tavern=True)
    heroes(sc, held={BLUE: [SULPHUR]})
    oak = chain_to(sc, BLUE, "Oak")
    sc.v["loc_nut"][oak] = 2
    sc.v["gatherer"][BLUE] = [oak, -1, -1]
    sc.game.validate(sc.s)
    sc.act("hero", SULPHUR, 0, player=BLUE)  # Sulphur Shelf: gather now
    assert sc.top_kind() == rules.D_GATHER and sc.v["phase"] == rules.PH_ACTION
    sc.game.validate(sc.s)  # a D_GATHER in the Action Phase is a position of the game
    sc.act("gather_take", 0, player=BLUE)  # it leaves the Nutrients on the tree
    assert sc.v["loc_nut"][oak] == 2 and sc.v["mat_nut"][BLUE] == 0 and sc.v["gatherer"][BLUE, 0] == -1
    assert sc.v["phase"] == rules.PH_ACTION and sc.who() == BLUE


def test_the_tavern_recruits_after_the_gather_phases_choice():
    sc = TeamScenario(tp=RED, hero_tavern=True)
    heroes(sc)
    birch = sc.gloc("Birch")
    sc.chain_to(RED, birch)
    sc.v["loc_nut"][birch] = 1
    sc.v["ctok"][RED] = 1
    sc.v["gatherer"][RED] = [birch, rules.TAVERN, -1]
    sc.act("end_actions", player=RED)
    kinds = [int(k) for k in sc.v["decisions"][: int(sc.v["decisions_n"]), 0]]
    assert kinds == [rules.D_HERO_PICK, rules.D_GATHER]
    sc.game.validate(sc.s)
    sc.act("gather_take", 1, player=RED)
    assert sc.v["mat_nut"][RED] == 1 and sc.top_kind() == rules.D_HERO_PICK
    sc.game.validate(sc.s)
    sc.act("hero_pick", 0, player=RED)
    assert sc.v["heroes"][RED].sum() == 1 and sc.v["decisions_n"] == 0 and sc.v["phase"] == rules.PH_PLACE


def test_the_validator_refuses_a_gathering_choice_misplaced_with_the_variants():
    sc = TeamScenario(tp=RED, hero_tavern=True)
    heroes(sc)
    birch = sc.gloc("Birch")
    sc.chain_to(RED, birch)
    sc.v["loc_nut"][birch] = 1
    sc.v["ctok"][RED] = 1
    sc.v["gatherer"][RED] = [birch, rules.TAVERN, -1]
    sc.act("end_actions", player=RED)
    good = sc.s.copy()
    v = rules.STATE.arrays(sc.s)
    v["decisions"][[0, 1]] = v["decisions"][[1, 0]]  # the hero pick above the gathering choice
    with pytest.raises(ValueError, match="misplaced|does not fit"):
        sc.game.validate(sc.s)
    sc.s[...] = good
    v["gather_take"][birch] = 1  # a choice made at the location being asked
    with pytest.raises(ValueError, match="Team fields"):
        sc.game.validate(sc.s)
    sc.s[...] = good
    v["mat_nut"][BLUE] = 11  # above the Colony's 10
    with pytest.raises(ValueError, match="Team fields|supply"):
        sc.game.validate(sc.s)


# --- random and greedy play of the combinations ----------------------------------------------------

COMBOS = [
    {"team": True, "emsporium": True, "hero_tavern": True},
    {"num_players": 2, "emsporium": True},
    {"team": True, "legends": True, "emsporium": True},
    {"num_players": 2, "hero_tavern": True, "legends": True},
]


def _play(g, games, seed, greedy_share=0.5):
    """Games of a mix of greedy and uniform-random moves; the validator (the game's invariants) and
    the observations' bounds on every state; counts of what happened."""
    rng = np.random.default_rng(seed)
    seen = Counter()
    for gi in range(games):
        s = g.new_state(seed + gi)
        steps = 0
        while True:
            code = int(rules.validate(s, g.config, g.work))
            assert code == 0, (g.validation_error(code), g.state_to_string(s))
            steps += 1
            if steps % 5 == 0:
                testing.check_observations(g, s)  # every agent's observation: shape, dtype, bounds
            v = rules.STATE.arrays(s)
            d = int(v["decisions_n"])
            kinds = [int(k) for k in v["decisions"][:d, 0]]
            if kinds and kinds[-1] == rules.D_GATHER:
                seen["gather choice"] += 1
                seen["gather choice above a hero pick"] += kinds[0] == rules.D_HERO_PICK
            seen["trade answer"] += bool(kinds) and kinds[-1] == rules.D_TRADE
            seen["a Colony at 10"] += int(not v["done"] and (v["mat_nut"] == rules.WIN_NUTRIENTS).any())
            if g.is_terminal(s):
                seen["team win"] += int(v["done"] == rules.DONE_RULES)
                rets = g.returns(s)
                assert abs(rets.sum()) < 1e-9 and len(rets) == g.num_players
                break
            mask = g.legal_mask(s)
            p = g.current_player(s)
            if rng.random() < greedy_share:
                sc = heuristic(g, s, p, None, mask)
                best = np.flatnonzero(sc >= sc.max() - 1e-9)  # GreedyAgent's ties
                a = int(best[rng.integers(best.size)])
            else:
                legal = np.flatnonzero(mask)
                a = int(legal[rng.integers(legal.size)])
            seen[rules.ACTION_SPACE.group_of(a).name] += 1
            g.step_inplace(s, a)
    return seen


@pytest.mark.parametrize("options", COMBOS, ids=[testing.options_id(o) for o in COMBOS])
def test_combined_play_keeps_the_invariants_and_every_state_validates(options):
    g = MyceliumGame(turn_limit=60, **options)
    seen = _play(g, games=3, seed=11)
    assert seen["trade"] > 0 and seen["trade answer"] > 0 and seen["gather_take"] > 0, seen
    assert seen["gather choice"] > 0 and seen["team win"] > 0, seen
    if options.get("emsporium"):
        assert seen["buy_item"] > 0, seen
    if options.get("hero_tavern") or options.get("legends"):
        assert seen["hero_pick"] > 0 and seen["place_tavern"] > 0, seen
    if options.get("legends"):
        assert seen["legend_keep"] == 3 * 4, seen  # every seat keeps one, in every game


def test_combined_play_reaches_the_places_where_the_variants_meet():
    """A gathering choice above a hero pick and a Colony at 10 in a running game: reached within
    four rounds of 3 games per combination (a Colony at 10 comes in about 3 rounds of 4)."""
    seen = Counter()
    for seed in (11, 12, 13, 14):
        for options in COMBOS:
            seen += _play(MyceliumGame(turn_limit=60, **options), games=3, seed=seed)
        if seen["gather choice above a hero pick"] > 0 and seen["a Colony at 10"] > 0:
            break
    assert seen["gather choice above a hero pick"] > 0 and seen["a Colony at 10"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("options", COMBOS, ids=[testing.options_id(o) for o in COMBOS])
def test_combined_play_large(options):
    g = MyceliumGame(**options)
    _play(g, games=4 * testing.slow_scale(), seed=200, greedy_share=0.3)


@pytest.mark.parametrize(
    "options",
    [{"num_players": 2, "legends": True, "emsporium": True}, {"team": True, "hero_tavern": True}],
    ids=["2p-legends-ems", "team-tavern"],
)
def test_hidden_information_stays_hidden_in_the_combinations(options):
    g = MyceliumGame(turn_limit=60, **options)
    assert testing.check_hidden_information(g, n_games=1, seed=3) > 10
    # the determinizer (search's view of an agent) keeps all the agent may see
    from mushgym.envs.mycelium.determinize import determinize

    rng = np.array([1, 2, 3, 4], np.int64)
    changed = 0
    for st in testing.random_states(g, n_games=1, every=7)[:60]:
        for agent in range(g.num_players):
            d = st.copy()
            determinize(d, agent, g.config, g.work, rng)
            g.validate(d)
            np.testing.assert_array_equal(g.observe(d, agent), g.observe(st, agent))
            changed += not np.array_equal(d, st)
    assert changed > 10
