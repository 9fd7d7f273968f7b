"""One scenario per mushling type: each ability does what the Field Guide says, and a Fly Agaric
played in the window after it cancels it (the card is discarded, nothing else happens)."""

import numpy as np
import pytest
from mycelium_helpers import K, Scenario

from mushgym.envs.mycelium import rules

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3

UNCHANGED = ("paths", "gatherer", "mat_spores", "loc_spores", "mat_nut", "loc_nut", "deck", "ndeck", "nseen")


def _setup_action(name):
    """(scenario, [actions of Blue], check(scenario)) for each Action ability."""
    sc = Scenario(4, tp=BLUE)
    sc.give(GREEN, "Fly Agaric")
    if name == "Amethyst Deceiver":
        sc.give(BLUE, "Amethyst Deceiver")
        sc.discard("Death Cap")
        return (
            sc,
            [("deceive", K["Death Cap"])],
            lambda s: (
                s.v["hand"][BLUE, K["Death Cap"]] == 1
                and s.v["discard"][K["Amethyst Deceiver"]] == 1
                and s.v["known"][GREEN, BLUE, K["Death Cap"]] == 1
            ),
        )
    if name == "Parrot Toadstool":
        sc.give(BLUE, "Parrot Toadstool")
        sc.give(RED, "Pink Oyster", "Truffle")
        return (
            sc,
            [("parrot_view", 1)],
            lambda s: s.v["known"][BLUE, RED, K["Truffle"]] == 1 and s.v["known"][BLUE, RED].sum() == 2,
        )
    if name == "Russula":
        sc.give(BLUE, "Russula")
        oak, willow = sc.gloc("Oak"), sc.gloc("Willow")
        return (
            sc,
            [("russula",), ("place_gatherer", oak), ("place_gatherer", oak), ("place_gatherer", willow)],
            lambda s: s.v["gatherer"][BLUE].tolist() == [oak, oak, willow],
        )
    if name == "Veiled Lady":
        sc.give(BLUE, "Veiled Lady")
        return (
            sc,
            [("veiled_lady",)],
            lambda s: (
                s.v["nseen"][BLUE].sum() == 4
                and s.v["nseen"][BLUE, int(s.v["ndeck_n"]) - 4 :].all()
                and s.v["nseen"][GREEN].sum() == 0
            ),
        )
    if name == "Magic Mushling":
        sc.give(BLUE, "Magic Mushling")
        n0 = int(sc.v["ndeck_n"])
        top4 = sc.v["ndeck"][n0 - 4 : n0].copy()[::-1]  # from the top
        want = [int(top4[3]), int(top4[0]), int(top4[1]), int(top4[2])]  # each pick swaps into place

        def check(s):
            now = s.v["ndeck"][n0 - 4 : n0][::-1].tolist()
            return now == want and s.v["nseen"][BLUE, n0 - 4 : n0].all()

        return sc, [("magic",), ("arrange", 3), ("arrange", 3), ("arrange", 3)], check
    if name in ("Chanterelle", "Wood Blewit"):
        sc.give(BLUE, name, "Chanterelle" if name == "Wood Blewit" else "Wood Blewit")
        spokes = sc.spokes(BLUE)
        return (
            sc,
            [("builder_pair", 1), ("place_path", spokes[0]), ("place_path", spokes[1])],
            lambda s: s.v["npaths"][BLUE] == 2 and s.v["mat_spores"][BLUE] == 3,
        )
    if name in ("Chanterelle remove", "Wood Blewit remove"):
        card = name.split(" remove")[0]
        sc.give(BLUE, card)
        e = sc.spokes(BLUE)[0]
        sc.path(BLUE, e)
        return (
            sc,
            [("builder_remove", 0 if card == "Chanterelle" else 1, e)],
            lambda s: s.v["npaths"][BLUE] == 0 and s.v["mat_spores"][BLUE] == 4,
        )
    if name in ("Night Light", "Yellow Morel"):
        sc.give(BLUE, name)
        cave = int(sc.board.cave_of_seat[RED])
        k = 2 if name == "Night Light" else 1
        return sc, [("spawn", 0 if name == "Night Light" else 1, RED)], lambda s: s.v["loc_spores"][cave] == 3 + k
    if name in ("Truffle", "Witch's Hat"):
        sc.give(BLUE, name)
        sc.discard("Death Cap", "Penny Bun")
        deck0 = int(sc.v["deck_n"])
        act = "truffle" if name == "Truffle" else "witch"

        def check(s):
            if s.v["deck_n"] != deck0 + 2 or s.v["discard"].sum() != 1:
                return False
            top2 = sorted(s.v["deck"][deck0 : deck0 + 2].tolist())
            return name == "Truffle" or top2 == sorted([K["Death Cap"], K["Penny Bun"]])

        return sc, [(act, 0)], check
    if name in ("Truffle nutrients", "Witch's Hat nutrients"):
        card = name.split(" nutrients")[0]
        sc.give(BLUE, card)
        v = sc.v
        n0 = int(v["ndeck_n"])
        # three cards already drawn
        for _ in range(3):
            n0 -= 1
            v["ndiscard"][v["ndeck"][n0]] += 1
            v["ndeck"][n0] = 0
        v["ndeck_n"][...] = n0
        act = "truffle" if card == "Truffle" else "witch"
        return sc, [(act, 1)], lambda s: s.v["ndeck_n"] == n0 + 3 and s.v["ndiscard"].sum() == 0
    if name in ("Parasol", "Shiitake"):
        sc.give(BLUE, name, "Shiitake" if name == "Parasol" else "Parasol")
        cave = int(sc.board.cave_of_seat[RED])
        return sc, [("thief_pair", 1, RED)], lambda s: s.v["loc_spores"][cave] == 2 and s.v["mat_spores"][BLUE] == 4
    raise KeyError(name)


ACTIONS = [
    "Amethyst Deceiver",
    "Parrot Toadstool",
    "Russula",
    "Veiled Lady",
    "Magic Mushling",
    "Chanterelle",
    "Wood Blewit",
    "Chanterelle remove",
    "Wood Blewit remove",
    "Night Light",
    "Yellow Morel",
    "Truffle",
    "Witch's Hat",
    "Truffle nutrients",
    "Witch's Hat nutrients",
    "Parasol",
    "Shiitake",
]


def _run(sc, actions, cancel):
    sc.act(*actions[0], player=BLUE)
    rest = list(actions[1:])
    while rest and sc.top_kind() != rules.D_FA:
        sc.act(*rest.pop(0), player=BLUE)
    # the Fly Agaric window: Green may cancel, the others (no cards) are not asked
    assert sc.top_kind() == rules.D_FA and sc.who() == GREEN, sc.text()
    if cancel:
        sc.act("fly_agaric", player=GREEN)
        return
    sc.act("pass", player=GREEN)
    for a in rest:
        sc.act(*a, player=BLUE)
        sc.pass_all_but(BLUE)


@pytest.mark.parametrize("name", ACTIONS)
def test_action_ability(name):
    sc, actions, check = _setup_action(name)
    # abilities whose placements come after the window (Builders) run their remaining actions after it
    if name in ("Russula", "Magic Mushling"):
        pre = actions[:4] if name == "Russula" else actions[:1]
        post = actions[len(pre) :]
        for a in pre:
            sc.act(*a, player=BLUE)
        assert sc.top_kind() == rules.D_FA
        sc.act("pass", player=GREEN)
        for a in post:
            sc.act(*a, player=BLUE)
    else:
        _run(sc, actions, cancel=False)
    sc.pass_all_but(BLUE)
    assert check(sc), sc.text()
    assert sc.v["limbo"].sum() == 0 and sc.who() == BLUE


@pytest.mark.parametrize("name", ACTIONS)
def test_action_ability_cancelled_by_fly_agaric(name):
    sc, actions, _check = _setup_action(name)
    if name == "Russula":
        for a in actions:
            sc.act(*a, player=BLUE)
        before = {f: sc.v[f].copy() for f in UNCHANGED}
        sc.act("fly_agaric", player=GREEN)
    else:
        sc.act(*actions[0], player=BLUE)
        before = {f: sc.v[f].copy() for f in UNCHANGED}
        assert sc.top_kind() == rules.D_FA and sc.who() == GREEN
        sc.act("fly_agaric", player=GREEN)
    # Blue has no Fly Agaric to answer with (and nobody else any card): the ability is gone
    sc.pass_all_but(BLUE)
    assert sc.who() == BLUE and sc.v["decisions_n"] == 0, sc.text()
    for f, old in before.items():
        if f == "gatherer" and name == "Russula":
            assert (sc.v[f][BLUE] == -1).all()
            continue
        np.testing.assert_array_equal(sc.v[f], old, err_msg=f"{name}: {f} changed although cancelled")
    assert sc.v["discard"][K["Fly Agaric"]] == 1 and sc.v["limbo"].sum() == 0
    assert sc.v["hand"][BLUE].sum() == (0 if name not in ("Amethyst Deceiver",) else 0)


def test_fly_agaric_cancels_a_fly_agaric():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Yellow Morel", "Fly Agaric")
    sc.give(GREEN, "Fly Agaric")
    cave = int(sc.board.cave_of_seat[BLUE])
    sc.act("spawn", 1, BLUE, player=BLUE)
    sc.act("fly_agaric", player=GREEN)
    assert sc.who() == BLUE and sc.top_kind() == rules.D_FA  # Blue may cancel Green's Fly Agaric
    sc.act("fly_agaric", player=BLUE)
    sc.pass_all_but(BLUE)
    assert sc.v["loc_spores"][cave] == 4  # the Yellow Morel stands
    assert sc.v["discard"][K["Fly Agaric"]] == 2


def _combat(sc, att_card, def_card, e=None):
    if e is None:
        e = sc.spokes(BLUE)[0]
        sc.path(RED, e)
    slot = int(np.flatnonzero(sc.v["paths"][e] == RED + 1)[0])
    sc.act("attack", e, slot, player=BLUE)
    sc.act("card", K[att_card], player=BLUE)
    if def_card is None:
        sc.act("no_defense", player=RED)
    else:
        sc.act("card", K[def_card], player=RED)
    return e


def test_death_cap_wins_and_attacker_gains_a_combat_token():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Death Cap")
    sc.give(RED, "Fly Agaric")
    e = _combat(sc, "Death Cap", "Fly Agaric")
    sc.pass_all_but(BLUE)
    assert sc.v["ctok"][BLUE] == 1 and not (sc.v["paths"][e] == RED + 1).any()
    assert sc.v["discard"][K["Death Cap"]] == 1 and sc.v["discard"][K["Fly Agaric"]] == 1


def test_no_defense_removes_the_path_without_a_token_and_chicken_still_wins():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Chicken of the Woods")
    sc.give(RED, "Death Cap")
    e = _combat(sc, "Chicken of the Woods", None)
    assert not (sc.v["paths"][e] == RED + 1).any()
    sc.act("use", player=BLUE)  # Chicken: attacked and won -> draw 1
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["ctok"][BLUE] == 0


def test_chicken_defends_draws_three_and_one_more_for_winning():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver")
    sc.give(RED, "Chicken of the Woods", "Pink Oyster")
    sc.top("Night Light")  # Blue's Amethyst Deceiver draws a 1
    _combat(sc, "Amethyst Deceiver", "Chicken of the Woods")
    sc.act("use", player=BLUE)  # Amethyst Deceiver: draw a replacement
    sc.act("pass", player=RED)  # no Fly Agaric
    assert sc.v["c_repl"][0] == K["Night Light"]
    # reinforcement window: Blue has no card; Red plays the Pink Oyster
    while sc.who() != RED or sc.top_kind() != rules.D_REINF:
        sc.act("pass")
    sc.act("reinforce", 1, 1, player=RED)
    sc.pass_all_but(RED)
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    assert sc.v["c_winner"] == 1  # 0 + 3 > 1: the defender wins
    sc.act("use", player=RED)  # Chicken defended: draw 3
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][RED].sum() == 4  # 1 for winning + 3
    assert sc.v["hand"][BLUE, K["Night Light"]] == 1  # the drawn card joins Blue's hand
    assert sc.v["known"][RED, BLUE, K["Night Light"]] == 1


def test_amethyst_deceiver_cancelled_keeps_combat_value_zero():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver")
    sc.give(RED, "Night Light", "Fly Agaric")
    sc.top("Death Cap")
    e = _combat(sc, "Amethyst Deceiver", "Night Light")
    sc.act("use", player=BLUE)
    sc.act("fly_agaric", player=RED)
    # nobody can answer: the combat runs to its end, 0 against 1, and the defender wins
    assert sc.v["c_active"] == 0 and (sc.v["paths"][e] == RED + 1).any()
    assert sc.v["hand"][RED, K["Death Cap"]] == 1  # the card the Deceiver would have drawn: Red's reward


def test_common_puffball_cancels_the_thief_and_thieves_steal():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Shiitake", "Pink Oyster")
    sc.give(RED, "Common Puffball", "Death Cap")
    _combat(sc, "Shiitake", "Common Puffball")
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    assert sc.top_kind() == rules.D_USE and sc.who() == RED  # Puffball first
    sc.act("use", player=RED)
    assert sc.top_kind() == rules.D_FA and sc.who() == BLUE  # Blue holds a card: asked about a Fly Agaric
    sc.act("pass", player=BLUE)
    sc.pass_all_but(BLUE)  # the Thief's steal is never offered
    assert sc.v["c_active"] == 0 and sc.v["hand"][RED, K["Death Cap"]] == 1  # nothing stolen
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["discard"][K["Shiitake"]] == 1
    # without the Puffball's ability the thief steals (Red passes its Puffball)
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Shiitake")
    sc.give(RED, "Common Puffball", "Death Cap")
    _combat(sc, "Shiitake", "Common Puffball")
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    sc.act("pass", player=RED)
    sc.act("use", player=BLUE)
    sc.pass_all_but(BLUE)
    # Red won (5 > 2) and drew a card, then lost one of its 2 cards at random to Blue
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["hand"][RED].sum() == 1


def test_liberty_cap_attacker_and_cancelled():
    for cancel in (False, True):
        sc = Scenario(4, tp=BLUE)
        sc.give(BLUE, "Liberty Cap")
        sc.give(RED, "Night Light", "Fly Agaric")
        _combat(sc, "Liberty Cap", "Night Light")
        while sc.top_kind() == rules.D_REINF:
            sc.act("pass")
        sc.act("use", player=BLUE)
        if cancel:
            sc.act("fly_agaric", player=RED)
            sc.pass_all_but(BLUE)
            assert sc.v["npaths"][BLUE] == 0
        else:
            sc.act("pass", player=RED)
            e = next(x for x in range(132) if sc.legal("place_path", x))
            sc.act("place_path", e, player=BLUE)
            sc.pass_all_but(BLUE)
            assert sc.v["npaths"][BLUE] == 1


def test_parrot_toadstool_remote_attack_needs_another_card():
    sc = Scenario(4, tp=BLUE)
    far = [x for x in range(132) if sc.board.permanent[x] < 0 and x not in sc.spokes(BLUE)]
    e = far[-1]
    sc.path(RED, e)
    sc.give(BLUE, "Parrot Toadstool")
    assert not sc.legal("parrot_attack", e, 0) and not sc.legal("attack", e, 0)
    sc.give(BLUE, "Death Cap")
    sc.give(RED, "Night Light")
    assert sc.legal("parrot_attack", e, 0)
    sc.act("parrot_attack", e, 0, player=BLUE)
    sc.pass_all_but(BLUE)
    sc.act("card", K["Death Cap"], player=BLUE)
    sc.act("card", K["Night Light"], player=RED)
    sc.pass_all_but(BLUE)
    assert not (sc.v["paths"][e] == RED + 1).any() and sc.v["discard"][K["Parrot Toadstool"]] == 1


def test_inky_cap_give_two_or_lose_the_path():
    for give in (True, False):
        sc = Scenario(4, tp=BLUE)
        e = sc.spokes(BLUE)[0]
        other = next(n for n in sc.nbrs(e) if sc.board.permanent[n] < 0)
        sc.path(GREEN, other)
        sc.give(GREEN, "Inky Cap")
        sc.give(BLUE, "Death Cap", "Truffle")
        sc.v["mat_spores"][BLUE] = 1
        sc.act("build")
        sc.act("pay_token")
        sc.act("pay_done")
        sc.act("place_path", e, player=BLUE)
        sc.act("inky_cap", player=GREEN)
        sc.act("pass", player=BLUE)  # Blue could cancel it with a Fly Agaric
        assert sc.who() == BLUE and sc.top_kind() == rules.D_INKY_GIVE  # Blue chooses
        if give:
            sc.act("card", K["Death Cap"])
            sc.act("card", K["Truffle"])
            assert (sc.v["paths"][e] == BLUE + 1).any()
            assert sc.v["hand"][GREEN, K["Death Cap"]] == 1 and sc.v["known"][BLUE, GREEN].sum() == 2
            assert sc.v["known"][RED, GREEN].sum() == 0
        else:
            sc.act("pass")
            assert not (sc.v["paths"][e] == BLUE + 1).any()


def test_birds_nest_off_turn_win_and_current_player_answers_first():
    sc = Scenario(4, tp=BLUE)
    v = sc.v
    oak = sc.gloc("Oak")
    # Red and Blue both sit on Oak with a bonded Path each
    for p in (RED, BLUE):
        e = next(int(x) for x in sc.board.gloc_edges[oak])
    v["loc_nut"][oak] = 0
    v["gatherer"][RED] = [oak, -1, -1]
    v["gatherer"][BLUE] = [oak, -1, -1]
    sc.give(RED, "Bird's Nest")
    sc.give(BLUE, "Bird's Nest")
    v["mat_nut"][RED] = 9
    # bond both: a chain of Paths from each colony to Oak
    from collections import deque

    for p in (RED, BLUE):
        prev = {e: None for e in sc.ring(p)}
        q = deque(sc.ring(p))
        goal = None
        targets = {int(x) for x in sc.board.gloc_edges[oak]}
        while q:
            e = q.popleft()
            if e in targets:
                goal = e
                break
            for n in sc.nbrs(e):
                if n not in prev and sc.board.permanent[n] < 0:
                    prev[n] = e
                    q.append(n)
        while goal is not None and sc.board.permanent[goal] < 0:
            if not (v["paths"][goal] == p + 1).any():
                sc.path(p, goal)
            goal = prev[goal]
    # the next nutrient card is an Oak card: Blue's turn ends, Green's Nutrient Card Phase
    v["turn_player"][...] = BEIGE
    v["first_player"][...] = (BEIGE - v["turn"]) % 4  # turn t is first + t's
    v["phase"][...] = rules.PH_DISCARD
    oak_kind = sc.game.nutrients.names.index("Oak")
    sc.nutrient_on_top(oak_kind)
    v["hand"][BEIGE] = 0
    v["loc_nut"][oak] = 1  # 2 after the card: both can take one
    sc.rebuild_deck()
    # end Beige's turn by stepping its discard phase: the hand is already under the limit
    sc.game.kernels.advance(sc.s, sc.game.config, sc.game.work)
    assert v["turn_player"] == BLUE and v["loc_nut"][oak] == 2
    assert sc.who() == BLUE and sc.top_kind() == rules.D_BN  # current player asked first
    sc.act("pass", player=BLUE)
    sc.act("birds_nest", 0, player=RED)  # subset {gatherer 0}
    assert sc.who() == BLUE and sc.top_kind() == rules.D_BN  # Blue may answer first
    sc.act("birds_nest", 0, player=BLUE)
    sc.pass_all_but()
    assert v["mat_nut"][BLUE] == 1  # Blue gathered first
    assert v["done"] == 1 and v["winner"] == RED  # Red's 10th Nutrient, off-turn
    r = sc.game.returns(sc.s)
    assert r[RED] == 1.0 and abs(r.sum()) < 1e-9


# --- reactions cancelled by a Fly Agaric --------------------------------------------------------


def _build_next_to(sc, builder, owner):
    """``builder`` builds (paying a token) a Path touching a Path of ``owner``; returns the edge."""
    e = sc.spokes(builder)[0]
    other = next(n for n in sc.nbrs(e) if sc.board.permanent[n] < 0)
    sc.path(owner, other)
    sc.v["mat_spores"][builder] = 1
    sc.act("build", player=builder)
    sc.act("pay_token")
    sc.act("pay_done")
    sc.act("place_path", e, player=builder)
    return e


@pytest.mark.parametrize("card", ["Penny Bun", "Inky Cap"])
def test_path_reaction_cancelled_by_the_builder(card):
    sc = Scenario(4, tp=BLUE)
    sc.give(GREEN, card)
    sc.give(BLUE, "Fly Agaric", "Death Cap", "Truffle")
    e = _build_next_to(sc, BLUE, GREEN)
    sc.act("penny_bun" if card == "Penny Bun" else "inky_cap", player=GREEN)
    sc.act("fly_agaric", player=BLUE)
    sc.pass_all_but(BLUE)
    assert (sc.v["paths"][e] == BLUE + 1).any() and sc.v["hand"][BLUE].sum() == 2
    assert sc.v["discard"][K[card]] == 1 and sc.v["discard"][K["Fly Agaric"]] == 1


@pytest.mark.parametrize("oyster", ["Blue Oyster", "Pink Oyster"])
def test_reinforcement_cancelled_adds_nothing(oyster):
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Night Light", oyster)
    sc.give(RED, "Yellow Morel", "Fly Agaric")
    e = _combat(sc, "Night Light", "Yellow Morel")
    sc.act("reinforce", 0 if oyster == "Blue Oyster" else 1, 0, player=BLUE)
    sc.act("fly_agaric", player=RED)
    assert sc.v["c_bonus"][0] == 0
    while sc.v["c_active"]:
        sc.act("pass")
    assert (sc.v["paths"][e] == RED + 1).any()  # 1 vs 2: Red holds
    assert sc.v["discard"][K[oyster]] == 1


def test_reinforcements_win_it():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Night Light", "Pink Oyster")
    sc.give(RED, "Yellow Morel")
    e = _combat(sc, "Night Light", "Yellow Morel")
    sc.act("reinforce", 1, 0, player=BLUE)
    sc.pass_all_but(BLUE)
    assert not (sc.v["paths"][e] == RED + 1).any() and sc.v["ctok"][BLUE] == 1


def test_thief_steal_and_chicken_and_puffball_cancelled():
    # a Thief's steal cancelled
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Parasol")
    sc.give(RED, "Night Light", "Fly Agaric", "Death Cap")
    _combat(sc, "Parasol", "Night Light")
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    sc.act("use", player=BLUE)
    sc.act("fly_agaric", player=RED)
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][BLUE].sum() == 0 and sc.v["hand"][RED, K["Death Cap"]] == 1
    # Chicken of the Woods defending, cancelled: no 3 cards (1 for winning all the same)
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Chicken of the Woods", "Fly Agaric")
    sc.give(RED, "Chicken of the Woods")
    _combat(sc, "Chicken of the Woods", "Chicken of the Woods")
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    assert sc.v["c_winner"] == 1 and sc.v["hand"][RED].sum() == 1
    sc.act("use", player=RED)
    sc.act("fly_agaric", player=BLUE)
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][RED].sum() == 1
    # Common Puffball cancelled: the Thief steals after all
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Shiitake", "Fly Agaric")
    sc.give(RED, "Common Puffball", "Death Cap")
    _combat(sc, "Shiitake", "Common Puffball")
    while sc.top_kind() == rules.D_REINF:
        sc.act("pass")
    sc.act("use", player=RED)
    sc.act("fly_agaric", player=BLUE)
    sc.act("pass", player=RED)  # Red may not cancel Blue's Fly Agaric (it has none)
    assert sc.v["c_nothief"][0] == 0
    sc.act("use", player=BLUE)
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["hand"][RED].sum() == 1


def test_birds_nest_cancelled_gathers_nothing():
    sc = Scenario(4, tp=BEIGE)
    v = sc.v
    cave = int(sc.board.cave_of_seat[RED])
    oak = sc.gloc("Oak")
    v["gatherer"][RED] = [oak, cave, -1]
    sc.give(RED, "Bird's Nest")
    sc.give(GREEN, "Fly Agaric")
    v["phase"][...] = rules.PH_DISCARD
    sc.nutrient_on_top(sc.game.nutrients.names.index("Oak"))
    sc.rebuild_deck()
    sc.game.kernels.advance(sc.s, sc.game.config, sc.game.work)
    assert sc.who() == RED and sc.top_kind() == rules.D_BN
    # gatherers 0 (Oak) and 1 (own cave): subset 0b011 -> action index 2
    sc.act("birds_nest", 2, player=RED)
    sc.act("fly_agaric", player=GREEN)
    sc.pass_all_but(BLUE)
    assert v["mat_spores"][RED] == 3 and v["gatherer"][RED].tolist() == [oak, cave, -1]
    # not cancelled: the cave is bonded (1 spore), Oak is not (nothing); both come home
    sc = Scenario(4, tp=BEIGE)
    v = sc.v
    v["gatherer"][RED] = [oak, cave, -1]
    sc.give(RED, "Bird's Nest")
    v["phase"][...] = rules.PH_DISCARD
    sc.nutrient_on_top(sc.game.nutrients.names.index("Oak"))
    sc.rebuild_deck()
    sc.game.kernels.advance(sc.s, sc.game.config, sc.game.work)
    sc.act("birds_nest", 2, player=RED)
    sc.pass_all_but(BLUE)
    assert v["mat_spores"][RED] == 4 and v["mat_nut"][RED] == 0 and (v["gatherer"][RED] == -1).all()


def test_parrot_toadstool_remote_attack_cancelled_by_fly_agaric():
    sc = Scenario(4, tp=BLUE)
    far = [x for x in range(132) if sc.board.permanent[x] < 0 and x not in sc.spokes(BLUE)]
    e = far[-1]
    sc.path(RED, e)
    sc.give(BLUE, "Parrot Toadstool", "Death Cap")
    sc.give(RED, "Night Light")
    sc.give(GREEN, "Fly Agaric")
    sc.act("parrot_attack", e, 0, player=BLUE)
    assert sc.top_kind() == rules.D_FA and sc.who() == GREEN
    sc.act("fly_agaric", player=GREEN)
    sc.act("pass", player=BLUE)  # Blue holds a card: asked whether to cancel the cancel
    sc.pass_all_but(BLUE)
    # no combat: Red's Path stays, Blue keeps its Death Cap, both cards are discarded
    assert sc.v["c_active"] == 0 and (sc.v["paths"][e] == RED + 1).any()
    assert sc.v["hand"][BLUE].tolist() == [int(t == K["Death Cap"]) for t in range(rules.NUM_MUSHLING_KINDS)]
    assert sc.v["discard"][K["Parrot Toadstool"]] == 1 and sc.v["discard"][K["Fly Agaric"]] == 1
    assert sc.who() == BLUE and sc.v["decisions_n"] == 0


def test_chicken_of_the_woods_attacking_cancelled_by_fly_agaric():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Chicken of the Woods")
    sc.give(RED, "Death Cap", "Fly Agaric")
    e = _combat(sc, "Chicken of the Woods", None)  # undefended: the attacker wins
    assert not (sc.v["paths"][e] == RED + 1).any()
    sc.act("use", player=BLUE)
    sc.act("fly_agaric", player=RED)
    sc.pass_all_but(BLUE)
    assert sc.v["hand"][BLUE].sum() == 0 and sc.v["c_active"] == 0  # no card drawn
    assert sc.v["discard"][K["Fly Agaric"]] == 1 and sc.v["discard"][K["Chicken of the Woods"]] == 1
