"""Mycelium's compiled consistency check (envs/mycelium/validate.py): every reachable state passes
it, a state corrupted within the per-slot bounds is refused with a message naming what is
wrong (one case per code), and the fuzzer's one-field corruptions are each refused or valid."""

from __future__ import annotations

import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

import mushgym
from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium import validate as V

G = mushgym.game("mycelium_v2", num_players=3)  # 3 players: seat 3's slots must stay empty
G4 = mushgym.game("mycelium_v2")


def _states(game, n_games, seed):
    """Every state of ``n_games`` random games (copies), played by the kernels."""
    mask = np.zeros(game.num_actions, np.int8)
    for gi in range(n_games):
        rng = np.random.default_rng([seed, gi])
        s = game.new_state(seed + gi)
        while True:
            yield s.copy()
            if rules.is_terminal(s):
                break
            rules.legal_mask(s, game.config, mask, game.work)
            rules.step(s, int(rng.choice(np.flatnonzero(mask))), game.config, game.work)


@pytest.mark.parametrize("game, n_games", [(G, 12), (G4, 12)], ids=["3p", "4p"])
def test_every_random_state_passes(game, n_games):
    n = 0
    for s in _states(game, n_games, seed=11):
        code = int(rules.validate(s, game.config, game.work))
        assert code == 0, (game.validation_error(code), game.state_to_string(s))
        n += 1
    assert n > 5000


@pytest.mark.slow
def test_every_random_state_passes_large():
    from mushgym.testing import slow_scale

    for game in (G, G4, mushgym.game("mycelium_v2", reaction_prompts="holders", turn_limit=60, turn_limit_end="score")):
        for s in _states(game, 40 * slow_scale(), seed=100):
            code = int(rules.validate(s, game.config, game.work))
            assert code == 0, (game.validation_error(code), game.state_to_string(s))


def _find(pred):
    for s in _states(G, 30, seed=5):
        if pred(s):
            return s
    raise AssertionError("no random state fits the test's need")


def _running(s):
    return not rules.is_terminal(s) and s[rules.PHASE] != rules.PH_EXPLORE


def _menu(s):
    """The turn player at the Action Phase menu (nothing pending)."""
    return _running(s) and s[rules.PHASE] == rules.PH_ACTION and rules.decision_depth(s) == 0 and s[rules.C_ACTIVE] == 0


def _push(s, kind, player, *args):
    rules.push_decision(s, int(kind), int(player), *(int(a) for a in args))


def _move_card(s, frm, to):
    for t in range(rules.NUM_MUSHLING_KINDS):
        if s[frm(t)] > 0:
            s[frm(t)] -= 1
            s[to(t)] += 1
            return
    raise AssertionError("no card to move")


def _c_rng(s):
    s[rules.rng_at(0)] = s[rules.rng_at(1)] = s[rules.rng_at(2)] = s[rules.rng_at(3)] = 0


def _c_player(s):
    s[rules.TURN_PLAYER] = 3


def _c_location(s):
    s[rules.gatherer_at(3, 0)] = 1


def _c_cards(s):
    s[rules.discard_at(rules.DECEIVER)] += 1


def _c_nutrient_cards(s):
    s[rules.ndeck_at(0)] = (s[rules.ndeck_at(0)] + 1) % 4


def _c_deck_top(s):
    s[rules.DECK_TOP_N] = s[rules.DECK_N] + 1


def _c_tokens(s):
    s[rules.mat_spores_at(0)] = rules.SPORE_TOKENS


def _c_combat(s):
    s[rules.C_EDGE] = 5


def _c_kind(s):
    _push(s, rules.D_PAY, (s[rules.TURN_PLAYER] + 1) % 3, 0)


def _c_arg(s):
    _push(s, rules.D_PLACE_PATH, s[rules.TURN_PLAYER], 0)


def _c_arrange(s):
    _push(s, rules.D_ARRANGE, s[rules.TURN_PLAYER], 0, 4)


def _c_use(s):
    _push(s, rules.D_USE, s[rules.TURN_PLAYER], rules.AB_PUFF, 0)


def _c_seat_slots(s):
    s[rules.mat_spores_at(3)] = 1


def _c_turn(s):
    s[rules.TURN] += 1


def _c_explore(s):
    s[rules.gatherer_at(s[rules.FIRST], 0)] = 0


def _c_end(s):
    s[rules.WINNER] = 0


def _c_limbo(s):
    _move_card(s, rules.discard_at, rules.limbo_at)


def _c_known(s):
    s[rules.known_at(0, 1, 0)] = s[rules.hand_at(1, 0)] + 1


def _c_pile(s):
    s[rules.deck_at(s[rules.DECK_N])] = 1


def _c_seen(s):
    s[rules.nseen_at(0, s[rules.NDECK_N])] = 1


def _c_token_place(s):
    s[rules.loc_spores_at(G.config[rules.CFG_WILLOW])] = 1


def _c_paths(s):
    e = next(e for e in range(rules.MAX_EDGES) if G.config[rules.cfg_permanent_at(e)] == 0)
    s[rules.paths_at(e, 0)] = 0


def _c_path_count(s):
    s[rules.npaths_at(0)] += 1


def _c_stack_clear(s):
    _push(s, rules.D_PAY, s[rules.TURN_PLAYER], 0)
    rules.pop_decision(s)
    s[G.layout.fields["decisions"].index(5, 2)] = 1


def _c_stack(s):
    _push(s, rules.D_PAY, s[rules.TURN_PLAYER], 0)


def _c_fa(s):  # the user of an ability asked whether to cancel it
    _push(s, rules.D_RESOLVE, s[rules.TURN_PLAYER], rules.AB_VEILED)
    _push(s, rules.D_FA, s[rules.TURN_PLAYER], 0)


def _c_top(s):
    s[rules.PHASE] = rules.PH_NUTRIENT


def _c_combat_path(s):  # the combat moved to the defender's permanent Colony Path
    s[rules.C_EDGE] = next(e for e in range(rules.MAX_EDGES) if G.config[rules.cfg_permanent_at(e)] == s[rules.C_DEF])


CASES = [
    (V.V_RNG, _running, _c_rng, "generator"),
    (V.V_PLAYER, _running, _c_player, "not a player of this 3-player game"),
    (V.V_LOCATION, _running, _c_location, "gatherer of player 3"),
    (V.V_CARDS, _running, _c_cards, r"type 0 \(Amethyst Deceiver\) do not add up"),
    (
        V.V_NUTRIENT_CARDS,
        lambda s: _running(s) and s[rules.NDECK_N] > 0 and s[rules.NDECK_TOP_N] == 0,
        _c_nutrient_cards,
        "nutrient deck and discard pile",
    ),
    (V.V_DECK_TOP, lambda s: _running(s) and s[rules.DECK_N] < rules.NUM_MUSHLING_CARDS, _c_deck_top, "Witch's Hat"),
    (V.V_TOKENS, _running, _c_tokens, "more tokens"),
    (V.V_COMBAT, lambda s: _running(s) and not s[rules.C_ACTIVE], _c_combat, "combat fields"),
    (V.V_KIND, _menu, _c_kind, "misplaced on the stack"),
    (V.V_ARG, _menu, _c_arg, "argument outside its kind's range"),
    (V.V_ARRANGE, lambda s: _menu(s) and s[rules.NDECK_N] >= 4, _c_arrange, "arrange nutrient cards"),
    (V.V_USE, _menu, _c_use, "reaction"),
    (V.V_SEAT_SLOTS, _running, _c_seat_slots, "seat beyond the player count"),
    (V.V_TURN, lambda s: _menu(s) and s[rules.TURN] + 1 < G.config[rules.CFG_TURN_LIMIT], _c_turn, "turn player"),
    (
        V.V_EXPLORE,
        lambda s: (
            s[rules.PHASE] == rules.PH_EXPLORE and s[rules.PLACED] == 0 and s[rules.TURN_PLAYER] == s[rules.FIRST]
        ),
        _c_explore,
        "Explore/Place Phase",
    ),
    (V.V_END, _running, _c_end, "end of the game"),
    (
        V.V_LIMBO,
        lambda s: _menu(s) and s[rules.discard_at(0) : rules.discard_at(0) + rules.NUM_MUSHLING_KINDS].sum() > 0,
        _c_limbo,
        "in flight",
    ),
    (V.V_KNOWN, _running, _c_known, "'knows'"),
    (V.V_PILE, lambda s: _running(s) and s[rules.DECK_N] < rules.NUM_MUSHLING_CARDS, _c_pile, "above the deck's top"),
    (V.V_SEEN, lambda s: _running(s) and s[rules.NDECK_N] < rules.NUM_NUTRIENT_CARDS, _c_seen, "seen a nutrient card"),
    (V.V_TOKEN_PLACE, _running, _c_token_place, "never put them"),
    (V.V_PATHS, _running, _c_paths, "Paths on edge"),
    (V.V_PATH_COUNT, _running, _c_path_count, "count of Paths"),
    (V.V_STACK_CLEAR, _menu, _c_stack_clear, "above the top is not cleared"),
    (V.V_STACK, lambda s: _running(s) and s[rules.PHASE] == rules.PH_PLACE, _c_stack, "does not fit the phase"),
    (V.V_FA, _menu, _c_fa, "Fly Agaric window"),
    (V.V_TOP, _menu, _c_top, "never asks"),
    (
        V.V_COMBAT_PATH,
        lambda s: _running(s) and s[rules.C_ACTIVE] and not s[rules.C_REVEALED],
        _c_combat_path,
        "does not hold a Path the attacker may attack",
    ),
]


# --- the variants (Emsporium, Hero Tavern, Legends): their states pass, their fields are checked

GV = mushgym.game("mycelium_v2", num_players=3, emsporium=True, legends=True)  # Legends implies the Tavern
GT = mushgym.game("mycelium_v2", hero_tavern=True)


@pytest.mark.parametrize("game, n_games", [(GV, 4), (GT, 3)], ids=["3p-emsporium-legends", "4p-tavern"])
def test_every_random_state_of_the_variants_passes(game, n_games):
    """Gatherers at the Tavern, Buy payments, hero picks, the Legends deals before the Explore
    Phase, items and heroes outside the hand: no false refusal."""
    kinds = set()
    for s in _states(game, n_games, seed=21):
        code = int(rules.validate(s, game.config, game.work))
        assert code == 0, (game.validation_error(code), game.state_to_string(s))
        if rules.decision_depth(s):
            kinds.add(int(rules.top_kind(s)))
    want = {rules.D_BUY, rules.D_HERO_PICK, rules.D_LEGEND} if game is GV else {rules.D_HERO_PICK}
    assert want <= kinds


def _find_v(game, pred):
    for s in _states(game, 20, seed=5):
        if pred(s):
            return s
    raise AssertionError("no random state fits the test's need")


def _cv_items(s):  # one Sword too many
    s[rules.items_at(0, 0)] = (s[rules.items_at(0, 0)] + 1) % 3


def _cv_items_absent(s):
    s[rules.items_at(3, 1)] = 1


def _cv_heroes(s):  # a hero of the deck also held
    s[rules.heroes_at(0, s[rules.hero_deck_at(0)])] = 1


def _cv_hero_up_early(s):  # a face-up hero while the Legends deals are pending
    n = s[rules.HDECK_N] - 1
    s[rules.hero_up_at(0)] = s[rules.hero_deck_at(n)]
    s[rules.hero_deck_at(n)] = 0
    s[rules.HDECK_N] = n


def _cv_buy_overspent(s):
    _push(s, rules.D_BUY, s[rules.TURN_PLAYER], 3, 6)


def _cv_pick_elsewhere(s):  # a hero pick in the Action Phase
    _push(s, rules.D_HERO_PICK, s[rules.TURN_PLAYER], 1)


def _cv_legend_late(s):
    _push(s, rules.D_LEGEND, s[rules.TURN_PLAYER])


def _c_buy_without_variant(s):
    _push(s, rules.D_BUY, s[rules.TURN_PLAYER], 0, 0)


def _c_tavern_without_variant(s):
    s[rules.gatherer_at(s[rules.TURN_PLAYER], 0)] = rules.TAVERN


def _explore_with_items_left(s):
    return s[rules.PHASE] == rules.PH_EXPLORE and s[rules.IDECK_N] > 0


def _cv_shop_slot_empty(s):  # the item of shop slot 2 owned instead: conserved, but the shop is full until a Buy
    s[rules.items_at(0, s[rules.shop_at(2)])] += 1
    s[rules.shop_at(2)] = -1


def _legends_pending(s):
    return rules.decision_depth(s) > 0 and rules.top_kind(s) == rules.D_LEGEND and s[rules.HDECK_N] > 0


VARIANT_CASES = [
    (GV, V.V_ITEMS, _running, _cv_items, r"item cards of type 0 \(Sword\)"),
    (GV, V.V_ITEMS, _running, _cv_items_absent, r"item cards of type 1 \(Pickaxe\)"),
    (GV, V.V_SHOP, _explore_with_items_left, _cv_shop_slot_empty, "shop slot 2 is empty in the Explore Phase"),
    (GV, V.V_HEROES, _running, _cv_heroes, "is not exactly once"),
    (GV, V.V_HEROES, _legends_pending, _cv_hero_up_early, "do not fit the Legends decisions"),
    (GV, V.V_ARG, _menu, _cv_buy_overspent, "argument outside its kind's range"),
    (GV, V.V_KIND, _menu, _cv_pick_elsewhere, "misplaced on the stack"),
    (GV, V.V_KIND, _menu, _cv_legend_late, "misplaced on the stack"),
    (G, V.V_KIND, _menu, _c_buy_without_variant, "misplaced on the stack"),
    (G, V.V_LOCATION, _running, _c_tavern_without_variant, "on no location of this board"),
]


@pytest.mark.parametrize(
    "game, code, pred, corrupt, words", VARIANT_CASES, ids=[f"code{c[1]}-{c[3].__name__}" for c in VARIANT_CASES]
)
def test_variant_corruption_is_named(game, code, pred, corrupt, words):
    s = _find_v(game, pred)
    game.validate(s)
    corrupt(s)
    got = int(rules.validate(s, game.config, game.work))
    assert got // 1000 == code, (game.validation_error(got), game.state_to_string(s))
    with pytest.raises(ValueError, match="mycelium_v2: invalid state: .*" + words):
        game.legal_mask(s)


# --- the Team variant and the 2-player game (with the items' variants): check_team and the groups it changes

GTM = mushgym.game("mycelium_v2", team=True, emsporium=True)
G2 = mushgym.game("mycelium_v2", num_players=2, hero_tavern=True)


@pytest.mark.parametrize("game, n_games", [(GTM, 3), (G2, 3)], ids=["team-emsporium", "2p-tavern"])
def test_every_random_state_of_the_team_games_passes(game, n_games):
    """Trade offers, gathering choices, Colonies at 10: no false refusal."""
    kinds = set()
    for s in _states(game, n_games, seed=31):
        code = int(rules.validate(s, game.config, game.work))
        assert code == 0, (game.validation_error(code), game.state_to_string(s))
        if rules.decision_depth(s):
            kinds.add(int(rules.top_kind(s)))
    assert {rules.D_TRADE, rules.D_GATHER} <= kinds


def _gathering(s):
    return _running(s) and rules.decision_depth(s) > 0 and rules.top_kind(s) == rules.D_GATHER


def _ct_trade_flag(s):  # a Trade flag in a game without the Team rules
    s[rules.TRADE_USED] = 1


def _ct_agent_of(s):  # seat 2 acted for by agent 1 (the 2-player game's agent 0 acts for seats 0 and 2)
    s[rules.agent_of_at(2)] = 1


def _ct_colony_over_ten(s):
    s[rules.mat_nut_at(0)] = 11
    s[rules.mat_nut_at(2)] = 0


def _ct_team_at_fifteen(s):  # a team holds 15 and the game goes on
    s[rules.mat_nut_at(0)] = 10
    s[rules.mat_nut_at(2)] = 5


def _ct_choice_at_the_asked_location(s):
    s[rules.gather_take_at(rules.decision_at(s, rules.decision_depth(s) - 1, 3))] = 0


def _ct_trade_to_the_turn_player(s):
    s[rules.TRADE_USED] = 1
    _push(s, rules.D_TRADE, s[rules.TURN_PLAYER], rules.NUM_MUSHLING_KINDS)


def _ct_gather_without_team(s):
    _push(s, rules.D_GATHER, s[rules.TURN_PLAYER], 7, 0)


TEAM_CASES = [
    (G, V.V_TEAM, _running, _ct_trade_flag, "Team fields"),
    (G2, V.V_TEAM, _running, _ct_agent_of, "Team fields"),
    (GTM, V.V_TEAM, _running, _ct_colony_over_ten, "Team fields"),
    (GTM, V.V_TOKENS, _running, _ct_team_at_fifteen, "a team with 15"),
    (GTM, V.V_TEAM, _gathering, _ct_choice_at_the_asked_location, "Team fields"),
    (GTM, V.V_KIND, _menu, _ct_trade_to_the_turn_player, "misplaced on the stack"),
    (G, V.V_KIND, _menu, _ct_gather_without_team, "misplaced on the stack"),
]


@pytest.mark.parametrize(
    "game, code, pred, corrupt, words", TEAM_CASES, ids=[f"code{c[1]}-{c[3].__name__}" for c in TEAM_CASES]
)
def test_team_corruption_is_named(game, code, pred, corrupt, words):
    test_variant_corruption_is_named(game, code, pred, corrupt, words)


def test_every_code_has_a_case_and_a_message():
    codes = {getattr(V, n) for n in dir(V) if n.startswith("V_") and n != "V_OK"}
    cases = {c for c, *_ in CASES} | {c for _, c, *_ in VARIANT_CASES} | {c for _, c, *_ in TEAM_CASES}
    assert codes == cases == set(V.VALIDATION_ERRORS)


@pytest.mark.parametrize("code, pred, corrupt, words", CASES, ids=[f"code{c[0]}" for c in CASES])
def test_corruption_within_bounds_is_named(code, pred, corrupt, words):
    s = _find(pred)
    G.validate(s)  # the state is fine before
    corrupt(s)
    got = int(rules.validate(s, G.config, G.work))
    assert got // 1000 == code, (G.validation_error(got), G.state_to_string(s))
    for call in (G.legal_mask, G.current_player, lambda t: G.observe(t, 0)):
        with pytest.raises(ValueError, match="mycelium_v2: invalid state: .*" + words):
            call(s)


def test_no_corrupted_state_plays_on_silently():
    """The fuzzer's one-field corruptions (tests/fuzz_states.py, in this process: its crash
    counting runs in test_hardening): each refused, or a valid state played on correctly
    (main before this check: 224 of 10,000 silent, mostly knowledge beyond a hand)."""
    import sys
    from collections import Counter

    sys.path.insert(0, str(TESTS_DIR))
    from fuzz_states import make_input, run_one

    counts = Counter(run_one(G4, make_input(G4, "corrupt", i, 7), np.random.default_rng(i)) for i in range(300))
    assert set(counts) <= {"refused", "ok"} and counts["refused"] > 250, counts


@pytest.mark.parametrize("code, pred, corrupt, words", CASES[:6], ids=[f"code{c[0]}" for c in CASES[:6]])
def test_check_invariants_raises_the_validators_verdict(code, pred, corrupt, words):
    """``check_invariants`` is the compiled validator: its message as an AssertionError."""
    s = _find(pred)
    G.check_invariants(s)
    corrupt(s)
    with pytest.raises(AssertionError, match="mycelium_v2: invalid state: .*" + words):
        G.check_invariants(s)
