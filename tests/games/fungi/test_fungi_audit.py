"""Independent audit of Fungi against the rulebook (shared/rules/fungi.txt) and RULES.md.

The first tests pin the discrepancies the audit found (fixed since); the others pin down
subtle rules verified to be right.
Expected values come from the rulebook, never from the implementation.
"""

import numpy as np
import pytest
from fungi_helpers import K, decay, encode_action, forest, hand, legal_set, setup

from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.game import FungiGame

G = FungiGame()
HONEY, TREE, WIG, SHII, HEN, BIRCH, PORC, CHANT, MOREL = range(9)
NO_HONEY = ["Morel", "Chant", "Porcini", "Birch", "Shiitake", "Morel", "Chant", "Porcini"]
FILL = ["Honey", "TreeEar", "LawWig", "Hen", "Honey", "TreeEar", "LawWig", "Hen"]
FULL8 = {"Honey": 2, "TreeEar": 2, "LawWig": 2, "Hen": 2}
STUCK_LINE = ["Morel", "Morel", "Butter", "Cidre", "Butter", "Honey", "Honey", "Honey"]
STUCK = {"Honey": 1, "TreeEar": 1, "LawWig": 1, "Shiitake": 1, "Hen": 1, "Birch": 1, "Porcini": 1, "Chant": 1}


def act(s, *parts):
    s2 = G.step(s, encode_action(*parts))
    G.check_invariants(s2)
    return s2


# =============================================================================================
# Discrepancies found by the audit (fixed)
# =============================================================================================


def _opp_cooks_four_honey(hidden):
    """Player 1 holds 4 face-up Honey fungus and one face-down starting card ``hidden``."""
    s = setup(forest=NO_HONEY, hands=({"Hen": 2}, {"Honey": 4, hidden: 1}), known=({}, {"Honey": 4}), cur=1)
    return s, G.step(s, encode_action("cook", HONEY, 0, 4))


def test_cook_followup_does_not_reveal_face_down_cards():
    a0, a1 = _opp_cooks_four_honey("Butter")  # a face-down Butter: 2 finishes -> follow-up phase
    b0, b1 = _opp_cooks_four_honey("Chant")  # a face-down Chanterelle: 1 finish -> applied at once
    assert np.array_equal(G.observe(a0, 0), G.observe(b0, 0))  # same public position
    # the same public action must lead to the same public observation for player 0
    assert np.array_equal(G.observe(a1, 0), G.observe(b1, 0))


def test_perturb_hidden_during_opponent_cook_followup_is_reachable():
    _, s = _opp_cooks_four_honey("Butter")
    assert R.phase(s) == R.PH_COOK and R.current_player(s) == 1
    rng = np.random.default_rng(0)
    for _ in range(30):
        o = G.perturb_hidden(s, 0, rng)
        assert len(G.legal_actions(o)) >= 1, "the opponent must keep a Pan to finish its cook with"


def test_perturb_hidden_keeps_a_skipped_opponent_without_action():
    known = {"Honey": 1, "TreeEar": 1, "LawWig": 1, "Shiitake": 1, "Hen": 1}  # 3 face-down starting cards
    s = setup(forest=STUCK_LINE, hands=({}, STUCK), known=({}, known))
    s = act(s, "take", 0)
    assert R.current_player(s) == 0 and s[R.NSKIPS] == 1 and not R.has_action(s, 1, G.config)
    rng = np.random.default_rng(1)
    for _ in range(30):
        o = G.perturb_hidden(s, 0, rng)
        assert not R.has_action(o, 1, G.config), "player 0 knows player 1 cannot act"


def test_check_invariants_rejects_fly_new_outside_the_own_turn():
    s = setup(forest=FILL, hands=({}, {"Honey": 2}), fly_new=(0, 1), cur=0, check=False)
    with pytest.raises(AssertionError):
        G.check_invariants(s)


def test_check_invariants_rejects_publicly_known_night_card():
    s = setup(forest=FILL, hands=({}, {"N-Honey": 1}), known=({}, {"N-Honey": 1}), check=False)
    with pytest.raises(AssertionError):
        G.check_invariants(s)


@pytest.mark.parametrize("where", ["forest", "decay"])
def test_check_invariants_rejects_night_card_in_forest_or_decay(where):
    if where == "forest":
        s = setup(forest=["N-Honey"] + FILL[1:], check=False)
    else:
        s = setup(forest=FILL, decay=["N-Honey"], check=False)
    with pytest.raises(AssertionError):
        G.check_invariants(s)


def test_check_invariants_rejects_trim_without_fly_agaric():
    s = setup(forest=FILL[:7], hands=({"Honey": 5}, {}), phase=R.PH_TRIM, check=False)
    with pytest.raises(AssertionError):
        G.check_invariants(s)


# =============================================================================================
# Subtle rules verified right (regression tests)
# =============================================================================================


def test_night_card_counts_two_for_the_butter_threshold():
    # 2 Forest + 1 Night Honey fungus = 4 mushrooms -> 1 Butter allowed ("Night cards again count as 2")
    s = setup(forest=NO_HONEY, hands=({"Honey": 2, "N-Honey": 1, "Butter": 1}, {}))
    s2 = act(s, "cook", HONEY, 1, 2)
    assert legal_set(G, s2) == {("finish_cook", 0, 0, 0), ("finish_cook", 0, 1, 0)}
    s3 = act(s2, "finish_cook", 0, 1, 0)
    assert s3[R.SCORE] == 4 + 3 and s3[R.UNITS] == 4


def test_lone_night_card_sells_for_double_sticks():
    s = setup(forest=FILL, hands=({"N-Porcini": 1}, {}))
    s2 = act(s, "sell", PORC, 1, 0)
    assert s2[R.STICKS] == 6 and hand(s2, 0) == {}


def test_cook_with_the_only_pan_in_hand_is_applied_at_once():
    s = setup(forest=FILL, hands=({"Chant": 3, "Pan": 1}, {}), pans=(0, 1))
    s2 = act(s, "cook", CHANT, 0, 3)
    assert R.current_player(s2) == 1 and s2[R.NCOOKED] == 1 and hand(s2, 0) == {} and s2[R.SCORE] == 12


def test_decay_flush_discards_a_fly_agaric_inside():
    s = setup(forest=["Morel"] + FILL[1:], decay=["FlyAgaric", "Honey", "TreeEar", "Basket"], hands=({"Chant": 2}, {}))
    s2 = act(s, "sell", CHANT, 0, 2)
    assert decay(s2) == ["Morel"]
    assert s2[R.discard_at(C.FLY)] == s[R.discard_at(C.FLY)] + 1
    assert s2[R.discard_at(C.BASKET)] == s[R.discard_at(C.BASKET)] + 1
    assert s2[R.FLY_NEW] + s2[R.FLY_OLD] == 0


def test_decay_with_fly_agaric_over_the_limit_moon_draws_then_trim_to_4():
    s = setup(
        forest=FILL, decay=["FlyAgaric", "Moon", "Morel", "Chant"], hands=(FULL8, {}), night=["N-Honey", "N-Birch"]
    )
    assert ("take_decay",) in legal_set(G, s)  # always legal: the trim follows at once
    s = act(s, "take_decay")
    assert s[R.HAND_N] == 11 and R.phase(s) == R.PH_TRIM and s[R.hand_at(0, K["N-Birch"])] == 1
    assert s[R.known_at(0, K["N-Birch"])] == 0 and s[R.known_at(0, MOREL)] == 1
    for _ in range(7):
        assert R.current_player(s) == 0
        s = act(s, "discard", next(K[x] for x in hand(s, 0)))
    assert s[R.HAND_N] == 4 and R.current_player(s) == 1 and R.hand_limit(s, 0) == 4


def test_decay_at_the_limit_moon_and_basket():
    # at the limit: Basket (+2) then Honey + Night card = 2 cards -> fits; 2 more cards would not
    s = setup(forest=FILL, decay=["Basket", "Moon", "Honey"], hands=(FULL8, {}))
    assert ("take_decay",) in legal_set(G, s)
    s = setup(forest=FILL, decay=["Basket", "Moon", "Honey", "Morel"], hands=(FULL8, {}))
    assert ("take_decay",) not in legal_set(G, s)


def test_basket_deep_in_the_forest_at_the_limit_costs_its_sticks():
    s = setup(forest=FILL[:4] + ["Basket"] + FILL[5:], hands=(FULL8, {}), sticks=(3, 0))
    assert {a[1] for a in legal_set(G, s) if a[0] == "take"} == {4}
    s2 = act(s, "take", 4)
    assert s2[R.STICKS] == 0 and s2[R.BASKETS] == 1 and s2[R.HAND_N] == 8
    s = setup(forest=FILL[:4] + ["Basket"] + FILL[5:], hands=(FULL8, {}), sticks=(2, 0))
    assert not any(a[0] == "take" for a in legal_set(G, s))


def test_stick_costs_in_a_shrunken_forest():
    s = setup(forest=["Honey", "TreeEar", "LawWig", "Hen"], draw=[], sticks=(2, 0))
    assert {a[1] for a in legal_set(G, s) if a[0] == "take"} == {0, 1, 2, 3}
    s2 = act(s, "take", 3)  # 4th card: 2 sticks
    assert s2[R.STICKS] == 0 and forest(s2) == ["TreeEar", "LawWig"] and decay(s2) == ["Honey"]


def test_last_forest_card_decaying_after_a_trim_ends_the_game():
    s = setup(forest=["Morel"], draw=[], decay=["FlyAgaric", "Honey"], hands=({"Honey": 4}, {"Hen": 2}))
    s = act(s, "take_decay")
    assert R.phase(s) == R.PH_TRIM and not G.is_terminal(s)
    s = act(s, "discard", HONEY)
    assert G.is_terminal(s) and decay(s) == ["Morel"]


def test_taking_the_last_forest_card_ends_before_a_trim():
    s = setup(forest=["FlyAgaric"], draw=[], hands=({"Honey": 6}, {}))
    s2 = act(s, "take", 0)
    assert G.is_terminal(s2) and s2[R.HAND_N] == 6


def test_fly_agaric_next_turn_is_the_extra_turn_after_the_opponent_is_skipped():
    # Player 0 takes a Fly agaric; player 1 (8 singles, no sticks) is skipped, so player 0's
    # next turn comes at once and the Fly agaric leaves at its end.
    line = ["FlyAgaric", "Morel", "Butter", "Cidre", "Butter", "Honey", "Honey", "Honey"]
    s = setup(forest=line, hands=({"Chant": 2}, STUCK))
    fly0 = s[R.discard_at(C.FLY)]
    s = act(s, "take", 0)
    assert R.current_player(s) == 0 and s[R.NSKIPS] == 1 and R.hand_limit(s, 0) == 4
    s = act(s, "sell", CHANT, 0, 2)
    assert s[R.discard_at(C.FLY)] == fly0 + 1 and R.hand_limit(s, 0) == 8


def test_two_fly_agarics_expire_on_their_own_clocks():
    s = setup(
        forest=["FlyAgaric", "Morel", "Chant", "FlyAgaric"] + NO_HONEY[:4],
        hands=({"Honey": 2, "TreeEar": 2}, {"Hen": 4}),
        sticks=(0, 0),
    )
    fly0 = s[R.discard_at(C.FLY)]
    s = act(s, "take", 0)  # 1st Fly agaric; Morel decays
    s = act(s, "sell", HEN, 0, 2)  # player 1; Chanterelle decays, Fly agaric #2 at the shoes
    assert forest(s)[0] == "FlyAgaric" and R.hand_limit(s, 0) == 4
    s = act(s, "take", 0)  # player 0's next turn: 2nd Fly agaric
    assert s[R.discard_at(C.FLY)] == fly0 + 1 and s[R.FLY_OLD] == 1 and R.hand_limit(s, 0) == 4
    s = act(s, "sell", HEN, 0, 2)
    s = act(s, "sell", HONEY, 0, 2)  # end of the turn after the 2nd: it leaves too
    assert s[R.discard_at(C.FLY)] == fly0 + 2 and R.hand_limit(s, 0) == 8


def test_starting_hand_fly_agaric_has_no_effect():
    found = 0
    for seed in range(300):
        s = G.new_state(seed)
        if s[R.discard_at(C.FLY)]:
            found += 1
            for p in (0, 1):
                assert s[R.FLY_NEW + p] == 0 and s[R.FLY_OLD + p] == 0
                assert R.hand_limit(s, p) == 8 + 2 * s[R.BASKETS + p]
    assert found > 10


def test_face_down_and_night_cards_stay_out_of_the_opponents_observation():
    a = setup(forest=FILL, hands=({}, {"Morel": 1, "N-Chant": 1, "Honey": 1}), known=({}, {"Honey": 1}))
    b = setup(forest=FILL, hands=({}, {"Porcini": 1, "N-Birch": 1, "Honey": 1}), known=({}, {"Honey": 1}))
    assert np.array_equal(G.observe(a, 0), G.observe(b, 0))
    assert G.observe(a, 0)[R.O_OPP_KNOWN + HONEY] == 1


def test_spending_more_than_the_known_cards_clamps_at_zero():
    s = setup(forest=NO_HONEY, hands=({"Honey": 3}, {}), known=({"Honey": 1}, {}))
    s2 = act(s, "sell", HONEY, 0, 2)
    assert s2[R.known_at(0, HONEY)] == 0 and hand(s2, 0) == {"Honey": 1}


def test_a_skipped_players_fly_agaric_clock_does_not_move():
    # Player 0: Fly agaric taken last turn (limit 4), 4 singles, no Pan, no sticks -> cannot act.
    four = {"Honey": 1, "TreeEar": 1, "LawWig": 1, "Shiitake": 1}
    s = setup(forest=STUCK_LINE, hands=(four, {"Hen": 4}), fly_old=(1, 0), cur=1)
    fly0 = s[R.discard_at(C.FLY)]
    s = act(s, "sell", HEN, 0, 2)
    assert R.current_player(s) == 1 and s[R.NSKIPS] == 1
    s = act(s, "sell", HEN, 0, 2)
    assert s[R.NSKIPS] == 2 and s[R.FLY_OLD] == 1 and s[R.discard_at(C.FLY)] == fly0
    assert R.hand_limit(s, 0) == 4
