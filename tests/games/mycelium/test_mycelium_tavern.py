"""Mycelium's Hero Tavern (``hero_tavern=True``) and Legends (``legends=True``) variants."""

import numpy as np
import pytest
from mycelium_helpers import K, Scenario

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import MyceliumDataError
from mushgym.envs.mycelium.game import MyceliumGame
from mushgym.envs.mycelium.variant_data import HEROES_PATH, load_heroes

BLUE, GREEN, RED, BEIGE = range(4)
ARMILLARIA, LIONS_MANE, GOLDEN, GHOST, SULPHUR, EARTHSTAR, GIANT, CAESAR = range(8)


def heroes(sc, up=(GOLDEN, GHOST), held=None):
    """Face-up heroes ``up``, ``held`` = {player: [heroes]}, the rest in the deck (bottom first, by index)."""
    v = sc.v
    v["heroes"][...] = 0
    v["legend_deal"][...] = -1
    for p, hs in (held or {}).items():
        for h in hs:
            v["heroes"][p, h] = 1
    v["hero_up"][...] = -1
    for s, h in enumerate(up):
        v["hero_up"][s] = h
    used = set(up) | {h for hs in (held or {}).values() for h in hs}
    deck = [h for h in range(rules.NUM_HEROES) if h not in used]
    v["hero_deck"][...] = 0
    v["hero_deck"][: len(deck)] = deck
    v["hero_deck_n"][...] = len(deck)


def test_options_sizes_and_setup():
    g = MyceliumGame(hero_tavern=True)
    assert g.num_actions == rules.NUM_ACTIONS_ITEMS and g.observation_shape == (rules.OBS_SIZE_ITEMS,)
    s = g.new_state(0)
    v = rules.STATE.arrays(s)
    assert (v["hero_up"] >= 0).all() and v["hero_deck_n"] == 6 and v["heroes"].sum() == 0
    assert MyceliumGame(legends=True).tavern_on  # Legends implies the Tavern
    assert not MyceliumGame().tavern_on
    # the base game's deal is the same with or without the Tavern
    assert (rules.STATE.arrays(MyceliumGame().new_state(0))["hand"] == v["hand"]).all()
    assert (
        g.legal_mask(s)[rules.A_PLACE_TAVERN]
        and not MyceliumGame().legal_mask(MyceliumGame().new_state(0)).size > rules.A_PLACE_TAVERN
    )


def test_a_gatherer_returning_from_the_tavern_recruits_a_hero_for_a_combat_token():
    sc = Scenario(4, tp=BLUE, hero_tavern=True, emsporium=True)
    heroes(sc)
    sc.v["items"][BLUE, 4] = 1  # Flyers: no effect on the Tavern
    sc.v["shop"][...] = -1
    sc.v["item_deck"][...] = 0
    rest = [i for i in range(8) for _ in range(2)]
    rest.remove(4)
    sc.v["item_deck"][:15] = rest
    sc.v["item_deck_n"][...] = 15
    sc.v["ctok"][BLUE] = 1
    sc.v["gatherer"][BLUE] = [rules.TAVERN, rules.TAVERN, -1]
    sc.act("end_actions", player=BLUE)
    assert sc.top_kind() == rules.D_HERO_PICK and sc.who() == BLUE
    assert not sc.legal("place_gatherer", 0)
    sc.act("hero_pick", 1, player=BLUE)  # the face-up Ghost Fungus
    assert sc.v["heroes"][BLUE, GHOST] == 1 and sc.v["ctok"][BLUE] == 0
    assert sc.v["hero_up"][1] >= 0 and sc.v["hero_deck_n"] == 5  # replaced at once
    assert sc.v["decisions_n"] == 0 and sc.v["phase"] == rules.PH_PLACE  # 2 gatherers, 1 token: 1 hero
    assert (sc.v["gatherer"][BLUE] == -1).all() and sc.v["hand"][BLUE].sum() == 0  # no Flyers card
    # without a token: nothing, the gatherer still comes home
    sc2 = Scenario(4, tp=BLUE, hero_tavern=True)
    heroes(sc2)
    sc2.v["gatherer"][BLUE] = [rules.TAVERN, -1, -1]
    sc2.act("end_actions", player=BLUE)
    assert sc2.v["decisions_n"] == 0 and sc2.v["heroes"].sum() == 0 and sc2.v["gatherer"][BLUE, 0] == -1
    # the deck's top
    sc3 = Scenario(4, tp=BLUE, hero_tavern=True)
    heroes(sc3)
    sc3.v["ctok"][BLUE] = 2
    sc3.v["gatherer"][BLUE] = [rules.TAVERN, rules.TAVERN, -1]
    sc3.act("end_actions", player=BLUE)
    top = int(sc3.v["hero_deck"][int(sc3.v["hero_deck_n"]) - 1])
    sc3.act("hero_pick", 2, player=BLUE)
    sc3.act("hero_pick", 0, player=BLUE)
    assert sc3.v["heroes"][BLUE, top] == 1 and sc3.v["heroes"][BLUE, GOLDEN] == 1 and sc3.v["ctok"][BLUE] == 0


def test_a_hero_is_used_once_never_cancelled_then_goes_under_the_hero_deck():
    sc = Scenario(4, tp=BLUE, hero_tavern=True)
    heroes(sc, held={BLUE: [ARMILLARIA]})
    sc.give(GREEN, "Fly Agaric")
    sc.give(RED, "Fly Agaric")
    spores = int(sc.v["mat_spores"][BLUE])
    assert sc.legal("hero", ARMILLARIA, 0) and sc.legal("hero", ARMILLARIA, 1)
    assert not sc.legal("hero", LIONS_MANE, 1)
    sc.act("hero", ARMILLARIA, 1, player=BLUE)  # 2 Spore Tokens
    assert sc.who() == BLUE and sc.v["decisions_n"] == 0  # no Fly Agaric window
    assert sc.v["mat_spores"][BLUE] == spores + 2
    assert sc.v["heroes"][BLUE, ARMILLARIA] == 0 and sc.v["hero_deck"][0] == ARMILLARIA
    assert not sc.legal("hero", ARMILLARIA, 0)
    # free Paths: the building rules, one at a time
    sc2 = Scenario(4, tp=BLUE, hero_tavern=True)
    heroes(sc2, held={BLUE: [ARMILLARIA]})
    sc2.act("hero", ARMILLARIA, 0)
    assert sc2.top_kind() == rules.D_PLACE_PATH
    for _ in range(2):
        e = next(x for x in range(132) if sc2.legal("place_path", x))
        sc2.act("place_path", e)
        sc2.pass_all_but(BLUE)
    assert sc2.v["npaths"][BLUE] == 2


def test_a_heroes_combat_reaction_in_its_owners_battle_and_heroes_are_never_stolen():
    sc = Scenario(4, tp=BLUE, hero_tavern=True)
    heroes(sc, held={RED: [LIONS_MANE, GOLDEN]}, up=(GHOST, SULPHUR))
    e = sc.spokes(BLUE)[0]
    sc.path(RED, e)
    sc.give(BLUE, "Common Puffball", "Parasol")
    sc.give(RED, "Liberty Cap")
    slot = int(np.flatnonzero(sc.v["paths"][e] == RED + 1)[0])
    sc.act("attack", e, slot, player=BLUE)
    sc.act("card", K["Parasol"], player=BLUE)  # 4
    sc.act("card", K["Liberty Cap"], player=RED)  # 5
    while sc.who() != RED:
        sc.act("pass")
    assert sc.legal("hero", LIONS_MANE, 0) and not sc.legal("hero", LIONS_MANE, 1)
    assert not sc.legal("hero", GOLDEN, 0)  # an action ability: not in a battle
    sc.act("hero", LIONS_MANE, 0, player=RED)
    assert sc.v["c_bonus"][1] == 3 and sc.v["heroes"][RED, LIONS_MANE] == 0
    while sc.v["decisions_n"] > 0:  # Blue's Parasol steals; Red's Liberty Cap is declined
        top = sc.v["decisions"][int(sc.v["decisions_n"]) - 1]
        sc.act("use" if top[0] == rules.D_USE and top[1] == BLUE else "pass")
    assert sc.v["c_active"] == 0
    assert sc.v["hand"][RED].sum() == 0 and sc.v["hand"][BLUE].sum() == 2  # the card Red drew was stolen
    assert sc.v["heroes"][RED, GOLDEN] == 1  # the hero was not


def test_legends_each_player_keeps_one_of_two_and_the_deals_are_hidden():
    g = MyceliumGame(legends=True)
    s = g.new_state(2)
    v = rules.STATE.arrays(s)
    first = int(v["first_player"])
    assert (v["legend_deal"][:4] >= 0).all() and v["hero_deck_n"] == 0 and (v["hero_up"] == -1).all()
    # another player's deal is not in my observation; mine is
    me = first
    other = (first + 1) % 4
    t = s.copy()
    tv = rules.STATE.arrays(t)
    tv["legend_deal"][other], tv["legend_deal"][(first + 2) % 4] = (
        tv["legend_deal"][(first + 2) % 4].copy(),
        tv["legend_deal"][other].copy(),
    )
    assert (g.observe(s, me) == g.observe(t, me)).all()
    assert (g.observe(s, other) != g.observe(t, other)).any()
    kept = []
    for i in range(4):
        p = (first + i) % 4
        assert g.current_player(s) == p and v["decisions"][int(v["decisions_n"]) - 1][0] == rules.D_LEGEND
        kept.append(int(v["legend_deal"][p, 1]))
        g.step_inplace(s, g.encode_action("legend_keep", 1))
        g.check_invariants(s)
    assert [int(np.flatnonzero(v["heroes"][(first + i) % 4])[0]) for i in range(4)] == kept
    assert (v["hero_up"] >= 0).all() and v["hero_deck_n"] == 2 and v["phase"] == rules.PH_EXPLORE
    assert v["decisions_n"] == 0


def test_corrupted_heroes_and_malformed_heroes_file(tmp_path):
    g = MyceliumGame(hero_tavern=True)
    s = g.new_state(0)
    rules.STATE.arrays(s)["heroes"][0, 3] = 1
    with pytest.raises(ValueError, match="hero 3 \\(Ghost Fungus\\) is not exactly once"):
        g.validate(s)
    s = g.new_state(0)
    rules.STATE.arrays(s)["gatherer"][s[rules.FIRST], 0] = rules.TAVERN  # the first explorer's first gatherer
    s[rules.PLACED] = 1
    g.validate(s)  # the Tavern is a location with the variant
    s0 = MyceliumGame().new_state(0)
    rules.STATE.arrays(s0)["gatherer"][s0[rules.FIRST], 0] = rules.TAVERN
    s0[rules.PLACED] = 1
    with pytest.raises(ValueError, match="gatherer of player .* is on no location"):
        MyceliumGame().validate(s0)
    text = HEROES_PATH.read_text()
    bad = tmp_path / "heroes.toml"
    bad.write_text(text.replace('a_effect = "free_paths"', 'a_effect = "fly"', 1))
    with pytest.raises(
        MyceliumDataError, match=r"hero 1 \(Armillaria the Ancient\): field 'a_effect' = 'fly' is not one of"
    ):
        load_heroes(bad)
    bad.write_text(text.replace('name = "Earthstar"', 'name = "Lion\'s Mane"'))
    with pytest.raises(MyceliumDataError, match="listed twice"):
        load_heroes(bad)
    bad.write_text(text.replace("b_amount = 2", "b_amount = 9", 1))
    with pytest.raises(MyceliumDataError, match="b_amount"):
        load_heroes(bad)


@pytest.mark.parametrize("options", [{"hero_tavern": True}, {"legends": True, "emsporium": True, "num_players": 3}])
def test_random_play_keeps_the_invariants_and_recruits(options):
    g = MyceliumGame(turn_limit=60, **options)
    rng = np.random.default_rng(2)
    recruited = used = 0
    for seed in range(2):
        s = g.new_state(seed)
        steps = 0
        while not g.is_terminal(s) and steps < 4000:
            legal = g.legal_actions(s)
            pref = [
                a for a in legal if a == rules.A_PLACE_TAVERN or rules.A_HERO <= a < rules.A_HERO + 2 * rules.NUM_HEROES
            ]
            a = int(pref[0]) if pref and rng.random() < 0.5 else int(legal[rng.integers(legal.size)])
            if rules.A_HERO <= a < rules.A_HERO + 2 * rules.NUM_HEROES:
                used += 1
            if rules.A_HERO_PICK <= a < rules.A_HERO_PICK + 3:
                recruited += 1
            g.step_inplace(s, a)
            g.check_invariants(s)
            steps += 1
    assert recruited > 0 and used > 0


def test_variant_decisions_in_a_game_without_the_variant_are_refused():
    g = MyceliumGame(legends=True)
    s = g.new_state(1)
    v = rules.STATE.arrays(s)
    p = int(v["decisions"][int(v["decisions_n"]) - 1][1])
    v["legend_deal"][p] = -1  # a Legends decision without a deal
    v["hero_deck"][int(v["hero_deck_n"]) : int(v["hero_deck_n"]) + 2] = [
        h for h in range(8) if h not in v["legend_deal"]
    ][:2]
    v["hero_deck_n"] += 2
    with pytest.raises(ValueError, match="decision stack entry .* has an argument outside"):
        g.legal_mask(s)
    g0 = MyceliumGame()
    s0 = g0.new_state(0)
    v0 = rules.STATE.arrays(s0)
    v0["decisions"][0] = [rules.D_HERO_PICK, 0, 1, 0, 0, 0, 0]
    v0["decisions_n"][...] = 1  # (a hero pick before the Explore Phase: misplaced)
    with pytest.raises(ValueError, match="decision stack entry 0 does not fit the phase"):
        g0.legal_mask(s0)


def test_pictures_and_text_show_the_shop_items_heroes_and_the_tavern():
    from mushgym.render import draw_state

    g = MyceliumGame(num_players=4, emsporium=True, legends=True)
    s = g.new_state(3)
    rng = np.random.default_rng(0)
    first = g.current_player(s)
    svg = draw_state(g, s, first).to_svg()
    assert "Emsporium shop" in svg and "Hero Tavern (hero deck" in svg and "your Legends deal" in svg
    mine = [g.heroes.names[int(h)] for h in rules.STATE.arrays(s)["legend_deal"][first]]
    assert all(name.replace("'", "&#x27;") in svg or name.replace("'", "&#39;") in svg or name in svg for name in mine)
    for step in range(300):
        if step % 50 == 0:
            for p in range(4):  # what a seat cannot see (deals, decks) does not move its picture
                other = g.perturb_hidden(s, p, rng)
                assert draw_state(g, other, p).to_svg() == draw_state(g, s, p).to_svg()
        legal = g.legal_actions(s)
        pref = [a for a in legal if a in (rules.A_PLACE_TAVERN, rules.A_BUY)]
        s = g.step(s, int(pref[0]) if pref else int(legal[rng.integers(legal.size)]))
    text = g.state_to_string(s)
    assert "emsporium: shop" in text and "hero tavern: face up" in text
    svg = draw_state(g, s, None).to_svg()
    assert "items: " in svg and "heroes: " in svg
    assert draw_state(g, s, None).to_rgb().shape == (700, 1100, 3)


def test_determinize_redraws_the_others_legends_deals_and_the_hero_deck_keeping_every_view():
    from mushgym.core import rng_seed
    from mushgym.envs.mycelium.determinize import determinize

    g = MyceliumGame(legends=True, num_players=3)
    rng = np.random.default_rng(0)
    det_rng = np.zeros(4, np.int64)
    rng_seed(det_rng, 0, 9)
    for steps in (0, 1, 200):
        s = g.new_state(6)
        for _ in range(steps):
            legal = g.legal_actions(s)
            g.step_inplace(s, int(legal[rng.integers(legal.size)]))
        seen = set()
        for p in range(3):
            obs = g.observe(s, p)
            for _ in range(8):
                d = s.copy()
                determinize(d, p, g.config, g.work, det_rng)
                g.validate(d)
                g.check_invariants(d)
                np.testing.assert_array_equal(g.observe(d, p), obs)
                dv = rules.STATE.arrays(d)
                seen.add((p, tuple(dv["legend_deal"].ravel()), tuple(dv["hero_deck"][: int(dv["hero_deck_n"])])))
        assert len(seen) > 3, steps
