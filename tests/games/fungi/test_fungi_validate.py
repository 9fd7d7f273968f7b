"""Fungi's compiled consistency check (envs/fungi/validate.py): every reachable state passes it,
and a state corrupted within the per-slot bounds is refused with a message naming what is wrong."""

from __future__ import annotations

import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi import validate as V
from mushgym.envs.fungi.game import FungiGame

G = FungiGame()


def _states(n_games=40, seed=5):
    """Every state of ``n_games`` random games (copies)."""
    rng = np.random.default_rng(seed)
    for gi in range(n_games):
        s = G.new_state(seed + gi)
        while True:
            yield s.copy()
            if R.is_terminal(s):
                break
            G.step_inplace(s, int(rng.choice(G.legal_actions(s))), check=False)


def _find(pred):
    for s in _states():
        if pred(s):
            return s
    raise AssertionError("no random state fits the test's need")


def test_every_random_state_passes():
    n = 0
    for s in _states(60, seed=11):
        code = int(R.validate(s, G.config, G.work))
        assert code == 0, (G.validation_error(code), G.state_to_string(s))
        n += 1
    assert n > 1000


def _off(name, *idx):
    f = G.layout.fields[name]
    return f.offset + (int(np.ravel_multi_index(idx, f.shape)) if idx else 0)


def _acting(s):
    return not R.is_terminal(s) and R.decision_depth(s) == 0


def _pending_cook(s):
    return R.decision_depth(s) > 0 and R.top_kind(s) == R.D_COOK


def _draw_index(s, kinds):
    for i in range(int(s[R.DRAW_N])):
        if int(s[R.draw_pile_at(i)]) in kinds:
            return i
    return -1


def _take_from_draw(s, i):
    """Remove draw-pile entry ``i`` (the top takes its place); its kind."""
    k = int(s[R.draw_pile_at(i)])
    top = int(s[R.DRAW_N]) - 1
    s[R.draw_pile_at(i)] = s[R.draw_pile_at(top)]
    s[R.DRAW_N] = top
    return k


def _c_pile(s):
    s[_off("forest", 0)] = C.NIGHT0


def _c_cards(s):
    s[_off("discard", 0)] += 1


def _c_hand(s):
    s[_off("hand_n", 0)] += 1


def _c_known(s):
    s[_off("known", 1, 0)] = s[_off("hand", 1, 0)] + 1


_HAND_FOREST_KINDS = [k for k in range(C.NHAND) if not C.NIGHT0 <= k < C.NIGHT0 + C.NNIGHT]


def _c_limit(s):
    p = int(s[R.TURN_PLAYER])
    while s[R.hand_n_at(p)] <= R.hand_limit(s, p):
        k = _take_from_draw(s, _draw_index(s, _HAND_FOREST_KINDS))
        s[R.hand_at(p, k)] += 1
        s[R.hand_n_at(p)] += 1


def _c_fly(s):
    k = _take_from_draw(s, _draw_index(s, [C.FLY]))
    assert k == C.FLY
    s[R.fly_new_at(0)] += 1


def _c_pan(s):
    s[R.pan_records_at(0, 0, R.PAN_TYPE)] = C.NTYPES - 1  # a Morel pan ...
    s[R.pan_records_at(0, 0, R.PAN_NIGHT)] = 1  # ... with a Night Morel


def _c_score(s):
    s[R.score_at(1)] += 1


def _c_sticks(s):
    s[R.sticks_at(0)] = 5000


def _c_stack(s):
    s[_off("decisions", 0, 1)] = 1 - s[R.TURN_PLAYER]


def _c_decision(s):
    s[_off("decisions", 0, 2 + R.COOK_TYPE)] = C.NTYPES - 1
    s[_off("decisions", 0, 2 + R.COOK_NIGHT)] = 1


def _c_forest(s):
    n = int(s[R.FOREST_N]) - 1
    s[_off("discard", int(s[R.forest_at(n)]))] += 1
    s[R.FOREST_N] = n


def _c_end(s):
    s[R.TERMINAL] = 1


def _c_moons(s):
    for i in range(int(s[R.NIGHT_N])):
        s[_off("discard", int(s[R.night_pile_at(i)]))] += 1
    s[R.NIGHT_N] = 0


def _c_no_action(s):
    s[R.TURN_PLAYER] = 1 - s[R.TURN_PLAYER]


def _c_steps(s):
    s[R.NSTEPS] = 10_000


def _opponent_stuck(s):
    return _acting(s) and not R.has_action(s, 1 - int(s[R.TURN_PLAYER]), G.config)


def _moons_left(s):
    v = R.L.arrays(s)
    return sum(
        int((v[pile][: int(v[n])] == C.MOON).sum())
        for pile, n in (("draw_pile", "draw_n"), ("forest", "forest_n"), ("decay", "decay_n"))
    )


def _moons_in_play(s):
    return _acting(s) and s[R.NIGHT_N] > 0 and _moons_left(s) > 0


CASES = [
    (V.V_PILE, _acting, _c_pile, "Night card"),
    (V.V_CARDS, _acting, _c_cards, "card is missing or in two places"),
    (V.V_HAND, _acting, _c_hand, "hand size"),
    (V.V_KNOWN, _acting, _c_known, "publicly known"),
    (V.V_LIMIT, lambda s: _acting(s) and s[R.DRAW_N] > 20, _c_limit, "more cards than its limit"),
    (V.V_FLY, lambda s: _acting(s) and _draw_index(s, [C.FLY]) >= 0, _c_fly, "Fly agaric"),
    (V.V_PAN, lambda s: s[R.cooked_pans_at(0)] > 0, _c_pan, "cooked pan is malformed"),
    (V.V_SCORE, _acting, _c_score, "score"),
    (V.V_STICKS, _acting, _c_sticks, "sticks"),
    (V.V_STACK, _pending_cook, _c_stack, "decision stack"),
    (V.V_DECISION, _pending_cook, _c_decision, "pending cook"),
    (V.V_FOREST, lambda s: _acting(s) and s[R.DRAW_N] > 0, _c_forest, "Forest is not full"),
    (V.V_END, _acting, _c_end, "end of the game"),
    (V.V_MOONS, _moons_in_play, _c_moons, "Moons"),
    (V.V_NO_ACTION, _opponent_stuck, _c_no_action, "no legal action"),
    (V.V_STEPS, _acting, _c_steps, "length bound"),
]


def test_every_code_has_a_case_and_a_message():
    codes = {getattr(V, n) for n in dir(V) if n.startswith("V_") and n != "V_OK"}
    assert codes == {c for c, *_ in CASES} == set(V.VALIDATION_ERRORS)


@pytest.mark.parametrize("code, pred, corrupt, words", CASES, ids=[f"code{c[0]}" for c in CASES])
def test_corruption_within_bounds_is_named(code, pred, corrupt, words):
    s = _find(pred)
    G.validate(s)  # the state is fine before
    corrupt(s)
    assert int(R.validate(s, G.config, G.work)) == code, G.state_to_string(s)
    for call in (G.legal_mask, G.current_player, lambda t: G.observe(t, 0)):
        with pytest.raises(ValueError, match="fungi_v0: invalid state: .*" + words):
            call(s)


def test_fast_path_skips_check():
    s = _find(_acting)
    a = int(G.legal_actions(s)[0])
    s[R.score_at(0)] += 1  # caught by the check ...
    with pytest.raises(ValueError, match="score"):
        G.step(s, a)
    G.step_inplace(s, a, check=False)  # ... but not on the documented fast path


def test_no_corrupted_state_plays_on_silently():
    """The fuzzer's one-field corruptions (tests/fuzz_states.py, in this process: its crash
    counting runs in test_hardening): each refused, or a valid state played on correctly."""
    import sys
    from collections import Counter

    sys.path.insert(0, str(TESTS_DIR))
    from fuzz_states import make_input, run_one

    counts = Counter(run_one(G, make_input(G, "corrupt", i, 7), np.random.default_rng(i)) for i in range(300))
    assert set(counts) <= {"refused", "ok"} and counts["refused"] > 200, counts
