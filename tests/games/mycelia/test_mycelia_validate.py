"""Mycelia's compiled consistency check (envs/mycelia/validate.py): every reachable state passes it,
and a state corrupted within the per-slot bounds is refused with a message naming what is wrong."""

from __future__ import annotations

import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia import validate as V
from mushgym.envs.mycelia.game import MyceliaGame
from mushgym.testing import slow_scale

G = MyceliaGame()
NA = MyceliaGame(expansion="north_america", num_players=5)
GAMES = {
    "default": G,
    "solo": MyceliaGame(num_players=1),
    "3+automata": MyceliaGame(num_players=3, automata=True),
    "4 players, 3 mats": MyceliaGame(num_players=4, mats=3),
    "expansion, 5 players": NA,
    "expansion, solo": MyceliaGame(num_players=1, expansion="north_america"),
}


def _states(game, n_games, seed):
    """Every state of ``n_games`` random games (copies), through the unchecked fast path."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(game.num_actions, np.int8)
    for gi in range(n_games):
        s = game.new_state(seed + gi)
        while True:
            yield s.copy()
            if R.is_terminal(s):
                break
            R.legal_mask(s, game.config, mask, game.work)
            R.step(s, int(rng.choice(np.flatnonzero(mask))), game.config, game.work)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_random_state_passes(name):
    game = GAMES[name]
    n = 0
    for s in _states(game, 6 if "solo" in name else 3, seed=11):
        code = int(R.validate(s, game.config, game.work))
        assert code == 0, (game.validation_error(code), game.state_to_string(s))
        n += 1
    assert n > 300


def _find(pred, game=G):
    for s in _states(game, 20, seed=5):
        if pred(s):
            return s
    raise AssertionError("no random state fits the test's need")


def _off(name, *idx):
    f = G.layout.fields[name]
    return f.offset + (int(np.ravel_multi_index(idx, f.shape)) if idx else 0)


def _main(s):
    return not R.is_terminal(s) and R.decision_depth(s) == 1 and R.top_kind(s) == R.D_MAIN


def _with_pile(s):
    return _main(s) and s[R.pile_count_at(0)] > 0


def _leaf(s):
    """A placed tile (not tile 0) with one neighbour and nothing on it, or -1."""
    for t in range(1, int(s[R.NTP])):
        adj = [int(s[R.adjacency_at(t, k)]) for k in range(3)]
        if (
            sum(u >= 0 for u in adj) == 1
            and s[R.mushroom_owner_at(t)] < 0
            and s[R.tile_insect_at(t)] == 0
            and all(s[R.mother_at(p)] != t for p in range(R.MAXS))
            and all(s[R.spores_at(t, p)] == 0 for p in range(R.MAXS))
        ):
            return t
    return -1


def _c_seats(s):
    s[R.supply_at(3)] = 1


def _c_tiles(s):
    s[R.piles_at(0, 0)] = s[R.tile_id_at(0)]


def _c_cells(s):
    s[R.adjacency_at(int(s[R.NTP]), 0)] = 0


def _c_adjacency(s):
    for k in range(3):
        if s[R.adjacency_at(0, k)] >= 0:
            s[R.adjacency_at(0, k)] = -1
            return


def _c_connected(s):
    """Cut a leaf tile off the board (consistently: both sides of its edge) and move it far away."""
    t = _leaf(s)
    for k in range(3):
        u = int(s[R.adjacency_at(t, k)])
        if u >= 0:
            s[R.adjacency_at(u, k)] = -1
            s[R.adjacency_at(t, k)] = -1
    s[R.tile_col_at(t)] = 150 + (int(s[R.tile_col_at(t)]) & 1)  # keeps the parity: same orientation
    s[R.tile_row_at(t)] = 150 + (int(s[R.tile_row_at(t)]) & 1)


def _c_spores(s):
    s[R.spores_at(0, 0)] += 1 if s[R.spores_at(0, 0)] < 30 else -1


def _c_insects(s):
    s[R.INS_SUPPLY] += 1 if s[R.INS_SUPPLY] < 20 else -1


def _c_mothers(s):
    s[R.mother_at(1)] = s[R.mother_at(0)]


def _c_mushrooms(s):
    for i in range(R.NMATS):
        if s[R.mat_tile_at(0, i)] < 0:
            s[R.mat_counter_at(0, i)] = 1
            return


def _c_cards(s):
    s[R.card_loc_at(int(s[R.deck_at(0)]))] = R.L_BOX


def _c_points(s):
    s[R.points_at(0)] += 1


def _c_end(s):
    s[R.ENDER] = 0


def _c_stack(s):
    s[_off("decisions", 0, 1)] = 1 - s[_off("decisions", 0, 1)]


def _c_decision(s):
    s[_off("decisions", 0, 2)] = 1


def _c_payment(s):
    s[R.need_at(0)] = 1


def _c_automata(s):
    s[R.automata_deck_at(0)] = s[R.automata_deck_at(1)]


def _c_no_action(s):
    """An opponent's mushroom to move (a decay action) when no opponent has one on the board."""
    s[_off("decisions", 1, 0)] = R.D_OPPM_PICK
    s[_off("decisions", 1, 1)] = s[R.TURNP]
    s[R.STACK_N] = 2


def _no_opponent_mushroom(s):
    return _main(s) and all(s[R.mushroom_owner_at(t)] < 0 for t in range(int(s[R.NTP])))


def _c_expansion(s):
    """A sapling more than the box's 15 (put on a tile without one, the supply unchanged)."""
    t = next(t for t in range(int(s[R.NTP])) if not s[R.SAP + t] and s[R.TREE + t] < 0)
    s[R.SAP + t] = 1


def _c_absent_sapling_spore(s):
    """A spore of an absent seat (seat 4 of 3) on a sapling holding fewer than 3."""
    held = [sum(int(s[R.sapling_spores_at(t, q)]) for q in range(R.MAXS)) for t in range(int(s[R.NTP]))]
    t = next(t for t in range(int(s[R.NTP])) if s[R.SAP + t] and held[t] < R.SAPLING_SPORES)
    s[R.sapling_spores_at(t, 4)] = 1


def _grown_card(s):
    return _main(s) and any(s[R.mat_card_at(0, i)] >= 0 for i in range(R.NMATS))


def _c_mat_card(s):
    """The card grown on seat 0's mat recorded in the box instead."""
    i = next(i for i in range(R.NMATS) if s[R.mat_card_at(0, i)] >= 0)
    s[R.card_loc_at(int(s[R.mat_card_at(0, i)]))] = R.L_BOX


NA3 = MyceliaGame(expansion="north_america", num_players=3)
SOLO = GAMES["solo"]
CASES = [
    (V.V_SEATS, G, _main, _c_seats, "absent seat"),
    (V.V_TILES, G, _with_pile, _c_tiles, "tile id is missing or in two places"),
    (V.V_CELLS, G, _main, _c_cells, "slots beyond the placed tiles"),
    (V.V_ADJACENCY, G, _main, _c_adjacency, "adjacency table"),
    (V.V_CONNECTED, G, lambda s: _main(s) and _leaf(s) >= 0, _c_connected, "not connected"),
    (V.V_SPORES, G, _main, _c_spores, "spores on the board plus its supply"),
    (V.V_INSECTS, G, _main, _c_insects, "insect tokens"),
    (V.V_MOTHERS, G, _main, _c_mothers, "Mother mushrooms share a tile"),
    (V.V_MUSHROOMS, G, _main, _c_mushrooms, "mushroom token and its mat disagree"),
    (V.V_CARDS, G, lambda s: _main(s) and s[R.DECK_N] > 0, _c_cards, "card is missing or in two places"),
    (V.V_POINTS, G, _main, _c_points, "points"),
    (V.V_END, G, _main, _c_end, "end of the game"),
    (V.V_STACK, G, _main, _c_stack, "decision stack is impossible"),
    (V.V_DECISION, G, _main, _c_decision, "arguments are impossible"),
    (V.V_PAYMENT, G, _main, _c_payment, "fruit payment is impossible"),
    (V.V_AUTOMATA, SOLO, _main, _c_automata, "Automata's card deck"),
    (V.V_NO_ACTION, G, _no_opponent_mushroom, _c_no_action, "no legal action"),
    (V.V_EXPANSION, NA, _main, _c_expansion, "North American expansion's pieces"),
    (V.V_SEATS, NA3, _main, _c_absent_sapling_spore, "absent seat"),
    (V.V_MAT_CARD, G, _grown_card, _c_mat_card, "card grown on a mat is recorded elsewhere"),
]


def test_every_code_has_a_case_and_a_message():
    codes = {getattr(V, n) for n in dir(V) if n.startswith("V_") and n != "V_OK"}
    assert codes == {c for c, *_ in CASES} == set(V.VALIDATION_ERRORS)


@pytest.mark.parametrize("code, game, pred, corrupt, words", CASES, ids=[f"code{c[0]}-{c[3].__name__}" for c in CASES])
def test_corruption_within_bounds_is_named(code, game, pred, corrupt, words):
    s = _find(pred, game)
    game.validate(s)  # the state is fine before
    corrupt(s)
    assert int(R.validate(s, game.config, game.work)) == code, (
        game.validation_error(int(R.validate(s, game.config, game.work))),
        game.state_to_string(s),
    )
    for call in (game.legal_mask, game.current_player, lambda t: game.observe(t, 0)):
        with pytest.raises(ValueError, match="mycelia_v1: invalid state: .*" + words):
            call(s)


def test_fast_path_skips_check():
    s = _find(_main)
    a = int(G.legal_actions(s)[0])
    s[R.points_at(0)] += 1  # caught by the check ...
    with pytest.raises(ValueError, match="points"):
        G.step(s, a)
    G.step_inplace(s, a, check=False)  # ... but not on the documented fast path


def _corrupted_fuzz(n, seed):
    import sys
    from collections import Counter

    sys.path.insert(0, str(TESTS_DIR))
    from fuzz_states import make_input, run_one

    return Counter(run_one(G, make_input(G, "corrupt", i, seed), np.random.default_rng(i)) for i in range(n))


def test_no_corrupted_state_plays_on_silently():
    """The fuzzer's one-field corruptions (tests/fuzz_states.py, in this process: its crash
    counting runs in test_hardening): each refused, or a valid state played on correctly."""
    counts = _corrupted_fuzz(200, 7)
    assert set(counts) <= {"refused", "ok"} and counts["refused"] > 100, counts


@pytest.mark.slow
def test_no_corrupted_state_plays_on_silently_large():
    counts = _corrupted_fuzz(300 * slow_scale(), 8)
    assert set(counts) <= {"refused", "ok"}, counts


def test_mushrooms_grown_are_on_or_under_the_mats():
    """The fuzzer's last silent corruptions before this check: ``grown`` raised (the observation's bound)."""
    s = _find(_main)
    s[R.grown_at(0)] = 120
    with pytest.raises(ValueError, match="mushrooms grown"):
        G.observe(s, 0)
