"""Fungi scenario tests: every worked example and number of the rulebook, on constructed positions.

Expected values are the rulebook's numbers (and the published deck's), never read back
from the implementation.
"""

import numpy as np
import pytest
from fungi_helpers import K, decay, encode_action, forest, hand, legal_set, setup

from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.game import FungiGame

G = FungiGame()
FILL = ["Honey", "TreeEar", "LawWig", "Hen", "Honey", "TreeEar", "LawWig", "Hen"]
NO_HONEY = ["Morel", "Chant", "Porcini", "Birch", "Shiitake", "Morel", "Chant", "Porcini"]
HONEY, TREE, WIG, SHII, HEN, BIRCH, PORC, CHANT, MOREL = range(9)


def act(s, *parts):
    s2 = G.step(s, encode_action(*parts))
    G.check_invariants(s2)
    return s2


# --- selling ---------------------------------------------------------------------------------


def test_sell_three_shiitake_one_forest_one_night_gains_6_sticks():
    s = setup(forest=FILL, hands=({"Shiitake": 1, "N-Shiitake": 1}, {}))
    legal = legal_set(G, s)
    assert ("sell", SHII, 1, 1) in legal  # 3 mushrooms
    assert ("sell", SHII, 1, 0) in legal  # the Night card alone is 2 mushrooms: enough to sell
    assert ("sell", SHII, 0, 1) not in legal  # 1 mushroom cannot be sold
    s2 = act(s, "sell", SHII, 1, 1)
    assert s2[R.STICKS] == 6
    assert hand(s2, 0) == {}
    assert s2[R.discard_at(SHII)] == s[R.discard_at(SHII)] + 1
    assert s2[R.discard_at(K["N-Shiitake"])] == s[R.discard_at(K["N-Shiitake"])] + 1


@pytest.mark.parametrize(
    "t,sticks_each",
    [(HONEY, 1), (TREE, 2), (WIG, 1), (SHII, 2), (HEN, 1), (BIRCH, 2), (PORC, 3), (CHANT, 2), (MOREL, 4)],
)
def test_sell_two_of_each_type_gains_the_published_sticks(t, sticks_each):
    s = setup(forest=FILL, hands=({C.KIND_SHORT[t]: 2}, {}), sticks=(1, 0))
    s2 = act(s, "sell", t, 0, 2)
    assert s2[R.STICKS] == 1 + 2 * sticks_each


def test_selling_one_card_or_mixing_types_is_not_an_action():
    s = setup(forest=FILL, hands=({"Honey": 1, "TreeEar": 1, "Morel": 1}, {}))
    assert not any(a[0] in ("sell", "cook") for a in legal_set(G, s))


# --- cooking, Butter and Cidre ---------------------------------------------------------------


def _cook_finish_choices(units):
    """Cook ``units`` Honey fungus (the Night card when units >= 3 and it helps) holding 3 Butter and 3 Cidre."""
    n = 1 if units >= 3 else 0
    f = units - 2 * n
    s = setup(forest=NO_HONEY, hands=({"Honey": f, "N-Honey": n, "Butter": 3, "Cidre": 3}, {}), baskets=(5, 0))
    s2 = act(s, "cook", HONEY, n, f)
    if R.phase(s2) != R.PH_COOK:
        return s2, None
    got = {(b, c) for (_, src, b, c) in legal_set(G, s2)}
    assert {a[0] for a in legal_set(G, s2)} == {"finish_cook"}
    return s2, got


@pytest.mark.parametrize(
    "units,allowed",
    [
        (4, {(0, 0), (1, 0)}),  # 4 -> 1 Butter
        (5, {(0, 0), (1, 0), (0, 1)}),  # 5 -> 1 Cidre instead
        (7, {(0, 0), (1, 0), (0, 1)}),  # 7: still no second one
        (8, {(0, 0), (1, 0), (0, 1), (2, 0)}),  # 8 -> 2 Butter
        (9, {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1)}),  # 9 -> Butter + Cidre
        (10, {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)}),  # 10 -> 2 Cidre
        (12, {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 0)}),  # additive reading (RULES.md)
    ],
)
def test_butter_cidre_thresholds(units, allowed):
    _, got = _cook_finish_choices(units)
    assert got == allowed


def test_three_mushrooms_allow_no_butter_but_the_hand_is_private():
    # 3 mushrooms: nothing can be added. The player still holds cards the opponent cannot see
    # (one could be a Pan), so the follow-up is asked, with its single legal choice (RULES.md 3).
    s2, got = _cook_finish_choices(3)
    assert got == {(0, 0)}
    s3 = act(s2, "finish_cook", 0, 0, 0)
    assert s3[R.SCORE] == 3 and s3[R.UNITS] == 3
    assert hand(s3, 0) == {"Butter": 3, "Cidre": 3}
    assert R.current_player(s3) == 1


def test_cook_is_finished_at_once_when_public_information_leaves_one_choice():
    # 3 mushrooms and nothing left in hand: display Pan, no Butter/Cidre is the only finish.
    s = setup(forest=NO_HONEY, hands=({"Honey": 3}, {}))
    s2 = act(s, "cook", HONEY, 0, 3)
    assert R.phase(s2) == R.PH_ACT and s2[R.SCORE] == 3 and R.current_player(s2) == 1
    # 3 mushrooms, no empty Pan in the display: the Pan must come from the hand.
    s = setup(forest=NO_HONEY, hands=({"Honey": 3, "Pan": 1, "Hen": 1}, {}), pans=(0, 1))
    s2 = act(s, "cook", HONEY, 0, 3)
    assert R.phase(s2) == R.PH_ACT and hand(s2, 0) == {"Hen": 1} and s2[R.NCOOKED] == 1


@pytest.mark.parametrize(
    "units,b,c,points", [(4, 1, 0, 4 + 3), (5, 0, 1, 5 + 5), (8, 2, 0, 8 + 6), (9, 1, 1, 9 + 8), (10, 0, 2, 10 + 10)]
)
def test_butter_adds_3_cidre_adds_5(units, b, c, points):
    s2, _ = _cook_finish_choices(units)
    s3 = act(s2, "finish_cook", 0, b, c)
    assert s3[R.SCORE] == points  # Honey fungus: 1 point per mushroom
    assert s3[R.COOKED_B] == b and s3[R.COOKED_C] == c
    assert s3[R.EMPTY_PANS] == 0 and s3[R.NCOOKED] == 1


def test_cooking_needs_three_and_a_pan():
    s = setup(forest=FILL, hands=({"Morel": 2, "Chant": 3}, {}), pans=(0, 1))
    assert not any(a[0] == "cook" for a in legal_set(G, s))  # no Pan at all
    s = setup(forest=FILL, hands=({"Morel": 2, "Chant": 3, "Pan": 1}, {}), pans=(0, 1))
    cooks = {a for a in legal_set(G, s) if a[0] == "cook"}
    assert cooks == {("cook", CHANT, 0, 3)}  # 2 Morels are too few


def test_cook_with_a_pan_from_hand_or_from_display():
    # Mid-cook, straight from a description: 3 Chanterelles in the pan being cooked.
    s = G.state_from(forest=FILL, hands=({"Pan": 1}, {}), pending=("cook", "Chant", 0, 3))
    assert G.pending(s) == ("cook", CHANT, 0, 3) and G.phase(s) == "cook"
    assert legal_set(G, s) == {("finish_cook", 0, 0, 0), ("finish_cook", 1, 0, 0)}
    s2 = act(s, "finish_cook", 1, 0, 0)  # the Pan from the hand
    assert s2[R.EMPTY_PANS] == 1 and hand(s2, 0) == {} and G.scores(s2) == (12, 0)
    s2 = act(s, "finish_cook", 0, 0, 0)  # the display's Pan; the hand keeps its Pan
    assert s2[R.EMPTY_PANS] == 0 and hand(s2, 0) == {"Pan": 1} and G.scores(s2) == (12, 0)


def test_cook_follow_up_offers_butter_or_cidre_for_five_mushrooms():
    s = G.state_from(forest=NO_HONEY, hands=({"Butter": 1, "Cidre": 1}, {}), pending=("cook", "Honey", 1, 3))
    assert G.observe(s, 0)[R.O_PEND_UNITS] == 5 and G.observe(s, 1)[R.O_PEND_TYPE + HONEY] == 1
    assert legal_set(G, s) == {("finish_cook", 0, 0, 0), ("finish_cook", 0, 1, 0), ("finish_cook", 0, 0, 1)}
    assert G.scores(act(s, "finish_cook", 0, 0, 1)) == (5 + 5, 0)


def test_night_card_doubles_flavor():
    s = setup(forest=FILL, hands=({"Porcini": 1, "N-Porcini": 1}, {}))
    s2 = act(s, "cook", PORC, 1, 1)
    assert s2[R.SCORE] == 9 and s2[R.UNITS] == 3  # 3 points x (1 + 2)


def test_put_down_a_pan():
    s = setup(forest=FILL, hands=({"Pan": 1}, {}), pans=(0, 1))
    s2 = act(s, "put_pan")
    assert s2[R.EMPTY_PANS] == 1 and hand(s2, 0) == {}


# --- the Forest and stick costs --------------------------------------------------------------


def test_rulebook_example_of_stick_costs():
    line = ["Birch", "Pan", "Butter", "Honey", "TreeEar", "LawWig", "Moon", "Hen"]
    s = setup(forest=line, sticks=(5, 0))
    takes = {a[1] for a in legal_set(G, s) if a[0] == "take"}
    assert takes == {0, 1, 2, 3, 4, 5, 6}  # the deepest card costs 6 > 5
    assert act(s, "take", 0)[R.STICKS] == 5  # Birch bolete: free
    assert act(s, "take", 1)[R.STICKS] == 5  # Pan: free
    s2 = act(s, "take", 2)  # Butter, third place: 1 stick
    assert s2[R.STICKS] == 4 and hand(s2, 0) == {"Butter": 1}
    s2 = act(s, "take", 6)  # Moon, seventh place: 5 sticks
    assert s2[R.STICKS] == 0 and s2[R.discard_at(C.MOON)] == s[R.discard_at(C.MOON)] + 1
    s0 = setup(forest=line, sticks=(0, 0))
    assert {a[1] for a in legal_set(G, s0) if a[0] == "take"} == {0, 1}


@pytest.mark.parametrize("pos", range(2, 8))
def test_deep_forest_costs_one_to_six(pos):
    cost = pos - 1
    s = setup(forest=FILL, sticks=(cost - 1, 0))
    assert ("take", pos) not in legal_set(G, s)
    s = setup(forest=FILL, sticks=(cost, 3))
    s2 = act(s, "take", pos)
    assert s2[R.STICKS] == 0 and s2[R.STICKS + 1] == 3
    assert s2[R.HAND_N] == 1


def test_end_of_turn_slides_and_refills():
    line = ["Honey", "TreeEar", "LawWig", "Shiitake", "Hen", "Birch", "Porcini", "Chant"]
    s = setup(forest=line, draw=["Morel", "Butter", "Cidre"], sticks=(2, 0))  # top = Cidre
    s2 = act(s, "take", 3)  # Shiitake
    assert decay(s2) == ["Honey"]
    assert forest(s2) == ["TreeEar", "LawWig", "Hen", "Birch", "Porcini", "Chant", "Cidre", "Butter"]
    assert s2[R.DRAW_N] == 1


def test_decay_fifth_card_flushes_the_four():
    s = setup(forest=["Morel"] + FILL[1:], decay=["Honey", "TreeEar", "LawWig", "Hen"], hands=({"Chant": 2}, {}))
    s2 = act(s, "sell", CHANT, 0, 2)
    assert decay(s2) == ["Morel"]
    for k in (HONEY, TREE, WIG, HEN):
        assert s2[R.discard_at(k)] == s[R.discard_at(k)] + 1
    # A fourth card does not flush.
    s = setup(forest=["Morel"] + FILL[1:], decay=["Honey", "TreeEar", "LawWig"], hands=({"Chant": 2}, {}))
    assert decay(act(s, "sell", CHANT, 0, 2)) == ["Honey", "TreeEar", "LawWig", "Morel"]


# --- hand limit, Baskets, the decay pile ------------------------------------------------------

FULL8 = {"Honey": 2, "TreeEar": 2, "LawWig": 2, "Hen": 2}


def test_hand_limit_8_refuses_a_ninth_card():
    s = setup(forest=["Morel", "Basket"] + FILL[2:], hands=(FULL8, {}))
    takes = {a[1] for a in legal_set(G, s) if a[0] == "take"}
    assert takes == {1}  # the Basket only
    s2 = act(s, "take", 1)
    assert s2[R.BASKETS] == 1 and s2[R.HAND_N] == 8 and R.hand_limit(s2, 0) == 10


def test_decay_at_the_limit_with_one_basket_and_three_cards():
    s = setup(forest=FILL, decay=["Basket", "Morel", "Chant"], hands=(FULL8, {}))
    assert ("take_decay",) in legal_set(G, s)
    s2 = act(s, "take_decay")
    assert s2[R.BASKETS] == 1 and s2[R.HAND_N] == 10


def test_decay_of_four_at_the_limit_needs_two_baskets():
    s = setup(forest=FILL, decay=["Basket", "Morel", "Chant", "Porcini"], hands=(FULL8, {}))
    assert ("take_decay",) not in legal_set(G, s)
    s = setup(forest=FILL, decay=["Basket", "Basket", "Morel", "Chant"], hands=(FULL8, {}))
    assert ("take_decay",) in legal_set(G, s)
    s2 = act(s, "take_decay")
    assert s2[R.BASKETS] == 2 and s2[R.HAND_N] == 10 and R.hand_limit(s2, 0) == 12


def test_decay_without_basket_over_the_limit_is_refused_and_empty_decay_too():
    s = setup(forest=FILL, decay=["Morel"], hands=(FULL8, {}))
    assert ("take_decay",) not in legal_set(G, s)
    s = setup(forest=FILL, decay=[], hands=({}, {}))
    assert ("take_decay",) not in legal_set(G, s)


def test_decay_moon_becomes_a_night_card_and_needs_a_slot():
    s = setup(forest=FILL, decay=["Moon", "Honey"], hands=({"Chant": 3, "Morel": 3}, {}), night=["N-Honey", "N-Birch"])
    s2 = act(s, "take_decay")
    assert hand(s2, 0) == {"Chant": 3, "Morel": 3, "Honey": 1, "N-Birch": 1}
    s = setup(forest=FILL, decay=["Moon", "Honey"], hands=({"Chant": 4, "Morel": 3}, {}))
    assert ("take_decay",) not in legal_set(G, s)  # 7 + 2 > 8


# --- Moon ------------------------------------------------------------------------------------


def test_moon_gives_the_top_night_card():
    s = setup(forest=["Moon"] + FILL[1:], night=["N-Honey", "N-TreeEar", "N-Chant"])
    s2 = act(s, "take", 0)
    assert hand(s2, 0) == {"N-Chant": 1}
    assert s2[R.NIGHT_N] == 2 and s2[R.discard_at(C.MOON)] == s[R.discard_at(C.MOON)] + 1
    assert s2[R.known_at(0, K["N-Chant"])] == 0  # drawn face down
    s = setup(forest=["Moon"] + FILL[1:], hands=(FULL8, {}))
    assert ("take", 0) not in legal_set(G, s)  # the Night card needs a slot


# --- Fly agaric ------------------------------------------------------------------------------


@pytest.mark.parametrize("baskets,limit", [(0, 4), (1, 6), (2, 8)])
def test_fly_agaric_trims_to_4_plus_2_per_basket(baskets, limit):
    start = 8 + 2 * baskets
    hands = ["Honey"] * 3 + ["TreeEar"] * 3 + ["LawWig"] * 2 + ["Hen"] * 2 + ["Shiitake"] * 2
    s = G.state_from(forest=["FlyAgaric"] + FILL[1:], hands=(hands[:start], {}), baskets=(baskets, 0))
    s = act(s, "take", 0)
    for i in range(start - limit):
        assert G.pending(s) == ("trim", start - limit - i) and R.current_player(s) == 0
        assert {a[0] for a in legal_set(G, s)} == {"discard"}
        s = act(s, "discard", K[next(iter(hand(s, 0)))])
    assert G.phase(s) == "act" and R.current_player(s) == 1
    assert G.hand_sizes(s)[0] == limit == G.hand_limit(s, 0)
    assert s[R.FLY_OLD] == 1 and s[R.FLY_NEW] == 0  # in the display until the end of the next turn


def test_a_described_trim_continues_until_the_limit():
    s = G.state_from(forest=FILL[:7], hands=({"Honey": 5, "Hen": 2}, {}), fly_new=(1, 0), pending=("trim",))
    assert G.pending(s) == ("trim", 3) and G.observe(s, 0)[R.O_TRIM_LEFT] == 3
    for _ in range(3):
        s = act(s, "discard", HONEY)
    assert G.pending(s) is None and R.current_player(s) == 1 and hand(s, 0) == {"Honey": 2, "Hen": 2}


def test_fly_agaric_no_voluntary_discard_when_under():
    s = setup(forest=["FlyAgaric"] + FILL[1:], hands=({"Honey": 3}, {}))
    s2 = act(s, "take", 0)
    assert R.current_player(s2) == 1 and R.phase(s2) == R.PH_ACT and hand(s2, 0) == {"Honey": 3}
    s = setup(forest=["FlyAgaric"] + FILL[1:], hands=({"Honey": 4}, {}))
    s2 = act(s, "take", 0)
    assert R.current_player(s2) == 1 and hand(s2, 0) == {"Honey": 4}  # exactly at 4: nothing to discard


def test_fly_agaric_expires_at_the_end_of_the_next_own_turn():
    s = setup(
        forest=["FlyAgaric"] + ["Morel", "Chant", "Porcini", "Birch", "Shiitake", "Morel", "Chant"],
        hands=({"Honey": 4}, {"Hen": 2}),
    )
    fly0 = s[R.discard_at(C.FLY)]
    s = act(s, "take", 0)  # turn 1 of player 0
    assert R.hand_limit(s, 0) == 4
    s = act(s, "sell", HEN, 0, 2)  # player 1
    assert R.current_player(s) == 0 and R.hand_limit(s, 0) == 4 and s[R.discard_at(C.FLY)] == fly0
    assert not any(
        a[0] == "take" and forest(s)[a[1]] not in ("Basket", "FlyAgaric") for a in legal_set(G, s)
    )  # at 4 cards, no room under the Fly agaric's limit
    s = act(s, "sell", HONEY, 0, 2)  # player 0's next turn ends: the Fly agaric is discarded
    assert s[R.discard_at(C.FLY)] == fly0 + 1
    assert s[R.FLY_OLD] == 0 and s[R.FLY_NEW] == 0 and R.hand_limit(s, 0) == 8


def test_fly_agaric_in_the_decay_is_taken_with_the_rest_and_trimmed():
    s = setup(forest=FILL, decay=["FlyAgaric", "Morel", "Chant", "Basket"], hands=(FULL8, {}))
    assert ("take_decay",) in legal_set(G, s)
    s = act(s, "take_decay")
    assert s[R.BASKETS] == 1 and s[R.FLY_NEW] + s[R.FLY_OLD] == 1
    assert s[R.HAND_N] == 10 and R.phase(s) == R.PH_TRIM  # trim to 4 + 2 = 6
    for _ in range(4):
        s = act(s, "discard", next(K[x] for x in hand(s, 0)))
    assert s[R.HAND_N] == 6 and R.current_player(s) == 1


def test_trimmed_cards_go_to_the_discard_pile():
    s = setup(forest=["FlyAgaric"] + FILL[1:], hands=({"Morel": 3, "Honey": 2}, {}))
    s2 = act(s, "take", 0)
    s3 = act(s2, "discard", MOREL)
    assert s3[R.discard_at(MOREL)] == s[R.discard_at(MOREL)] + 1 and R.current_player(s3) == 1


# --- skipping, the end, scoring --------------------------------------------------------------

STUCK = {"Honey": 1, "TreeEar": 1, "LawWig": 1, "Shiitake": 1, "Hen": 1, "Birch": 1, "Porcini": 1, "Chant": 1}


def test_a_player_who_cannot_act_is_skipped():
    line = ["Morel", "Morel", "Butter", "Cidre", "Butter", "Honey", "Honey", "Honey"]
    s = setup(forest=line, hands=({}, STUCK))
    s2 = act(s, "take", 0)
    assert R.current_player(s2) == 0 and s2[R.NSKIPS] == 1  # player 1 (8 singles, no sticks) is skipped
    s3 = act(s2, "take", 0)
    assert R.current_player(s3) == 0 and s3[R.NSKIPS] == 2


def test_neither_can_act_forced_pass():
    seven = dict(STUCK)
    del seven["Chant"]
    line = ["Chant", "Morel", "Butter", "Cidre", "Basket", "Honey", "Honey", "Honey"]
    s = setup(forest=line, hands=(seven, STUCK))
    s2 = act(s, "take", 0)  # player 0 now holds 8 singles too; Morel decays after the turn
    # Neither can act (Morel/Butter at the shoes need a slot, no sticks, decay too big): player 1
    # passes, Butter decays, Cidre/Basket reach the shoes and player 0 can take the Basket.
    assert s2[R.NPASSES] == 1
    assert decay(s2) == ["Morel", "Butter"]
    assert forest(s2)[:2] == ["Cidre", "Basket"]
    assert R.current_player(s2) == 0
    assert {a for a in legal_set(G, s2)} == {("take", 1)}


def test_game_ends_when_the_last_forest_card_is_taken():
    s = setup(forest=["Honey"], draw=[], hands=({}, {"Hen": 2}))
    s2 = act(s, "take", 0)
    assert G.is_terminal(s2)
    assert list(G.returns(s2)) == [0.0, 0.0]
    assert not G.legal_mask(s2).any()


def test_game_ends_when_the_last_forest_card_decays():
    s = setup(forest=["Honey", "Morel"], draw=[], hands=({"Hen": 2}, {"Chant": 2}))
    s = act(s, "sell", HEN, 0, 2)
    assert not G.is_terminal(s) and forest(s) == ["Morel"] and R.current_player(s) == 1
    s = act(s, "sell", CHANT, 0, 2)
    assert G.is_terminal(s)


def _final(pans0, pans1, reward="win_loss"):
    """Both players' cooked pans, one Forest card left: taking it ends the game."""
    g = FungiGame(reward=reward)
    s = g.state_from(forest=["Honey"], draw=[], night=[], cooked=(pans0, pans1))
    s = g.step(s, g.encode_action("take", 0))
    assert g.is_terminal(s)
    return g, s


def test_more_flavor_wins():
    g, s = _final([("Morel", 3)], [("Chant", 3, 0, 0, 0)])  # 18 vs 12
    assert g.scores(s) == (18, 12)
    assert list(g.returns(s)) == [1.0, -1.0]


def test_butter_and_cidre_count_in_the_score():
    g, s = _final([("Honey", 4, 0, 1, 0)], [("Honey", 5, 0, 0, 1)])  # 4 + 3 = 7 vs 5 + 5 = 10
    assert list(g.returns(s)) == [-1.0, 1.0]


def test_tie_broken_by_mushrooms_cooked_with_night_as_two():
    g, s = _final([("Hen", 2, 1)], [("Chant", 3)])  # 12 points each; 4 mushrooms vs 3
    assert g.scores(s) == (12, 12) and g.mushrooms_cooked(s) == (4, 3)
    assert list(g.returns(s)) == [1.0, -1.0]
    g, s = _final([("Chant", 3)], [("Hen", 4)])  # 12 each; 3 vs 4
    assert list(g.returns(s)) == [-1.0, 1.0]
    g, s = _final([("Hen", 4, 0, 1, 0)], [("Chant", 3, 0, 0, 0), ("Honey", 3)])  # 15 vs 15, 4 vs 6
    assert list(g.returns(s)) == [-1.0, 1.0]


def test_full_tie_is_a_draw_and_score_diff_reward():
    g, s = _final([("Chant", 3)], [("Chant", 1, 1)])  # 12 each, 3 mushrooms each
    assert list(g.returns(s)) == [0.0, 0.0]
    g, s = _final([("Morel", 3)], [("Chant", 3)], reward="score_diff")
    assert list(g.returns(s)) == [6.0, -6.0]


# --- the API refuses illegal actions ---------------------------------------------------------


def test_illegal_actions_raise_value_error():
    s = setup(forest=FILL, hands=({"Honey": 1}, {}))
    before = s.copy()
    for bad in [
        encode_action("take", 2),  # 1 stick needed
        encode_action("take_decay"),  # empty decay pile
        encode_action("sell", HONEY, 0, 1),
        encode_action("cook", HONEY, 0, 3),
        encode_action("finish_cook", 0, 0, 0),  # not in a cook follow-up
        encode_action("discard", HONEY),  # no Fly agaric trim
        encode_action("put_pan"),
        -1,
        R.NUM_ACTIONS,
        1.5,
        "x",
    ]:
        with pytest.raises(ValueError):
            G.step(s, bad)
    assert np.array_equal(s, before)


# --- setup -----------------------------------------------------------------------------------


def test_setup_and_starting_hand_specials():
    seen = {"basket": 0, "moon": 0, "fly": 0}
    for seed in range(200):
        s = G.new_state(seed)
        G.check_invariants(s)
        assert s[R.FOREST_N] == 8 and s[R.DECAY_N] == 0
        assert s[R.DRAW_N] == 84 - 8 - 6  # no replacement card is drawn
        assert s[R.EMPTY_PANS] == 1 and s[R.EMPTY_PANS + 1] == 1
        assert s[R.STICKS] == 0 and s[R.STICKS + 1] == 0
        moons = s[R.discard_at(C.MOON)]
        flies = s[R.discard_at(C.FLY)]
        baskets = s[R.BASKETS] + s[R.BASKETS + 1]
        nights = R.L.arrays(s)["hand"][:, C.NIGHT0 : C.NIGHT0 + C.NNIGHT].sum()
        assert nights == moons and s[R.NIGHT_N] == 8 - moons  # each Moon -> one Night card
        assert s[R.HAND_N] + s[R.HAND_N + 1] + baskets + flies == 6
        assert R.L.arrays(s)["discard"].sum() == moons + flies  # nothing else discarded
        assert (R.L.arrays(s)["known"] == 0).all()  # dealt face down
        assert R.current_player(s) == s[R.START]
        seen["basket"] += baskets > 0
        seen["moon"] += moons > 0
        seen["fly"] += flies > 0
    assert min(seen.values()) > 5
    starts = [G.new_state(seed)[R.START] for seed in range(200)]
    assert 60 < sum(starts) < 140  # random start player


# --- positions from a description -----------------------------------------------------------


def test_state_from_accounts_for_every_card_and_names_bad_descriptions():
    s = G.state_from(
        forest=FILL,
        decay=["Moon"],
        hands=({"Honey": 2, "N-Hen": 1}, ["Pan"]),
        sticks=(3, 1),
        cooked=([("Porcini", 3, 1, 1, 0)], []),
        to_act=1,
    )
    G.validate(s)  # every card of the deck in exactly one place, among the rest
    assert G.scores(s) == (5 * 3 + 3, 0) and G.sticks(s) == (3, 1) and G.current_player(s) == 1
    assert G.hand_limit(s, 0) == 8 and G.can_act(s, 1)
    with pytest.raises(ValueError, match="unknown card 'Truffle'"):
        G.state_from(forest=FILL, hands=({"Truffle": 1}, {}))
    with pytest.raises(ValueError, match="the deck has 3"):
        G.state_from(forest=FILL, hands=({"Morel": 4}, {}))
    with pytest.raises(ValueError, match="more cards than its limit"):
        G.state_from(forest=FILL, hands=({"TreeEar": 4, "Shiitake": 5}, {}))
    with pytest.raises(ValueError, match="pending is None"):
        G.state_from(forest=FILL, pending=("eat",))


def test_game_encodes_and_decodes_actions_by_name():
    a = G.encode_action("cook", HONEY, 1, 3)
    assert G.decode_action(a) == ("cook", (HONEY, 1, 3)) and a == R.cook_action(HONEY, 1, 3)
    assert G.encode_action("take_decay") == R.A_DECAY
    with pytest.raises(ValueError, match="valid actions are"):
        G.encode_action("finish", 0, 0, 0)
    with pytest.raises(ValueError, match="outside"):
        G.encode_action("take", 8)


def test_env_docstring_tables_come_from_the_declarations():
    from mushgym.envs import fungi_v0

    for table in (R.OL.table(), R.DL.table(), R.A.table()):
        assert table in fungi_v0.__doc__
    assert "@" not in fungi_v0.__doc__  # every placeholder filled
