"""Scenario tests of Mycology: each expected number comes from the rulebook (or RULES.md), not from the code."""

import numpy as np
import pytest
from mycology_helpers import (
    FALL,
    OP,
    PP,
    SD,
    SPRING,
    SUMMER,
    SY,
    WINTER,
    WR,
    MycologyGame,
    card,
    encode_action,
    fields,
    give,
    legal,
    position,
    res_of,
    rescore,
    set_field,
    set_next_roll,
)

from mushgym.envs.mycology.layout import DEC_BOTTOM, DEC_GIVE, DEC_PAY, DEC_TAKE, TURN_LIMIT

G2 = MycologyGame(observation="full")
G3 = MycologyGame(observation="full", num_players=3)

H = lambda slot: encode_action("harvest", slot)  # noqa: E731
END = encode_action("end")


# --- setup ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 6])
def test_setup(n):
    g = MycologyGame(observation="full", num_players=n)
    firsts = set()
    for seed in range(60):
        s = g.new_state(seed)
        g.check_invariants(s)
        firsts.add(int(fields(s)["first_player"]))
        assert int(fields(s)["turn_player"]) == int(fields(s)["first_player"])
        assert int(fields(s)["deck_count"]) == 84 - 8
        assert all(fields(s)["field"][j] >= 0 for j in range(8))
        roll = int(fields(s)["roll"])
        table = {2: OP, 12: OP, 3: PP, 11: PP, 4: WR, 10: WR, 5: SY, 9: SY, 6: SD, 8: SD}
        for p in range(n):
            expect = [1, 1, 1, 1, 1]
            if roll != 7:
                expect[table[roll]] += 1
            assert res_of(s, p) == expect
            assert (
                int(fields(s)["feast"][p]) == 2 and int(fields(s)["magic"][p]) == 0 and int(fields(s)["poison"][p]) == 0
            )
            assert int(fields(s)["score"][p]) == 2
        # the season marker starts on Winter; a first roll of 7 moves it to Spring
        assert int(fields(s)["season"]) == (1 if roll == 7 else 0)
        assert int(fields(s)["actions_left"]) == 2
    assert firsts == set(range(n)), "the first player is random"


# --- the dice -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "total,resource", [(2, OP), (3, PP), (4, WR), (5, SY), (6, SD), (8, SD), (9, SY), (10, WR), (11, PP), (12, OP)]
)
def test_dice_gives_every_player_the_resource(total, resource):
    s = position(G3, season=SUMMER)
    set_next_roll(s, total)
    s = G3.step(s, END)
    assert int(fields(s)["roll"]) == total
    assert int(fields(s)["turn_player"]) == 1
    for p in range(3):
        expect = [0] * 5
        expect[resource] = 1
        assert res_of(s, p) == expect
    assert int(fields(s)["season"]) == SUMMER


def test_seven_advances_the_season_and_wraps():
    s = position(G2, season=WINTER)
    seen = []
    for _ in range(5):
        set_next_roll(s, 7)
        s = G2.step(s, END)
        seen.append(int(fields(s)["season"]))
        assert res_of(s, 0) == [0] * 5 and res_of(s, 1) == [0] * 5
    assert seen == [SPRING, SUMMER, FALL, WINTER, SPRING]


def test_poison_tokens_from_the_dice_only():
    g = G3
    dc = card(g, "Death Cap")  # poison: Symbiont
    s = g.state_from(
        season="Summer",
        feast={0: 5, 1: 5, 2: 5},
        next_roll=9,
        baskets={
            0: {"Summer": ["Field Mushroom"]},
            1: {"Summer": ["Death Cap"], "Fall": ["Destroying Angel"]},  # poison: Symbiont
            2: {"Summer": ["Yellow Stainer"]},
        },
    )  # poison: Soil/Dung
    s = g.step(s, END)  # Symbiont
    assert [g.tokens(s, p)["poison"] for p in range(3)] == [0, 2, 0], "one token per poison card of that resource"
    # collecting Symbiont by a trade poisons too (the rulebook's "whenever ... collected"):
    # player 1 acts now, Death Cap and Destroying Angel: 2 more
    t = g.step(s, encode_action("trade3", SY))
    assert res_of(t, 1)[SY] == 2 and g.tokens(t, 1)["poison"] == 4
    # with poison_rule="dice_only" a trade does not poison
    # (a state belongs to the options that dealt it: moving it to the other variant on purpose
    # means restamping its header, mushgym.core.header)
    dice_only = MycologyGame(observation="full", num_players=3, poison_rule="dice_only")
    s = dice_only.step(dice_only.stamp_header(s.copy()), encode_action("trade3", SY))
    assert res_of(s, 1)[SY] == 2 and dice_only.tokens(s, 1)["poison"] == 2
    set_next_roll(s, 6)  # Soil/Dung
    s = g.step(g.stamp_header(s), END)
    assert [g.tokens(s, p)["poison"] for p in range(3)] == [0, 2, 1]
    set_next_roll(s, 4)  # Wood Rot: nobody
    s = g.step(s, END)
    assert [g.tokens(s, p)["poison"] for p in range(3)] == [0, 2, 1]
    # poison stays after the card is exchanged away; the new holder is poisoned from then on
    fields(s)["turn_player"][...] = 1
    fields(s)["season"][...] = SUMMER
    s = g.step(s, encode_action("trade6", 1))  # player 1 -> player 0 (2 seats after: opponent index 1)
    assert g.basket(s, 0, SUMMER) == [dc]
    set_next_roll(s, 5)
    s = g.step(s, END)
    assert [g.tokens(s, p)["poison"] for p in range(3)] == [1, 3, 1]  # 0: Death Cap; 1: Destroying Angel
    g.check_invariants(s)


# --- harvesting and baskets -----------------------------------------------------------------
def test_harvest_pays_gains_feast_and_refills():
    g = G2
    s = g.state_from(season="Fall", field={3: "Porcini"}, resources={0: [0, 0, 0, 3, 2]}, deck_top=["Chaga"])
    po = card(g, "Porcini")  # 2 SY + 1 SD, 3 Feast, summer/fall
    assert H(3) in legal(g, s)
    s = g.step(s, H(3))
    assert res_of(s, 0) == [0, 0, 0, 1, 1]
    assert g.tokens(s, 0)["feast"] == 3
    assert g.basket(s, 0, "Fall") == [po]
    assert g.field(s)[3] == card(g, "Chaga"), "the empty slot is refilled from the deck top"
    assert int(fields(s)["actions_left"]) == 1
    assert g.scores(s) == [int(g.deck.points[po]) + 3, 0]
    g.check_invariants(s)


def test_harvest_needs_the_season_and_the_cost():
    g = G2
    s = position(g, season=WINTER, res=[[0, 0, 0, 3, 2], [0] * 5])
    set_field(s, 0, card(g, "Porcini"))  # summer/fall only
    set_field(s, 1, card(g, "Velvet Shank"))  # winter, 1 WR + 1 SD: no Wood Rot
    set_field(s, 2, card(g, "Split Gill"))  # all seasons, 1 WR
    m = legal(g, s)
    assert H(0) not in m and H(1) not in m and H(2) not in m
    fields(s)["resources"][0, WR] = 1
    m = legal(g, s)
    assert H(1) in m and H(2) in m and H(0) not in m
    with pytest.raises(ValueError, match="illegal action"):
        g.step(s, H(0))


@pytest.mark.parametrize("season,capacity", [(WINTER, 1), (SPRING, 2), (SUMMER, 3), (FALL, 4)])
def test_basket_capacity(season, capacity):
    g = G2
    s = position(g, season=season, res=[[9, 9, 9, 9, 9], [0] * 5])
    allseason = [card(g, x) for x in ("Split Gill", "Chaga", "Turkey Tail", "Birch Polypore", "Tinder Fungus")]
    for c in allseason[: capacity - 1]:
        give(g, s, 0, season, c)
    set_field(s, 0, allseason[capacity - 1])
    set_field(s, 1, allseason[capacity])
    assert H(0) in legal(g, s)
    s = g.step(s, H(0))
    assert int(fields(s)["basket_count"][0, season]) == capacity
    assert H(1) not in legal(g, s), "the basket is full"
    g.check_invariants(s)


def test_two_actions_then_the_turn_ends():
    g = G2
    s = position(g, season=SUMMER, res=[[0, 0, 0, 0, 9], [0] * 5], feast=[3, 0])
    s = g.step(s, encode_action("trade2"))
    assert int(fields(s)["turn_player"]) == 0 and int(fields(s)["actions_left"]) == 1
    s = g.step(s, encode_action("trade4"))
    assert int(fields(s)["turn_player"]) == 1 and int(fields(s)["turn"]) == 1 and int(fields(s)["actions_left"]) == 2


# --- the six trades ---------------------------------------------------------------------------
def test_trade1_three_any_for_one_of_choice_is_paid_by_choice():
    g = G2
    s = position(g, season=SUMMER, res=[[2, 0, 3, 0, 1], [0] * 5])
    s = g.step(s, encode_action("trade1", SY))
    assert g.phase(s) == DEC_PAY
    # the player chooses which 3, one token at a time in canonical order (lowest resource
    # first): Soil/Dung cannot come first, as nothing could follow it
    assert legal(g, s) == {encode_action("pay_res", r) for r in (OP, WR)}
    s = g.step(s, encode_action("pay_res", WR))
    # order is canonical (no going back to Other Parasite), so with 2 Wood Rot and 1 Soil/Dung
    # left both remaining choices start with a second Wood Rot: that one is paid automatically
    assert res_of(s, 0) == [2, 0, 1, 0, 1] and g.decision(s)["owed"] == 1
    assert legal(g, s) == {encode_action("pay_res", r) for r in (WR, SD)}
    s = g.step(s, encode_action("pay_res", SD))
    assert res_of(s, 0) == [2, 0, 1, 1, 0]
    assert g.phase(s) == 0 and int(fields(s)["actions_left"]) == 1
    g.check_invariants(s)


def test_trade1_forced_payment_is_automatic():
    g = G2
    s = position(g, season=SUMMER, res=[[0, 0, 4, 0, 0], [0] * 5])
    s = g.step(s, encode_action("trade1", OP))
    assert res_of(s, 0) == [1, 0, 1, 0, 0] and g.phase(s) == 0


def test_trade1_needs_three_resources():
    g = G2
    s = position(g, season=SUMMER, res=[[1, 0, 1, 0, 0], [0] * 5])
    m = legal(g, s)
    assert not any(encode_action("trade1", r) in m for r in range(5)) and encode_action("trade2") not in m


def test_trade2_three_any_for_a_feast():
    g = G2
    s = position(g, season=SUMMER, res=[[0, 0, 0, 0, 3], [0] * 5])
    s = g.step(s, encode_action("trade2"))
    assert res_of(s, 0) == [0] * 5 and int(fields(s)["feast"][0]) == 1 and int(fields(s)["score"][0]) == 1


def test_trade3_feast_for_a_resource():
    g = G2
    s = position(g, season=SUMMER, feast=[1, 0])
    s = g.step(s, encode_action("trade3", PP))
    assert res_of(s, 0) == [0, 1, 0, 0, 0] and int(fields(s)["feast"][0]) == 0
    assert encode_action("trade3", PP) not in legal(g, s)


def test_trade4_feast_advances_the_season_and_wraps():
    g = G2
    s = position(g, season=FALL, feast=[2, 0])
    s = g.step(s, encode_action("trade4"))
    assert int(fields(s)["season"]) == WINTER and int(fields(s)["feast"][0]) == 1


def test_trade5_replaces_a_row_old_cards_under_the_deck_in_chosen_order():
    g = G2
    s = position(g, season=SUMMER, feast=[1, 0])
    old_bottom = [int(fields(s)["field"][4 + j]) for j in range(4)]
    top = int(fields(s)["deck_count"])
    new = g.deck_cards(s)[:4]
    s = g.step(s, encode_action("trade5", 1))
    assert int(fields(s)["feast"][0]) == 0
    assert [int(fields(s)["field"][4 + j]) for j in range(4)] == new, "4 new cards from the top, in deal order"
    assert g.phase(s) == DEC_BOTTOM
    assert legal(g, s) == {encode_action("bottom", j) for j in range(4)}
    for j in (2, 0, 3):
        s = g.step(s, encode_action("bottom", j))
    # the last one (column 1) is forced; each card goes under the ones before
    assert g.phase(s) == 0 and int(fields(s)["deck_count"]) == top
    assert g.deck_cards(s)[-4:][::-1] == [old_bottom[1], old_bottom[3], old_bottom[0], old_bottom[2]]
    g.check_invariants(s)


def test_trade6_exchange_top_cards_of_the_current_season():
    g = G3
    s = g.state_from(
        season="Summer",
        feast={0: 2},
        baskets={0: {"Summer": ["Common Puffball", "Field Mushroom"]}, 2: {"Summer": ["Parasol", "Porcini"]}},
    )
    m = legal(g, s)
    assert encode_action("trade6", 1) in m, "player 2 has a summer card"
    assert encode_action("trade6", 0) not in m, "player 1 has no summer card"
    s = g.step(s, encode_action("trade6", 1))
    s = g.step(s, encode_action("give", 1))  # the top cards (any may be chosen: next test)
    s = g.step(s, encode_action("take", 1))
    assert g.tokens(s, 0)["feast"] == 0, "2 Feast paid, no Feast collected"
    assert g.basket(s, 0, "Summer") == [card(g, "Common Puffball"), card(g, "Porcini")]
    assert g.basket(s, 2, "Summer") == [card(g, "Parasol"), card(g, "Field Mushroom")]
    g.check_invariants(s)


def test_trade6_any_mushroom_of_the_current_season_each_keeps_the_place():
    g = G3
    s = g.state_from(
        season="Summer",
        feast={0: 2},
        baskets={
            0: {"Summer": ["Common Puffball", "Field Mushroom"], "Fall": ["Honey Fungus"]},
            2: {"Summer": ["Parasol", "Porcini", "Chanterelle"]},
        },
    )
    s = g.step(s, encode_action("trade6", 1))  # 2 Feast: forced, paid at once
    assert g.phase(s) == DEC_GIVE and legal(g, s) == {encode_action("give", k) for k in range(2)}
    assert g.current_player(s) == 0 and g.decision(s)["target"] == 2
    s = g.step(s, encode_action("give", 0))  # the covered Common Puffball
    assert g.phase(s) == DEC_TAKE and legal(g, s) == {encode_action("take", k) for k in range(3)}
    o = g.observe(s, 0)
    OL = g.observation_layout()
    assert o[OL.fields["exchange_give"].offset] == 1 and o[OL.fields["phase"].offset + DEC_TAKE] == 1
    s = g.step(s, encode_action("take", 1))  # the covered Porcini
    assert g.basket(s, 0, SUMMER) == [card(g, "Porcini"), card(g, "Field Mushroom")]
    assert g.basket(s, 2, SUMMER) == [card(g, "Parasol"), card(g, "Common Puffball"), card(g, "Chanterelle")]
    assert g.basket(s, 0, FALL) == [card(g, "Honey Fungus")], "only the current season"
    assert g.phase(s) == 0 and int(fields(s)["actions_left"]) == 1 and g.tokens(s, 0)["feast"] == 0
    g.check_invariants(s)


def test_trade6_needs_two_feast_and_the_current_season():
    g = G2
    s = position(g, season=FALL, feast=[1, 0])
    give(g, s, 0, FALL, card(g, "Field Mushroom"))
    give(g, s, 1, FALL, card(g, "Porcini"))
    assert encode_action("trade6", 0) not in legal(g, s)
    fields(s)["feast"][0] = 2
    rescore(g, s)  # (a consistent position: the functional API checks the scores)
    assert encode_action("trade6", 0) in legal(g, s)
    fields(s)["season"][...] = SUMMER
    assert encode_action("trade6", 0) not in legal(g, s)


def test_stinkhorn_on_top_of_any_basket_blocks_taking():
    g = G2
    s = position(g, season=FALL, feast=[5, 5])
    give(g, s, 0, FALL, card(g, "Field Mushroom"))
    give(g, s, 1, FALL, card(g, "Porcini"))
    give(g, s, 1, SUMMER, card(g, "Dog Stinkhorn"))  # uncovered, another season
    assert encode_action("trade6", 0) not in legal(g, s)
    give(g, s, 1, SUMMER, card(g, "Parasol"))  # now covered
    assert encode_action("trade6", 0) in legal(g, s)
    # the blocked player may still take from the stinkhorn owner's opponent
    give(g, s, 0, SUMMER, card(g, "Red Cage"))
    fields(s)["turn_player"][...] = 1
    assert encode_action("trade6", 0) not in legal(g, s), "player 0 now has a stinkhorn on top"
    # a stinkhorn can be given away in an exchange
    fields(s)["turn_player"][...] = 0
    fields(s)["season"][...] = SUMMER
    assert encode_action("trade6", 0) in legal(g, s)
    s = g.step(s, encode_action("trade6", 0))
    assert g.phase(s) == DEC_TAKE, "one card to give (automatic), two to take from"
    s = g.step(s, encode_action("take", 1))
    assert g.basket(s, 1, SUMMER) == [card(g, "Dog Stinkhorn"), card(g, "Red Cage")]
    assert g.basket(s, 0, SUMMER) == [card(g, "Parasol")]


# --- Magic ---------------------------------------------------------------------------------
def test_magic_token_from_a_magic_mushroom():
    g = G2
    s = position(g, season=FALL, res=[[0, 1, 0, 0, 2], [0] * 5])
    set_field(s, 0, card(g, "Liberty Cap"))  # 1 PP + 2 SD, magic, fall
    s = g.step(s, H(0))
    assert (
        int(fields(s)["magic"][0]) == 1 and int(fields(s)["score"][0]) == int(g.deck.points[card(g, "Liberty Cap")]) + 1
    )


def test_magic_as_a_resource():
    g = G2
    s = position(g, season=FALL, res=[[0, 0, 0, 1, 1], [0] * 5], magic=[1, 0])
    set_field(s, 0, card(g, "Porcini"))  # 2 SY + 1 SD: one Symbiont short
    assert H(0) in legal(g, s)
    s = g.step(s, H(0))  # the only way: forced, automatic
    assert res_of(s, 0) == [0] * 5 and int(fields(s)["magic"][0]) == 0 and int(fields(s)["basket_count"][0, FALL]) == 1
    # with a spare Symbiont the player chooses whether to spend the Magic token
    s = position(g, season=FALL, res=[[0, 0, 0, 2, 1], [0] * 5], magic=[1, 0])
    set_field(s, 0, card(g, "Porcini"))
    s = g.step(s, H(0))
    # canonical order: real Symbiont before Magic, so the first Symbiont is paid for real
    # (forced); the choice is for the second one
    assert g.phase(s) == DEC_PAY and res_of(s, 0) == [0, 0, 0, 1, 1] and g.decision(s)["owed_resources"][SY] == 1
    assert legal(g, s) == {encode_action("pay_res", SY), encode_action("pay_magic")}
    s = g.step(s, encode_action("pay_magic"))  # Magic as the second Symbiont; Soil/Dung is forced
    assert g.phase(s) == 0 and int(fields(s)["basket_count"][0, FALL]) == 1
    assert res_of(s, 0) == [0, 0, 0, 1, 0] and int(fields(s)["magic"][0]) == 0
    g.check_invariants(s)
    # magic in an ANY payment
    s = position(g, season=FALL, res=[[0, 0, 2, 0, 0], [0] * 5], magic=[1, 0])
    s = g.step(s, encode_action("trade2"))
    assert res_of(s, 0) == [0] * 5 and int(fields(s)["magic"][0]) == 0 and int(fields(s)["feast"][0]) == 1


def test_magic_as_feast():
    g = G2
    s = position(g, season=SPRING, magic=[1, 0])
    assert encode_action("trade4") in legal(g, s)
    s = g.step(s, encode_action("trade4"))
    assert int(fields(s)["season"]) == SUMMER and int(fields(s)["magic"][0]) == 0
    # with Feast and Magic the player chooses
    s = position(g, season=SPRING, feast=[1, 0], magic=[1, 0])
    s = g.step(s, encode_action("trade3", OP))
    assert legal(g, s) == {encode_action("pay_feast"), encode_action("pay_magic")}
    s = g.step(s, encode_action("pay_magic"))
    assert int(fields(s)["feast"][0]) == 1 and int(fields(s)["magic"][0]) == 0 and res_of(s, 0)[OP] == 1
    # exchange with 1 Feast + 1 Magic
    s = position(g, season=FALL, feast=[1, 0], magic=[1, 0])
    give(g, s, 0, FALL, card(g, "Field Mushroom"))
    give(g, s, 1, FALL, card(g, "Porcini"))
    s = g.step(s, encode_action("trade6", 0))
    assert int(fields(s)["feast"][0]) == 0 and int(fields(s)["magic"][0]) == 0


# --- the end ------------------------------------------------------------------------------------
def _fill(g, s, p, names_by_season):
    for season, names in names_by_season.items():
        for nm in names:
            give(g, s, p, season, card(g, nm))


NINE = {
    WINTER: ["Velvet Shank"],
    SPRING: ["Morel", "Wood Ear"],
    SUMMER: ["Porcini", "Field Mushroom", "Parasol"],
    FALL: ["Honey Fungus", "Hen of the Woods", "Matsutake"],
}


def test_the_tenth_mushroom_ends_the_game_and_scores():
    g = G3
    s = g.state_from(
        season="Fall",
        field={0: "Yellow Stainer"},
        baskets={0: NINE, 1: {FALL: ["Death Cap"]}},
        resources={0: [0, 0, 0, 0, 1]},
        feast={0: 4, 1: 6},
        magic={0: 1},
        poison={0: 2},
    )
    pts = {nm: int(g.deck.points[card(g, nm)]) for names in NINE.values() for nm in names}
    s = g.step(s, H(0))  # Yellow Stainer: 1 SD, 0 Feast, poison SD
    assert legal(g, s) == {encode_action("pay_res", SD), encode_action("pay_magic")}
    s = g.step(s, encode_action("pay_res", SD))
    assert g.is_terminal(s) and int(fields(s)["ender"]) == 0
    score0 = sum(pts.values()) + int(g.deck.points[card(g, "Yellow Stainer")]) + 4 + 1 - 2 * 2
    assert g.scores(s) == [score0, int(g.deck.points[card(g, "Death Cap")]) + 6, 0]
    r = g.returns(s)
    assert r.tolist() == [1.0, -0.5, -0.5]
    g.check_invariants(s)


def test_ties_share_the_win():
    g = MycologyGame(observation="full", num_players=3, turn_limit_end="score")  # a scored turn limit: any final scores
    s = position(g, season=FALL, feast=[5, 5, 1])
    fields(s)["ender"][...] = TURN_LIMIT
    fields(s)["turn"][...] = g.max_turns
    assert g.returns(s).tolist() == [0.25, 0.25, -0.5]
    g2 = MycologyGame(observation="full", turn_limit_end="score")
    s = position(g2, feast=[3, 3])
    fields(s)["ender"][...] = TURN_LIMIT
    fields(s)["turn"][...] = g2.max_turns  # (the turn limit ends the game at the limit)
    assert g2.returns(s).tolist() == [0.0, 0.0]


def test_score_rewards():
    for reward, expect in (("score", [7.0, 3.0, 2.0]), ("score_diff", [4.5, -1.5, -3.0])):
        g = MycologyGame(observation="full", num_players=3, reward=reward, turn_limit_end="score")
        s = position(g, feast=[7, 3, 2])
        fields(s)["ender"][...] = TURN_LIMIT
        fields(s)["turn"][...] = g.max_turns
        assert g.returns(s).tolist() == expect


def test_turn_limit_ends_the_game():
    g = MycologyGame(observation="full", num_players=4, turn_limit=120)
    assert g.max_turns == 120
    g5 = MycologyGame(observation="full", num_players=5, turn_limit=120)
    assert g5.max_turns == 120
    g7 = MycologyGame(observation="full", num_players=3, turn_limit=240)
    assert g7.max_turns == 240
    s = position(g, feast=[1, 0, 0, 0])
    fields(s)["turn"][...] = 119
    s = g.step(s, END)
    assert g.is_terminal(s) and int(fields(s)["ender"]) == -1
    # by default the limit is a truncation (not a rulebook ending): no result
    assert g.is_truncated(s) and g.returns(s).tolist() == [0.0] * 4
    scored = MycologyGame(observation="full", num_players=4, turn_limit=120, turn_limit_end="score")
    s = position(scored, feast=[1, 0, 0, 0])
    fields(s)["turn"][...] = 119
    s = scored.step(s, END)
    assert scored.is_terminal(s) and not scored.is_truncated(s)
    assert scored.returns(s).tolist() == [1.0, -1 / 3, -1 / 3, -1 / 3]


def test_turn_limit_truncates_the_aec_env_and_the_vector_env():
    from mushgym.envs import mycology_v1
    from mushgym.vector import MushroomVectorEnv

    e = mycology_v1.raw_env(turn_limit=120)
    e.reset(seed=1)
    fields(e.game_state)["turn"][...] = 119
    while True:
        agent = e.agent_selection
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(
            encode_action("end")
            if obs["action_mask"][encode_action("end")]
            else int(np.flatnonzero(obs["action_mask"])[0])
        )
    assert all(e.truncations.values()) and not any(e.terminations.values()), "the turn limit is a truncation"
    assert all(r == 0 for r in e.rewards.values()) and agent
    g = MycologyGame(observation="full", turn_limit=120)
    vec = MushroomVectorEnv(g, 8, seed=0)
    vec.reset()
    seen = {"terminated": 0, "truncated": 0}
    for _ in range(20 * g.spec.max_game_length):
        _, rewards, term, trunc, _, _, _ = vec.step(vec.sample_random_actions())
        for i in np.flatnonzero(term | trunc):
            assert term[i] != trunc[i] and bool(trunc[i]) == g.is_truncated(vec.states[i])
            assert not trunc[i] or not rewards[i].any(), "a truncation has no result"
            seen["truncated" if trunc[i] else "terminated"] += 1
        if min(seen.values()) >= 2:
            break
    assert min(seen.values()) >= 2, seen


# --- positions from a description -----------------------------------------------------------
def test_state_from_fills_the_deck_and_reads_back():
    g = G3
    s = g.state_from(
        season="Spring",
        turn_player=2,
        field=["Morel"] + list(range(7)),
        baskets={1: {"Spring": ["Wood Ear"]}},
        resources={2: [1, 2, 3, 4, 5]},
        magic={2: 1},
        deck_top=["Chaga", "Turkey Tail"],
        seed=4,
    )
    assert g.field(s)[0] == card(g, "Morel") and g.field(s)[1:] == list(range(7))
    deck = g.deck_cards(s)
    assert deck[:2] == [card(g, "Chaga"), card(g, "Turkey Tail")] and len(deck) == 84 - 8 - 1
    assert sorted(deck + g.field(s) + g.basket(s, 1, "Spring")) == list(range(84)), "every card once"
    assert g.current_player(s) == 2 and g.season(s) == SPRING and g.phase(s) == 0
    assert g.scores(s) == [0, int(g.deck.points[card(g, "Wood Ear")]), 1]
    assert g.resources(s, 2) == [1, 2, 3, 4, 5] and g.tokens(s, 2) == {"feast": 0, "magic": 1, "poison": 0}
    # the same description and seed give the same state; another seed another hidden deck order
    again = g.state_from(
        season="Spring",
        turn_player=2,
        field=["Morel"] + list(range(7)),
        baskets={1: {"Spring": ["Wood Ear"]}},
        resources={2: [1, 2, 3, 4, 5]},
        magic={2: 1},
        deck_top=["Chaga", "Turkey Tail"],
        seed=4,
    )
    assert (again == s).all()


def test_state_from_next_roll():
    g = G2
    for total in (2, 7, 12):
        s = g.step(g.state_from(next_roll=total), END)
        assert int(fields(s)["roll"]) == total


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(field={0: "Porcinni"}), r"unknown card 'Porcinni'; did you mean \['Porcini'\]"),
        (dict(field={0: "Porcini"}, deck_top=["Porcini"]), "placed twice"),
        (dict(baskets={0: {"Winter": ["Porcini"]}}), "not a valid position: a basket holds a card of another season"),
        (dict(baskets={0: {"Spring": ["Morel", "Wood Ear", "Chaga"]}}), "holds at most 2"),
        (dict(baskets={5: {"Fall": ["Porcini"]}}), r"players are 0..1"),
        (dict(season="Monsoon"), "unknown season"),
        (dict(turn_player=2), "not a player"),
        (dict(field={9: "Porcini"}), "slots are 0..7"),
        (dict(field=[None] * 8), "not a valid position: a field slot is empty while the deck still has cards"),
        (dict(resources={0: [1, 2]}), "5 counts"),
    ],
)
def test_state_from_refuses_bad_descriptions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        G2.state_from(**kwargs)


def test_actions_encode_decode():
    g = G2
    assert g.encode_action("trade6", 0) == 22 and g.decode_action(22) == ("trade6", (0,))
    assert g.decode_action(g.encode_action("harvest", 5)) == ("harvest", (5,))
    assert g.encode_action("end") == 27 and g.num_actions == 47
    assert g.decode_action(g.encode_action("take", 3)) == ("take", (3,))
    with pytest.raises(ValueError, match="unknown action 'trade7'"):
        g.encode_action("trade7")


# --- refusals -------------------------------------------------------------------------------
def test_illegal_actions_raise():
    g = G2
    s = position(g, season=SUMMER)
    for a in (encode_action("trade2"), encode_action("trade4"), encode_action("pay_feast"), 39, -1, 2.5, "x"):
        with pytest.raises(ValueError):
            g.step(s, a)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match=r"\[2, 3, 4, 5, 6\]"):
        MycologyGame(observation="full", num_players=7)
    with pytest.raises(ValueError, match=r"\[2, 3, 4, 5, 6\]"):
        MycologyGame(observation="full", num_players=1)
    with pytest.raises(ValueError, match="valid options are"):
        MycologyGame(observation="full", players=3)
    with pytest.raises(ValueError, match="win_loss"):
        MycologyGame(observation="full", reward="rank")


def test_turn_limit_truncates_the_single_agent_env():
    from mushgym.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv("mycology_v1", options={"turn_limit": 120}, seat=0)
    rng = np.random.default_rng(0)
    outcomes = {"terminated": 0, "truncated": 0}
    for episode in range(60):
        obs, info = env.reset(seed=episode)
        while True:
            mask = info["action_mask"] if "action_mask" in info else env.action_masks()
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                assert not (terminated and truncated)
                assert truncated == env.game.is_truncated(env.state)
                assert not truncated or reward == 0.0
                outcomes["truncated" if truncated else "terminated"] += 1
                break
        if min(outcomes.values()) >= 1:
            break
    assert min(outcomes.values()) >= 1, outcomes


def test_poison_bound_counts_three_collections_a_turn_and_holds_the_score_low():
    """Up to 3 collections a turn (the roll, then trades 1 or 3 twice), each giving one token per
    poison mushroom of that resource in the baskets (at most 10 cards): the declared Poison and
    score bounds must hold that many, for every reward (the observation and reward range)."""
    for n in (2, 6):
        for reward in ("score", "score_diff", "win_loss"):
            g = MycologyGame(observation="full", num_players=n, reward=reward, turn_limit_end="score")
            d = g.deck
            most = max(int(np.sum((d.special == 1) & (d.poison_res == r))) for r in range(5))
            assert g.poison_bound() == min(10, most) * 3 * g.max_turns
            assert g.poison_bound() > 10 * g.max_turns  # the designed deck: 6 of one resource, 18 a turn
            s = position(g, poison=[g.poison_bound()] + [0] * (n - 1))
            fields(s)["ender"][...] = TURN_LIMIT
            fields(s)["turn"][...] = g.max_turns
            o = g.observe(s, 0)
            assert np.all(o >= g.obs_low) and np.all(o <= g.obs_high)
            lo, hi = g.spec.reward_range
            assert np.all(g.returns(s) >= lo) and np.all(g.returns(s) <= hi)
