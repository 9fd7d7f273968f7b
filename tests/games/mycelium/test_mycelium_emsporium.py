"""Mycelium's Emsporium variant (``emsporium=True``): the shop, Buy, the items; the rulebook's three examples."""

from collections import deque

import numpy as np
import pytest
from mycelium_helpers import K, Scenario

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import MyceliumDataError
from mushgym.envs.mycelium.game import MyceliumGame
from mushgym.envs.mycelium.variant_data import ITEM_NAMES, load_items

BLUE, GREEN, RED, BEIGE = range(4)
ITEM = {name: i for i, name in enumerate(ITEM_NAMES)}


def shop(sc, *names):
    """Put these items face up (the other slots empty), the rest of the 16 into the item deck."""
    v = sc.v
    v["shop"][...] = -1
    for s, name in enumerate(names):
        v["shop"][s] = ITEM[name]
    rest = 2 - v["items"].sum(axis=0)
    for i in v["shop"]:
        if i >= 0:
            rest[i] -= 1
    deck = np.repeat(np.arange(rules.NUM_ITEM_TYPES), rest)
    v["item_deck"][...] = 0
    v["item_deck"][: len(deck)] = deck
    v["item_deck_n"][...] = len(deck)


def own(sc, p, *names):
    for name in names:
        sc.v["items"][p, ITEM[name]] += 1
    keep, left = [], 2 - sc.v["items"].sum(axis=0)
    for i in sc.v["shop"]:
        if i >= 0 and left[i] > 0:
            keep.append(ITEM_NAMES[i])
            left[i] -= 1
    shop(sc, *keep)


def chain_to(sc, p, gloc_name, extra=0):
    """Paths of ``p`` from its Colony to one edge of the location, plus ``extra`` more edges of
    the location next to it (all bonded); returns the location."""
    board = sc.board
    g = sc.gloc(gloc_name)
    ring_edges = [int(x) for x in board.gloc_edges[g] if x >= 0]
    start = sc.ring(p)
    prev = {e: None for e in start}
    q = deque(start)
    goal = None
    while q:
        e = q.popleft()
        if e in ring_edges:
            goal = e
            break
        for n in sc.nbrs(e):
            if n not in prev and board.permanent[n] < 0:
                prev[n] = e
                q.append(n)
    e = goal
    while e is not None and board.permanent[e] < 0:
        sc.path(p, e)
        e = prev[e]
    added = [goal]
    while extra > 0:
        nxt = next(x for x in ring_edges if x not in added and any(x in sc.nbrs(a) for a in added))
        sc.path(p, nxt)
        added.append(nxt)
        extra -= 1
    return g


def bonded_at(sc, p, g):
    work = np.zeros(rules.WORK_SIZE, np.int64)
    rules.bonded_edges(sc.s, sc.game.config, p, work)
    return rules.bonded_count(sc.game.config, g, work)


def test_sizes_without_the_variant_are_the_base_games_and_with_it_grow_by_appended_parts():
    base = MyceliumGame()
    ems = MyceliumGame(emsporium=True)
    assert (base.num_actions, base.observation_shape) == (rules.NUM_ACTIONS_BASE, (rules.OBS_SIZE_BASE,))
    assert (ems.num_actions, ems.observation_shape) == (rules.NUM_ACTIONS_ITEMS, (rules.OBS_SIZE_ITEMS,))
    assert rules.A_BUY == rules.NUM_ACTIONS_BASE and rules.O_VDKIND == rules.OBS_SIZE_BASE
    s = base.new_state(0)
    assert (rules.STATE.arrays(s)["shop"] == -1).all() and rules.STATE.arrays(s)["item_deck_n"] == 0
    # same seed: the same deal of mushling cards with or without the shop
    se = ems.new_state(0)
    assert (rules.STATE.arrays(s)["hand"] == rules.STATE.arrays(se)["hand"]).all()
    v = rules.STATE.arrays(se)
    assert (v["shop"] >= 0).all() and v["item_deck_n"] == 11
    with pytest.raises(ValueError, match=r"emsporium.*\[False, True\]"):
        MyceliumGame(emsporium="yes")


def test_example_1_blue_oyster_and_a_token_buy_two_pickaxes_then_yellow_morel_spawns_three():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    shop(sc, "Pickaxe", "Pickaxe", "Sword", "Bow", "Backpack")
    sc.give(BLUE, "Blue Oyster", "Yellow Morel")
    sc.v["mat_spores"][BLUE] = 1
    cave = int(sc.board.cave_of_seat[BLUE])
    spores0 = int(sc.v["loc_spores"][cave])
    assert sc.legal("buy")
    sc.act("buy", player=BLUE)
    assert not sc.legal("buy_item", 0)  # nothing paid yet
    sc.act("pay_card", K["Blue Oyster"], player=BLUE)
    sc.act("pay_token", player=BLUE)
    sc.act("buy_item", 0, player=BLUE)
    sc.act("buy_item", 1, player=BLUE)
    assert not sc.legal("buy_item", 2)  # 4 paid, 4 spent
    sc.act("pay_done", player=BLUE)
    assert sc.v["items"][BLUE, ITEM["Pickaxe"]] == 2 and sc.v["mat_spores"][BLUE] == 0
    assert sc.v["shop"][0] == -1 and sc.v["shop"][1] == -1  # not replaced until the end of the turn
    sc.act("spawn", 1, BLUE, player=BLUE)  # Yellow Morel
    sc.pass_all_but(BLUE)
    assert sc.v["loc_spores"][cave] == spores0 + 3
    # the shop refills at the end of the turn
    deck0 = int(sc.v["item_deck_n"])
    sc.end_turn_on_mush_room(GREEN)
    assert (sc.v["shop"] >= 0).all() and sc.v["item_deck_n"] == deck0 - 2


def test_example_2_two_backpacks_and_three_bonded_paths_bring_three_nutrients_with_one_gatherer():
    for backpacks, expected in ((0, 1), (1, 2), (2, 3)):
        sc = Scenario(4, tp=BLUE, emsporium=True)
        pine = chain_to(sc, BLUE, "Pine", extra=2)
        assert bonded_at(sc, BLUE, pine) == 3
        own(sc, BLUE, *["Backpack"] * backpacks)
        sc.v["loc_nut"][pine] = 5
        sc.v["gatherer"][BLUE] = [pine, -1, -1]
        sc.act("end_actions", player=BLUE)
        assert sc.v["mat_nut"][BLUE] == expected, backpacks
    # the bonded Paths still cap it: 2 backpacks, 1 bonded Path -> 1 token
    sc = Scenario(4, tp=BLUE, emsporium=True)
    pine = chain_to(sc, BLUE, "Pine")
    own(sc, BLUE, "Backpack", "Backpack")
    sc.v["loc_nut"][pine] = 5
    sc.v["gatherer"][BLUE] = [pine, -1, -1]
    sc.act("end_actions", player=BLUE)
    assert sc.v["mat_nut"][BLUE] == 1


def _two_away(sc, p):
    """An edge two corner-steps from p's Paths (not connected to them), with a free slot."""
    mine = {e for e in range(len(sc.board.edges)) if (sc.v["paths"][e] == p + 1).any()}
    near = {n for e in mine for n in sc.nbrs(e)} | mine
    far = {n for e in near for n in sc.nbrs(e)} - near
    return sorted(e for e in far if sc.board.permanent[e] < 0)[0]


def test_example_3_a_bow_attacks_a_path_one_edge_further():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    target = _two_away(sc, BLUE)
    sc.path(GREEN, target)
    sc.give(BLUE, "Death Cap")
    assert not sc.legal("attack", target, 0)
    own(sc, BLUE, "Bow")
    assert sc.legal("attack", target, 0)
    sc.act("attack", target, 0, player=BLUE)
    sc.act("card", K["Death Cap"], player=BLUE)
    sc.pass_all_but(BLUE)
    assert not (sc.v["paths"][target] == GREEN + 1).any()  # undefended: removed


def test_sword_and_shield_add_to_the_combat_value():
    def fight(att_items, def_items):
        sc = Scenario(4, tp=BLUE, emsporium=True)
        e = sc.spokes(BLUE)[0]
        sc.path(RED, e)
        own(sc, BLUE, *att_items)
        own(sc, RED, *def_items)
        sc.give(BLUE, "Common Puffball")  # 5
        sc.give(RED, "Liberty Cap")  # 5
        slot = int(np.flatnonzero(sc.v["paths"][e] == RED + 1)[0])
        sc.act("attack", e, slot, player=BLUE)
        sc.act("card", K["Common Puffball"], player=BLUE)
        sc.act("card", K["Liberty Cap"], player=RED)
        sc.pass_all_but()
        assert sc.v["c_active"] == 0 and sc.who() == BLUE
        return 1 if (sc.v["paths"][e] == RED + 1).any() else 0  # 0: the attacker won

    assert fight((), ()) == 1  # a tie: the defender wins
    assert fight(("Sword",), ()) == 0
    assert fight(("Sword",), ("Shield",)) == 1
    assert fight(("Sword", "Sword"), ("Shield",)) == 0
    assert fight(("Shield",), ()) == 1  # the Shield only defends


def test_pouch_basket_and_flyers():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    own(sc, BLUE, "Flyers", "Basket", "Pouch")
    sc.give(BLUE, *["Death Cap"] + ["Blue Oyster"] * 4)
    sc.act("end_actions", player=BLUE)
    for _ in range(3):
        sc.act("place_gatherer", sc.gloc("Mush Room"), player=BLUE)
    # Draw Phase: 1 + 1 (Basket) -> 7 cards; the Pouch's limit is 8: no discard
    assert sc.v["hand"][BLUE].sum() == 7 and sc.v["turn_player"] == GREEN
    sc2 = Scenario(4, tp=BLUE, emsporium=True)
    own(sc2, BLUE, "Flyers")
    sc2.v["gatherer"][BLUE] = [sc2.gloc("Mush Room"), sc2.gloc("Mush Room"), -1]
    sc2.act("end_actions", player=BLUE)
    assert sc2.v["hand"][BLUE].sum() == 4  # 2 gatherers x (1 + 1 Flyers)


def test_excess_value_is_lost_and_buy_needs_an_affordable_item():
    sc = Scenario(4, tp=BLUE, emsporium=True)
    shop(sc, "Backpack", "Sword")
    sc.v["mat_spores"][BLUE] = 1
    assert not sc.legal("buy")  # 3 spore value, the cheapest costs 4
    sc.give(BLUE, "Yellow Morel")
    assert sc.legal("buy")
    sc.act("buy")
    sc.act("pay_token")
    sc.act("pay_card", K["Yellow Morel"])
    sc.act("buy_item", 1)  # Sword, 4
    sc.act("pay_done")
    assert sc.v["items"][BLUE, ITEM["Sword"]] == 1 and sc.v["mat_spores"][BLUE] == 0
    assert sc.v["hand"][BLUE].sum() == 0


def test_items_are_public_the_item_deck_order_is_hidden():
    g = MyceliumGame(emsporium=True)
    s = g.new_state(3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        legal = g.legal_actions(s)
        g.step_inplace(s, int(legal[rng.integers(legal.size)]))
    v = rules.STATE.arrays(s)
    for p in range(4):
        t = s.copy()
        tv = rules.STATE.arrays(t)
        n = int(tv["item_deck_n"])
        tv["item_deck"][:n] = tv["item_deck"][:n][::-1]
        assert (g.observe(s, p) == g.observe(t, p)).all()
    # an item bought is in everyone's observation
    t = s.copy()
    rules.STATE.arrays(t)["items"][2, 0] += 1
    i = int(np.flatnonzero(v["shop"] == 0)[0]) if (v["shop"] == 0).any() else None
    if i is not None:
        rules.STATE.arrays(t)["shop"][i] = -1
        for p in range(4):
            assert (g.observe(s, p) != g.observe(t, p)).any()


def test_corrupted_item_counts_are_refused_by_name():
    g = MyceliumGame(emsporium=True)
    s = g.new_state(0)
    rules.STATE.arrays(s)["items"][0, 3] += 1
    with pytest.raises(ValueError, match="Emsporium item cards of type 3 \\(Bow\\)"):
        g.validate(s)
    g0 = MyceliumGame()
    s0 = g0.new_state(0)
    rules.STATE.arrays(s0)["items"][1, 0] = 1
    with pytest.raises(ValueError, match="Sword"):
        g0.validate(s0)


def test_malformed_items_file_names_file_entry_and_field(tmp_path):
    good = load_items()
    assert good.cost[ITEM["Pickaxe"]] == 2  # published
    src = (rules.__file__.rsplit("/", 1)[0]) + "/items.toml"
    text = open(src).read()
    bad = tmp_path / "items.toml"
    bad.write_text(text.replace('cost = 2\ncost_source = "published"', 'cost = "two"\ncost_source = "published"'))
    with pytest.raises(MyceliumDataError, match=r"items.toml: item 2 \(Pickaxe\): field 'cost' must be an integer"):
        load_items(bad)
    bad.write_text(text.replace('name = "Bow"', 'name = "Crossbow"'))
    with pytest.raises(MyceliumDataError, match=r"Crossbow.*not one of"):
        load_items(bad)
    bad.write_text(text.replace('name = "Bow"', 'name = "Sword"'))
    with pytest.raises(MyceliumDataError, match="listed twice"):
        load_items(bad)
    bad.write_text(text.replace("cost = 3\n", "cost = 0\n", 1))
    with pytest.raises(MyceliumDataError, match=r"field 'cost' = 0 is outside 1..30"):
        load_items(bad)

    class Custom(MyceliumGame):
        items_path = str(bad)

    with pytest.raises(MyceliumDataError):
        Custom(emsporium=True)


def test_random_play_with_the_emsporium_keeps_the_invariants_and_buys():
    g = MyceliumGame(emsporium=True, turn_limit=60)
    rng = np.random.default_rng(1)
    bought = 0
    for seed in range(2):
        s = g.new_state(seed)
        steps = 0
        while not g.is_terminal(s) and steps < 3000:
            legal = g.legal_actions(s)
            if rules.A_BUY in legal and rng.random() < 0.5:
                a = rules.A_BUY
            else:
                a = int(legal[rng.integers(legal.size)])
            g.step_inplace(s, a)
            g.check_invariants(s)
            steps += 1
        bought += int(rules.STATE.arrays(s)["items"].sum())
    assert bought > 0


def test_determinize_redraws_the_item_deck_and_keeps_every_view():
    from mushgym.core import rng_seed
    from mushgym.envs.mycelium.determinize import determinize

    g = MyceliumGame(emsporium=True)
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, 5)
    orders = set()
    s = g.new_state(4)
    for _ in range(30):
        legal = g.legal_actions(s)
        g.step_inplace(s, int(legal[0]))
    n = int(rules.STATE.arrays(s)["item_deck_n"])
    for p in range(4):
        obs = g.observe(s, p)
        for _ in range(6):
            d = s.copy()
            determinize(d, p, g.config, g.work, rng)
            g.validate(d)
            g.check_invariants(d)
            np.testing.assert_array_equal(g.observe(d, p), obs)
            orders.add(tuple(rules.STATE.arrays(d)["item_deck"][:n]))
    assert len(orders) > 1
