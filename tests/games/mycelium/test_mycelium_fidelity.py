"""Mycelium's rulebook read a second time (``mycelium_v2``): each rare case as a scenario whose
expectation comes from the rulebook's words (RULES.md, "Changes in mycelium_v2")."""

import numpy as np
import pytest
from mycelium_helpers import K, Scenario
from test_mycelium_abilities import _combat
from test_mycelium_emsporium import ITEM, own, shop
from test_mycelium_tavern import heroes

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium import tavern as TV
from mushgym.envs.mycelium.game import MyceliumGame

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3


def _offered(sc, ability):
    """The combat's next use prompt is for ``ability`` (passing the reinforcement rounds)."""
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    return sc.top_kind() == rules.D_USE and int(sc.v["decisions"][int(sc.v["decisions_n"]) - 1][2]) == ability


# --- 1. "if revealed in combat": the initial face-down cards only --------------------------------


def test_a_thief_drawn_by_an_amethyst_deceiver_does_not_steal():
    """Combat step 4: "Reaction abilities that say 'if revealed in combat' can not be used unless
    they belong to the initial face-down cards"; Parasol: "only triggered when this card is the
    one that is played face-down in combat". A Shiitake drawn by Blue's Deceiver steals nothing,
    and Red's Common Puffball has no Thief ability to cancel."""
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver")
    sc.give(RED, "Common Puffball", "Death Cap")
    sc.top("Shiitake")
    _combat(sc, "Amethyst Deceiver", "Common Puffball")
    sc.act("use", player=BLUE)  # the Deceiver draws the Shiitake in its place
    sc.pass_all_but(BLUE)
    while sc.v["c_active"]:
        assert sc.top_kind() != rules.D_USE, "a use prompt for a drawn Thief or a Puffball against it"
        sc.act("pass")
    assert sc.v["c_repl"][0] == -1 and sc.v["hand"][BLUE].tolist() == [
        int(k == K["Shiitake"]) for k in range(rules.NUM_MUSHLING_KINDS)
    ]
    assert sc.v["hand"][RED, K["Death Cap"]] == 1 and sc.v["hand"][RED].sum() == 2  # won (+1), nothing stolen


def test_a_thief_played_face_down_still_steals():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Parasol")
    sc.give(RED, "Night Light", "Death Cap")
    _combat(sc, "Parasol", "Night Light")
    assert _offered(sc, rules.AB_THIEF_STEAL) and sc.who() == BLUE


def test_a_chicken_drawn_by_a_deceiver_follows_its_reaction():
    """Amethyst Deceiver's note: the drawn card "replaces the Amethyst Deceiver as the revealed card
    in combat. Follow any applicable Reaction abilities that the new card may have": Chicken of
    the Woods' "If you reveal this card to attack in combat and win" applies (an undefended
    attack is won)."""
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver")
    sc.give(RED, "Death Cap")
    sc.top("Chicken of the Woods", "Russula")
    _combat(sc, "Amethyst Deceiver", None)
    sc.act("use", player=BLUE)
    sc.pass_all_but(BLUE)
    assert _offered(sc, rules.AB_CHICKEN_ATT)
    sc.act("use", player=BLUE)
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][BLUE, K["Chicken of the Woods"]] == 1 and sc.v["hand"][BLUE, K["Russula"]] == 1


# --- 2. Buy: "Purchase 1 or more Emsporium Items" --------------------------------------------------


def test_a_buy_must_purchase_an_item():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    shop(sc, "Pickaxe", "Pouch", "Bow", "Shield", "Flyers")
    sc.give(BLUE, "Wood Blewit")
    sc.act("buy", player=BLUE)
    assert not sc.legal("pay_done")  # nothing bought: no way out but buying
    sc.act("pay_card", K["Wood Blewit"])
    assert not sc.legal("pay_done") and sc.legal("buy_item", 0)
    sc.act("buy_item", 0)
    assert sc.legal("pay_done")
    sc.act("pay_done")
    assert sc.v["items"][BLUE, ITEM["Pickaxe"]] == 1


def test_the_validator_refuses_a_buy_that_cannot_buy():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    shop(sc, "Backpack", "Sword", "Basket", "Backpack", "Sword")  # the cheapest costs 4
    sc.v["mat_spores"][BLUE] = 0
    sc.give(BLUE, "Night Light")  # 2 spore value in all
    rules.STATE.arrays(sc.s)["decisions"][0, :4] = [rules.D_BUY, BLUE, 0, 0]
    rules.STATE.arrays(sc.s)["decisions_n"][...] = 1
    with pytest.raises(ValueError, match="never asks"):
        sc.game.validate(sc.s)


# --- 3. "Pickaxe applies to every spawn by its owner": a hero's spawn too ---------------------------


def test_a_heros_spawn_counts_the_pickaxe():
    sc = Scenario(4, tp=BLUE, emsporium=True, hero_tavern=True)
    own(sc, BLUE, "Pickaxe", "Pickaxe")
    h = sc.game.heroes.names.index("Golden Chanterelle")
    heroes(sc, up=(0, 1), held={BLUE: [h]})
    k = 1  # ability b: spawn 3 spores in your own cave
    assert TV.HE_SPAWN == int(sc.game.config[rules.cfg_hero_effect_at(h, k)])
    cave = int(sc.board.cave_of_seat[BLUE])
    before = int(sc.v["loc_spores"][cave])
    sc.act("hero", h, k, player=BLUE)
    assert sc.v["loc_spores"][cave] == before + 3 + 2


# --- 4. Build: "Spend 3 Spore Value to build each Path" ---------------------------------------------


def test_a_build_pays_for_at_least_one_path():
    sc = Scenario(4, tp=BLUE)
    sc.v["mat_spores"][BLUE] = 0
    sc.give(BLUE, "Wood Blewit", "Yellow Morel")
    sc.act("build", player=BLUE)
    assert not sc.legal("pay_done")
    sc.act("pay_card", K["Wood Blewit"])
    assert not sc.legal("pay_done")  # 2 of 3: no throwing a card away
    sc.act("pay_card", K["Yellow Morel"])
    assert sc.legal("pay_done")
    sc.act("pay_done")
    assert sc.top_kind() == rules.D_PLACE_PATH


def test_the_validator_refuses_a_payment_that_cannot_reach_a_path():
    sc = Scenario(4, tp=BLUE)
    sc.v["mat_spores"][BLUE] = 0
    sc.give(BLUE, "Yellow Morel")
    rules.STATE.arrays(sc.s)["decisions"][0, :3] = [rules.D_PAY, BLUE, 1]
    rules.STATE.arrays(sc.s)["decisions_n"][...] = 1
    with pytest.raises(ValueError, match="never asks"):
        sc.game.validate(sc.s)


# --- 6. Russula: "Place/replace all your Gatherer Mushlings now" (the Tavern included) -------------


def test_a_russula_may_send_a_gatherer_to_the_hero_tavern():
    sc = Scenario(4, tp=BLUE, hero_tavern=True)
    sc.v["ctok"][BLUE] = 1
    sc.give(BLUE, "Russula")
    mush = sc.gloc("Mush Room")
    sc.act("russula", player=BLUE)
    assert sc.legal("place_tavern")
    sc.act("place_tavern", player=BLUE)
    obs = sc.game.observe(sc.s, GREEN)
    assert obs[rules.O_AB_LOC + rules.TAVERN] == 1  # the placements are public, the Tavern among them
    sc.act("place_gatherer", mush, player=BLUE)
    sc.act("place_gatherer", mush, player=BLUE)
    sc.pass_all_but(BLUE)
    assert sorted(sc.v["gatherer"][BLUE].tolist()) == sorted([rules.TAVERN, mush, mush])
    sc.act("end_actions", player=BLUE)  # the Gather Phase: a hero recruited
    assert sc.top_kind() == rules.D_HERO_PICK


def test_without_the_tavern_a_russula_keeps_the_base_locations():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Russula")
    sc.act("russula", player=BLUE)
    legal = sc.game.legal_mask(sc.s)
    assert legal.size == rules.NUM_ACTIONS_BASE and legal.sum() == len(sc.board.gloc_names)  # no Tavern to go to


# --- 7. Witch's Hat: "can be used even when there is 1 card in the respective discard pile" -----------


def test_a_witchs_hat_needs_a_discarded_card():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Witch's Hat", "Truffle")
    sc.v["discard"][...] = 0
    sc.rebuild_deck()
    nut = sc.v["ndiscard"].copy()
    sc.v["ndiscard"][...] = 0
    sc.v["ndeck"][int(sc.v["ndeck_n"]) : int(sc.v["ndeck_n"]) + int(nut.sum())] = np.repeat(np.arange(len(nut)), nut)
    sc.v["ndeck_n"][...] += int(nut.sum())
    sc.game.validate(sc.s)
    assert not sc.legal("witch", 0) and not sc.legal("witch", 1)
    assert sc.legal("truffle", 0) and sc.legal("truffle", 1)  # the Truffle note: "0 cards"
    sc.discard("Death Cap")
    assert sc.legal("witch", 0) and not sc.legal("witch", 1)


# --- 9. "as many times as you want/can": only the actions that can loop are bounded ----------------


def test_more_than_thirty_actions_while_the_player_has_resources():
    sc = Scenario(4, tp=BLUE)
    sc.v["mat_spores"][BLUE] = 40
    sc.v["loc_spores"][:] = 0
    sc.v["ndeck"][: int(sc.v["ndeck_n"])] = sc.v["ndeck"][: int(sc.v["ndeck_n"])]
    sc.game.validate(sc.s)
    for i in range(35):  # 35 Builds of one Path each, then the last Paths where they fit
        if not sc.legal("build"):
            break
        sc.act("build", player=BLUE)
        for _ in range(1):
            sc.act("pay_token")
        sc.act("pay_done")
        e = next(x for x in range(len(sc.board.edges)) if sc.legal("place_path", x))
        sc.act("place_path", e)
        sc.pass_all_but(BLUE)
        if sc.top_kind() == rules.D_REMOVE_OWN:
            sc.act("remove_own", next(x for x in range(len(sc.board.edges)) if sc.legal("remove_own", x)))
            sc.pass_all_but(BLUE)
    assert i == 34 and sc.legal("build") and sc.v["actions_used"] == 0


def test_deceiver_exchanges_and_attacks_are_bounded_per_action_phase():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver")
    sc.discard("Amethyst Deceiver")
    for _ in range(rules.MAX_ACTIONS_PER_TURN):  # two Deceivers swap for ever: the one loop with no cost
        sc.act("deceive", K["Amethyst Deceiver"], player=BLUE)
        sc.pass_all_but(BLUE)
    assert sc.v["actions_used"] == rules.MAX_ACTIONS_PER_TURN and sc.v["hand"][BLUE, K["Amethyst Deceiver"]] == 1
    assert not sc.legal("deceive", K["Amethyst Deceiver"]) and sc.legal("end_actions")


# --- 21. a combat's edge holds a Path the attacker may attack ------------------------------------------


def test_the_validator_refuses_a_combat_on_an_edge_without_the_defenders_path():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Death Cap")
    sc.give(RED, "Night Light")
    e = sc.spokes(BLUE)[0]
    sc.path(RED, e)
    slot = int(np.flatnonzero(sc.v["paths"][e] == RED + 1)[0])
    sc.act("attack", e, slot, player=BLUE)
    sc.game.validate(sc.s)
    for edge, why in ((sc.ring(RED)[0], "permanent"), (sc.spokes(GREEN)[0], "empty")):
        bad = sc.s.copy()
        rules.STATE.arrays(bad)["c_edge"][...] = edge
        with pytest.raises(ValueError, match=r"does not hold a Path the attacker may attack.*code 31000"):
            sc.game.validate(bad)
    desc = sc.game.describe(sc.s, hidden=True)
    desc["combat"] = {**desc["combat"], "edge": sc.ring(RED)[0]}
    with pytest.raises(ValueError, match="attacker may attack"):
        sc.game.state_from(**desc)


# --- 23. messages name the game's own id ---------------------------------------------------------------


def test_state_from_messages_name_mycelium_v2():
    with pytest.raises(ValueError, match=r"mycelium_v2.*turn_player"):
        MyceliumGame().state_from(turn_player=9)
