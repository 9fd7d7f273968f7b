"""Mycelium scenario tests: the rulebook's worked examples and each mushling type's abilities."""

import ci_scope
import numpy as np
import pytest
from mycelium_helpers import K, Scenario, nbrs, ring, spokes

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import (
    MUSHLING_TYPES,
    MyceliumDataError,
    load_board,
    load_mushlings,
    load_nutrients,
    paths_to_bond,
)

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3  # 4-player seats, clockwise
BOARD = load_board(4)


def test_data_counts_and_symmetric_boards():
    m = load_mushlings()
    assert m.copies.sum() == 54 and len(m.names) == 23
    assert m.combat[K["Death Cap"]] == 8 and m.combat.max() == 8
    nut = load_nutrients()
    assert nut.copies.sum() == 17 and nut.copies[nut.four_player_only == 1].sum() == 3
    for n in (3, 4):
        b = load_board(n)
        assert len(b.edges) == 132
        # every seat needs the same numbers of Paths to bond to the trees and the Willow
        profiles = {
            tuple(sorted(paths_to_bond(b, s, g) for g in b.tree_gloc if g >= 0)) + (paths_to_bond(b, s, b.willow),)
            for s in range(n)
        }
        assert len(profiles) == 1, profiles
        for s in range(n):
            assert paths_to_bond(b, s, b.cave_of_seat[s]) == 0  # the Colony's own cave is bonded


def test_malformed_data_names_file_entry_and_field(tmp_path):
    bad = tmp_path / "cards.toml"
    bad.write_text('[[mushling]]\nname = "Death Cap"\ntype = "warrior"\ncombat = "eight"\nspore = 0\ncopies = 1\n')
    with pytest.raises(MyceliumDataError, match=r"cards.toml: mushling #1 \('Death Cap'\): field 'combat'"):
        load_mushlings(bad)
    bad.write_text('[[mushling]]\nname = "Death Hat"\n')
    with pytest.raises(MyceliumDataError, match="not a Field Guide type"):
        load_mushlings(bad)
    board = tmp_path / "board.toml"
    board.write_text(
        "[side3]\nplayers = 3\nradius = 3\ncolours = ['a', 'b', 'c']\n"
        "[[side3.location]]\nname = 'X'\nkind = 'volcano'\nq = 0\nr = 0\n"
    )
    with pytest.raises(MyceliumDataError, match=r"side3 location #1 \('X'\): field 'kind'"):
        load_board(3, board)
    with pytest.raises(MyceliumDataError, match="missing table"):
        load_board(4, board)


def test_numeric_fields_of_the_data_files_are_bounded(tmp_path):
    from mushgym.envs.mycelium.data import BOARD_PATH, CARDS_PATH, NUTRIENTS_PATH

    cases = (
        (
            CARDS_PATH,
            load_mushlings,
            "combat = 8",
            "combat = 99",
            r"cards.toml: mushling #\d+ \('Death Cap'\): field 'combat' must be in 0..20, got 99",
        ),
        (
            CARDS_PATH,
            load_mushlings,
            "spore = 0",
            "spore = -1",
            r"cards.toml: mushling #\d+ \(.*\): field 'spore' must be in 0..9, got -1",
        ),
        (
            NUTRIENTS_PATH,
            load_nutrients,
            "copies = ",
            "copies = 1000 #",
            r"nutrients.toml: nutrient #\d+ \(.*\): field 'copies' must be in 1..17",
        ),
        (
            BOARD_PATH,
            lambda p: load_board(4, p),
            "radius = 3",
            "radius = 40",
            r"board.toml: \[side\d\]: field 'radius' must be in 1..3, got 40",
        ),
        (
            BOARD_PATH,
            lambda p: load_board(4, p),
            "q = ",
            "q = 17 #",
            r"board.toml: side4 location #\d+ \(.*\): field 'q' must be in -3..3, got 17",
        ),
    )
    for src, load, old, new, message in cases:
        text = open(src).read()
        assert old in text, (src, old)
        bad = tmp_path / src.name
        at = text.index("[side4]") if src == BOARD_PATH else 0  # edit the 4-player side of the board
        bad.write_text(text[:at] + text[at:].replace(old, new, 1))
        with pytest.raises(MyceliumDataError, match=message):
            load(bad)


def test_corrupted_states_are_refused_with_a_message_naming_the_problem():
    from mushgym.envs.mycelium.game import MyceliumGame

    g = MyceliumGame(num_players=3)
    s = g.new_state(5)
    for _ in range(200):  # into the game
        s = g.step(s, int(g.legal_actions(s)[-1]))
    g.validate(s)

    def refused(field, index, value, message):
        t = s.copy()
        rules.STATE.arrays(t)[field][index] = value
        with pytest.raises(ValueError, match=message):
            g.observe(t, 0)
        with pytest.raises(ValueError, match=message):
            g.legal_mask(t)

    refused("phase", (), 9, r"phase = 9 is outside 0\.\.5")
    refused("gatherer", (1, 2), 11, r"gatherer\[1, 2\] = 11 is outside -1\.\.10")
    refused("gatherer", (1, 2), 10, r"a gatherer of player 1 is on no location")  # 10: the Hero Tavern, a variant's
    refused("turn_player", (), 3, "not a player of this 3-player game")
    refused("hand", (0, K["Truffle"]), 3, r"type 19 \(Truffle\) do not add up")
    refused("ndeck_n", (), 0, "nutrient deck and discard pile do not hold")
    refused("mat_spores", 0, 50, "more tokens")
    t = s.copy()
    v = rules.STATE.arrays(t)
    while int(v["decisions_n"]) > 0 or int(v["phase"]) != rules.PH_ACTION:  # the turn player's Action Phase menu
        t = g.step(t, int(g.legal_actions(t)[-1]))
        v = rules.STATE.arrays(t)
    v["decisions"][0] = [rules.D_PAY, int(v["turn_player"]), 100, 0, 0, 0, 0]  # a payment beyond its range
    v["decisions_n"][...] = 1
    with pytest.raises(ValueError, match="decision stack entry 0 has an argument outside"):
        g.step(t, g.encode_action("pass"))
    n = 0
    v["decisions"][n] = [rules.D_USE, 1, rules.AB_MAGIC, 0, 0, 0, 0]
    with pytest.raises(ValueError, match="not a revealed card's reaction"):
        g.current_player(t)


def test_setup():
    for n in (3, 4):
        from mushgym.envs.mycelium.game import MyceliumGame

        g = MyceliumGame(num_players=n)
        for seed in range(5):
            s = g.new_state(seed)
            v = rules.STATE.arrays(s)
            first = int(v["first_player"])
            sizes = [int(v["hand"][(first + i) % n].sum()) for i in range(n)]
            assert sizes == [4 + i for i in range(n)]
            assert (v["mat_spores"][:n] == 3).all()
            assert all(v["loc_spores"][g.board.cave_of_seat[p]] == 3 for p in range(n))
            assert v["loc_nut"].sum() == (n if n == 4 else 3) + 1  # each tree + the Willow
            assert int(v["ndeck_n"]) == (17 if n == 4 else 14)
            assert v["phase"] == rules.PH_EXPLORE and g.current_player(s) == first


def test_combat_example():
    """Blue's Parasol vs Red's Liberty Cap; Blue Oyster +2, Red's combat token +1; tie: Red wins,
    draws; Parasol steals from Red; Liberty Cap builds Red a free Path."""
    e = spokes(BOARD, BLUE)[0]
    sc = Scenario(
        4,
        tp=BLUE,
        position=dict(
            paths={e: RED},
            combat_tokens={RED: 1},
            hands={BLUE: ["Parasol", "Blue Oyster"], RED: ["Liberty Cap", "Death Cap"]},
        ),
    )
    sc.top("Shiitake")  # Red's draw for winning as the defender
    slot = int(np.flatnonzero(sc.v["paths"][e] == RED + 1)[0])
    sc.act("attack", e, slot, player=BLUE)
    sc.act("card", K["Parasol"], player=BLUE)
    sc.act("card", K["Liberty Cap"], player=RED)
    assert sc.v["c_revealed"] == 1
    sc.act("reinforce", 0, 0, player=BLUE)  # Blue Oyster +2 for the attacker
    sc.act("pass", player=RED)  # Red does not cancel it (Fly Agaric window)
    sc.act("combat_token", 1, player=RED)  # +1 for the defender
    assert list(sc.v["c_bonus"]) == [2, 1]
    sc.act("pass", player=RED)  # round of passes: Blue has nothing left, Red passes
    assert sc.v["c_winner"] == 1 and sc.v["paths"][e].tolist().count(RED + 1) == 1
    assert sc.v["hand"][RED].sum() == 2  # Death Cap + the card drawn for winning
    sc.act("use", player=BLUE)  # Parasol: steal a random card from Red
    sc.act("pass", player=RED)
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["hand"][RED].sum() == 1
    stolen = int(np.flatnonzero(sc.v["hand"][BLUE])[0])
    assert sc.v["known"][RED, BLUE, stolen] == 1  # Red saw which card went
    sc.act("use", player=RED)  # Liberty Cap: a free Path
    sc.act("pass", player=BLUE)
    before = int(sc.v["npaths"][RED])
    free = [x for x in range(132) if sc.legal("place_path", x)]
    sc.act("place_path", free[0], player=RED)
    sc.pass_all_but()
    assert sc.v["npaths"][RED] == before + 1
    assert sc.v["c_active"] == 0 and sc.who() == BLUE and sc.v["decisions_n"] == 0
    for name in ("Parasol", "Liberty Cap", "Blue Oyster"):
        assert sc.v["discard"][K[name]] == 1, name
    assert sc.v["ctok"].sum() == 0


def test_build_example_with_penny_bun():
    """Blue pays 3 cards of spore value 2 for 2 Paths; the first shares an edge with Beige,
    the second is next to Green, who plays Penny Bun: Blue keeps 1 Path, paid for 2."""
    blue = spokes(BOARD, BLUE)
    shared = blue[0]
    # an edge Blue can build that touches an edge where Green will have a Path
    target = next(x for x in blue[1:] if not set(nbrs(BOARD, x)) & {shared} and x != shared)
    green_edge = next(
        n
        for n in nbrs(BOARD, target)
        if BOARD.permanent[n] < 0
        and n != shared
        and not set(nbrs(BOARD, n)) & set(ring(BOARD, BLUE))
        and n not in nbrs(BOARD, shared)
    )
    sc = Scenario(
        4,
        tp=BLUE,
        position=dict(
            paths={shared: BEIGE, green_edge: GREEN},
            hands={BLUE: {"Wood Blewit": 2, "Night Light": 1}, GREEN: ["Penny Bun"]},
        ),
    )
    sc.act("build", player=BLUE)
    for name in ("Wood Blewit", "Wood Blewit", "Night Light"):
        sc.act("pay_card", K[name], player=BLUE)
    sc.act("pay_done", player=BLUE)
    sc.act("place_path", shared, player=BLUE)
    assert sorted(sc.v["paths"][shared]) == [BLUE + 1, BEIGE + 1]
    sc.act("place_path", target, player=BLUE)
    sc.act("penny_bun", player=GREEN)
    assert sc.who() == BLUE and sc.v["decisions_n"] == 0  # nobody else can hold a Fly Agaric
    assert not (sc.v["paths"][target] == BLUE + 1).any()
    assert sc.v["npaths"][BLUE] == 1
    assert sc.v["discard"][K["Wood Blewit"]] == 2 and sc.v["discard"][K["Penny Bun"]] == 1


def test_gather_examples():
    """Red: 2 gatherers on Birch with 2 Nutrients but 1 bonded Path -> 1 Nutrient. The Colony's
    own cave is bonded by its permanent Path; the Mush Room draws without a bond."""
    sc = Scenario(4, tp=RED)
    birch = sc.gloc("Birch")
    sc.v["loc_nut"][birch] = 2
    # build a bonded chain from Red's colony to one edge of Birch (shortest, by BFS)
    from collections import deque

    board = sc.board
    start = sc.ring(RED)
    prev = {e: None for e in start}
    q = deque(start)
    goal = None
    birch_edges = set(int(x) for x in board.gloc_edges[birch] if x >= 0)
    while q:
        e = q.popleft()
        if e in birch_edges:
            goal = e
            break
        for n in sc.nbrs(e):
            if n not in prev and board.permanent[n] < 0:
                prev[n] = e
                q.append(n)
    chain = []
    while goal is not None and board.permanent[goal] < 0:
        chain.append(goal)
        goal = prev[goal]
    for e in chain:
        sc.path(RED, e)
    sc.v["gatherer"][RED] = [birch, birch, sc.gloc("Mush Room")]
    hand0 = int(sc.v["hand"][RED].sum())
    sc.act("end_actions", player=RED)
    assert sc.v["mat_nut"][RED] == 1 and sc.v["loc_nut"][birch] == 1
    assert sc.v["hand"][RED].sum() == hand0 + 1
    assert (sc.v["gatherer"][RED] == -1).all() and sc.v["phase"] == rules.PH_PLACE
    # the own cave: 2 gatherers, 1 bonded Path -> 1 spore
    sc2 = Scenario(4, tp=GREEN)
    cave = int(sc2.board.cave_of_seat[GREEN])
    sc2.v["gatherer"][GREEN] = [cave, cave, sc2.gloc("Oak")]
    spores = int(sc2.v["mat_spores"][GREEN])
    sc2.act("end_actions", player=GREEN)
    assert sc2.v["mat_spores"][GREEN] == spores + 1
    assert sc2.v["mat_nut"][GREEN] == 0  # not bonded to Oak


def test_explore_phase_examples():
    """Green: 2 on the Mush Room and 1 on its cave -> 2 cards and 1 spore on the first gather."""
    from mushgym.envs.mycelium.game import MyceliumGame

    g = MyceliumGame(num_players=4)
    s = g.new_state(3)
    v = rules.STATE.arrays(s)
    first = int(v["first_player"])
    mush = g.board.mush_room
    for i in range(4):
        p = (first + i) % 4
        for _ in range(3):
            assert g.current_player(s) == p and v["phase"] == rules.PH_EXPLORE
            loc = mush if p == GREEN and v["gatherer"][p].tolist().count(mush) < 2 else int(g.board.cave_of_seat[p])
            s = g.step(s, g.encode_action("place_gatherer", loc))
            v = rules.STATE.arrays(s)
    assert v["gatherer"][GREEN].tolist().count(mush) == 2
    # play until Green's Gather Phase: everyone else ends the Action Phase at once
    while True:
        p = g.current_player(s)
        if p == GREEN and v["phase"] == rules.PH_ACTION and v["decisions_n"] == 0:
            break
        legal = g.legal_actions(s)
        for name in ("end_actions", "pass", "place_gatherer"):
            a = [x for x in legal if g.decode_action(x)[0] == name]
            if a:
                s = g.step(s, a[0])
                break
        else:
            s = g.step(s, legal[0])
        v = rules.STATE.arrays(s)
    cards, spores = int(v["hand"][GREEN].sum()), int(v["mat_spores"][GREEN])
    cave_spores = int(v["loc_spores"][g.board.cave_of_seat[GREEN]])
    s = g.step(s, g.encode_action("end_actions"))
    v = rules.STATE.arrays(s)
    assert v["hand"][GREEN].sum() == cards + 2
    assert v["mat_spores"][GREEN] == spores + min(1, cave_spores)


def test_path_rules_two_per_edge_not_two_of_one_player_and_twenty_one():
    e = spokes(BOARD, BLUE)[0]
    sc = Scenario(4, tp=BLUE, position=dict(paths={e: [GREEN, RED]}, spores={BLUE: 9}))
    sc.act("build")
    sc.act("pay_token")
    sc.act("pay_done")
    assert not sc.legal("place_path", e)  # full edge
    # 20 Paths already: the 21st removes one of your own
    far = [x for x in range(132) if BOARD.permanent[x] < 0 and x not in spokes(BOARD, BLUE)][:20]
    sc2 = Scenario(4, tp=BLUE, position=dict(paths={x: BLUE for x in far}, spores={BLUE: 1}))
    sc2.act("build")
    sc2.act("pay_token")
    sc2.act("pay_done")
    new = next(x for x in sc2.spokes(BLUE) if sc2.legal("place_path", x))
    sc2.act("place_path", new)
    assert sc2.top_kind() == rules.D_REMOVE_OWN and not sc2.legal("remove_own", new)
    sc2.act("remove_own", far[0])
    assert sc2.v["npaths"][BLUE] == 20


def test_no_change_given_and_exchange():
    sc = Scenario(
        4,
        tp=BLUE,
        position=dict(spores={BLUE: 1}, hands={BLUE: ["Wood Blewit", "Night Light", "Yellow Morel", "Yellow Morel"]}),
    )
    sc.act("build")
    sc.act("pay_card", K["Wood Blewit"])
    sc.act("pay_card", K["Night Light"])
    sc.act("pay_token")  # 7 paid: 2 Paths, 1 lost
    sc.act("pay_done")
    assert sc.v["decisions"][int(sc.v["decisions_n"]) - 1][2] == 2
    sc.v["decisions_n"][...] = 0
    sc.v["decisions"][...] = 0
    cave = int(sc.board.cave_of_seat[RED])
    before = int(sc.v["loc_spores"][cave])
    sc.act("exchange", MUSHLING_TYPES.index("worker"), 1 + RED)  # two Yellow Morels: two Workers
    assert sc.v["loc_spores"][cave] == before + 1 and sc.v["discard"][K["Yellow Morel"]] == 2


def _obs_known(sc, viewer, holder, name):
    off = (holder - viewer) % sc.n
    return sc.game.observe(sc.s, viewer)[rules.O_KNOWN + (off - 1) * rules.NUM_MUSHLING_KINDS + K[name]]


def test_parrot_view_stays_in_the_observation_while_true_and_nothing_else_leaks():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Parrot Toadstool")
    sc.give(RED, "Pink Oyster", "Truffle")
    sc.act("parrot_view", (RED - BLUE - 1) % 4, player=BLUE)
    sc.pass_all_but(BLUE)
    assert _obs_known(sc, BLUE, RED, "Truffle") == 1 and _obs_known(sc, BLUE, RED, "Pink Oyster") == 1
    assert _obs_known(sc, GREEN, RED, "Truffle") == 0
    rng = np.random.default_rng(0)
    for _ in range(20):
        other = sc.game.perturb_hidden(sc.s, BLUE, rng)
        v2 = rules.STATE.arrays(other)
        assert v2["hand"][RED, K["Truffle"]] >= 1 and v2["hand"][RED, K["Pink Oyster"]] >= 1
        np.testing.assert_array_equal(sc.game.observe(other, BLUE), sc.game.observe(sc.s, BLUE))
        np.testing.assert_array_equal(
            sc.game.observe(sc.game.perturb_hidden(sc.s, GREEN, rng), GREEN), sc.game.observe(sc.s, GREEN)
        )
    # Red plays its Truffle in view of all: Blue's knowledge of it goes, the Pink Oyster stays
    sc.v["turn_player"][...] = RED
    sc.v["first_player"][...] = (RED - sc.v["turn"]) % 4  # turn t is first + t's
    sc.act("truffle", 0, player=RED)
    sc.pass_all_but(RED)
    assert _obs_known(sc, BLUE, RED, "Truffle") == 0 and _obs_known(sc, BLUE, RED, "Pink Oyster") == 1
    # Red's face-down card is unseen: every known count drops (Blue cannot tell which card went)
    e = sc.spokes(RED)[0]
    sc.path(BLUE, e)
    sc.give(BLUE, "Night Light")  # so Blue has a defence to choose
    slot = int(np.flatnonzero(sc.v["paths"][e] == BLUE + 1)[0])
    sc.act("attack", e, slot, player=RED)
    sc.act("card", K["Pink Oyster"], player=RED)
    assert _obs_known(sc, BLUE, RED, "Pink Oyster") == 0
    assert sc.game.observe(sc.s, BLUE)[rules.O_C_CARD + K["Pink Oyster"]] == 0  # not revealed yet
    assert sc.game.observe(sc.s, RED)[rules.O_C_CARD + K["Pink Oyster"]] == 1  # its owner sees it
    assert sc.who() == BLUE and sc.top_kind() == rules.D_DEFEND


def test_veiled_lady_cards_stay_known_until_drawn():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Veiled Lady")
    n0 = int(sc.v["ndeck_n"])
    top = [int(k) for k in sc.v["ndeck"][n0 - 4 : n0][::-1]]
    sc.act("veiled_lady", player=BLUE)
    sc.pass_all_but(BLUE)

    def known_rows(p):
        o = sc.game.observe(sc.s, p)[
            rules.O_NKNOWN : rules.O_NKNOWN + rules.NUM_NUTRIENT_CARDS * rules.MAX_NUTRIENT_KINDS
        ].reshape(rules.NUM_NUTRIENT_CARDS, rules.MAX_NUTRIENT_KINDS)
        return [int(np.argmax(r)) if r.any() else -1 for r in o]

    assert known_rows(BLUE)[:5] == top + [-1]
    assert known_rows(GREEN)[:4] == [-1] * 4
    sc.end_turn_on_mush_room(GREEN)
    assert sc.v["turn_player"] == GREEN
    assert known_rows(BLUE)[:4] == top[1:] + [-1]  # the top card was drawn; the rest is still known


def test_witch_hats_public_set_on_top_stays_in_every_observation_while_true():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Witch's Hat", "Witch's Hat")
    sc.discard("Blue Oyster", "Penny Bun", "Blue Oyster")
    # mushling deck: everyone saw the discard pile go on top, as a set
    sc.act("witch", 0, player=BLUE)
    sc.pass_all_but(BLUE)

    def top_set(p, nutrient=False):
        o = sc.game.observe(sc.s, p)
        if nutrient:
            return o[rules.O_NDECK_TOP : rules.O_NDECK_TOP + rules.MAX_NUTRIENT_KINDS].astype(int).tolist(), int(
                o[rules.O_TOP_N + 1]
            )
        return {
            t: int(c) for t, c in enumerate(o[rules.O_DECK_TOP : rules.O_DECK_TOP + rules.NUM_MUSHLING_KINDS]) if c
        }, int(o[rules.O_TOP_N])

    for p in range(4):
        assert top_set(p) == ({K["Blue Oyster"]: 2, K["Penny Bun"]: 1}, 3)
    rng = np.random.default_rng(1)
    for p in range(4):  # the hidden-information test keeps the public set on top
        for _ in range(10):
            other = sc.game.perturb_hidden(sc.s, p, rng)
            v2 = rules.STATE.arrays(other)
            nd = int(v2["deck_n"])
            assert sorted(v2["deck"][nd - 3 : nd].tolist()) == sorted([K["Blue Oyster"]] * 2 + [K["Penny Bun"]])
            np.testing.assert_array_equal(sc.game.observe(other, p), sc.game.observe(sc.s, p))
            sc.game.check_invariants(other)
    # a card drawn in private leaves an unknown card: 2 cards on top, from the same set
    rules.draw_cards(sc.s, GREEN, 1)
    sc.game.check_invariants(sc.s)
    assert top_set(BLUE) == ({K["Blue Oyster"]: 2, K["Penny Bun"]: 1}, 2)
    # nutrient deck: the discarded nutrient cards go on top; every draw is face up, so the set shrinks exactly
    v = sc.v
    n0 = int(v["ndeck_n"])
    drawn = []
    for _ in range(2):
        n0 -= 1
        drawn.append(int(v["ndeck"][n0]))
        v["ndiscard"][v["ndeck"][n0]] += 1
        v["ndeck"][n0] = 0
    v["ndeck_n"][...] = n0
    sc.act("witch", 1, player=BLUE)
    sc.pass_all_but(BLUE)
    expect = np.bincount(drawn, minlength=rules.MAX_NUTRIENT_KINDS).tolist()
    for p in range(4):
        assert top_set(p, nutrient=True) == (expect, 2)
    for _ in range(10):
        other = sc.game.perturb_hidden(sc.s, GREEN, rng)
        nn = int(rules.STATE.arrays(other)["ndeck_n"])
        assert sorted(rules.STATE.arrays(other)["ndeck"][nn - 2 : nn].tolist()) == sorted(drawn)
        np.testing.assert_array_equal(sc.game.observe(other, GREEN), sc.game.observe(sc.s, GREEN))
    # the next Nutrient Card Phase draws one of them in view of all
    sc.end_turn_on_mush_room(GREEN)
    left, n = top_set(GREEN, nutrient=True)
    assert n == 1 and sum(left) == 1 and left[int(sc.v["ndeck"][int(sc.v["ndeck_n"]) - 1])] == 1
    # a Truffle's shuffle (its effect on the nutrient deck) mixes it away: nothing is known on top
    rules.shuffle_nutrients_all(sc.s)
    sc.game.check_invariants(sc.s)
    assert top_set(BLUE, nutrient=True) == ([0] * rules.MAX_NUTRIENT_KINDS, 0)


def test_reaction_prompts_public_asks_everyone_eligible_holders_only_holders():
    for mode, asked in (("public", True), ("holders", False)):
        sc = Scenario(4, tp=BLUE, reaction_prompts=mode)
        sc.give(BLUE, "Yellow Morel")
        sc.give(GREEN, "Death Cap")  # a card, but no Fly Agaric
        sc.act("spawn", 1, BLUE)
        if asked:
            assert sc.who() == GREEN and sc.top_kind() == rules.D_FA
            legal = sc.game.legal_actions(sc.s)
            assert [sc.game.decode_action(a)[0] for a in legal] == ["pass"]
            sc.act("pass")
        assert sc.who() == BLUE and sc.v["decisions_n"] == 0


def test_turn_limit_truncates_with_zero_returns_and_errors_name_choices():
    from mushgym.envs.mycelium.game import MyceliumGame

    g = MyceliumGame(num_players=3, turn_limit=60)
    if ci_scope.runs_rollouts(g.env_id):
        r = g.random_rollouts(8, seed=3, threads=1)
        assert r["max_length"] <= g.spec.max_game_length
        for rets in r["returns"]:
            assert (rets == 0).all() or sorted(rets.tolist()) == [-0.5, -0.5, 1.0]
    with pytest.raises(ValueError, match="valid choices"):
        MyceliumGame(reaction_prompts="everyone")
    with pytest.raises(ValueError, match="valid choices"):
        MyceliumGame(turn_limit_end="draw")
    with pytest.raises(ValueError, match=r"player count: 5; valid choices are \[2, 3, 4\]"):
        MyceliumGame(num_players=5)  # (2 players: the 2-player game, tests/games/mycelium/test_mycelium_team.py)


def _at_the_turn_limit(g, seed=0):
    """A state one Draw Phase before the turn limit: the next gatherer placed ends the turn."""
    s = g.new_state(seed)
    v = rules.STATE.arrays(s)
    while not (v["phase"] == rules.PH_ACTION and v["decisions_n"] == 0):
        s = g.step(s, int(g.legal_actions(s)[0]))
        v = rules.STATE.arrays(s)
    v["turn"][...] = int(g.options["turn_limit"]) - 1
    v["first_player"][...] = (v["turn_player"] - v["turn"]) % g.num_players  # turn t is first + t's
    v["discard"][...] += v["hand"].sum(axis=0)  # no card in hand: the Draw Phase discards nothing
    v["hand"][...] = 0
    v["known"][...] = 0
    v["mat_nut"][: g.num_players] = [3, 5, 5, 1][: g.num_players]
    v["loc_nut"][...] = 0  # nothing to gather
    s = g.step(s, g.encode_action("end_actions"))
    return s


def test_turn_limit_is_a_truncation_unless_scored():
    from mushgym.envs.mycelium.game import MyceliumGame

    g = MyceliumGame(num_players=4, turn_limit=60)
    s = _at_the_turn_limit(g)
    for _ in range(3):
        s = g.step(s, int(g.legal_actions(s)[0]))
    assert g.is_terminal(s) and g.is_truncated(s) and int(rules.STATE.arrays(s)["winner"]) == -1
    assert g.returns(s).tolist() == [0.0] * 4 and "(turn limit)" in g.state_to_string(s)
    g.check_invariants(s)
    scored = MyceliumGame(num_players=4, turn_limit=60, turn_limit_end="score")
    s = _at_the_turn_limit(scored)
    for _ in range(3):
        s = scored.step(s, int(scored.legal_actions(s)[0]))
    assert scored.is_terminal(s) and not scored.is_truncated(s)
    # seats 1 and 2 tie with 5 Nutrients: (n - k) / (k (n - 1)) = 1/3 each, -1/3 to the others
    np.testing.assert_allclose(scored.returns(s), [-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert abs(scored.returns(s).sum()) < 1e-12


def test_turn_limit_truncates_the_aec_env_vector_loops_single_agent_and_sb3():
    from mushgym.agents.base import RandomAgent
    from mushgym.envs import mycelium_v2
    from mushgym.envs.mycelium.game import MyceliumGame
    from mushgym.episodes import play
    from mushgym.vector import MushroomVectorEnv
    from mushgym.wrappers.single_agent import SingleAgentEnv

    e = mycelium_v2.raw_env(num_players=3, turn_limit=60)
    e.reset(seed=1)
    s = _at_the_turn_limit(e.game, seed=1)
    e.game_state[...] = s
    while True:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values()), "the turn limit is a truncation"
    assert all(r == 0 for r in e.rewards.values())
    g = MyceliumGame(num_players=3, turn_limit=60)
    if ci_scope.runs_vector(g.env_id):
        vec = MushroomVectorEnv(g, 4, seed=0)
        vec.reset()
        cut = 0
        for _ in range(4 * 60 * 40):
            _, rewards, term, trunc, _, _, _ = vec.step(vec.sample_random_actions())
            for i in np.flatnonzero(term | trunc):
                assert term[i] != trunc[i] and bool(trunc[i]) == g.is_truncated(vec.states[i])
                assert not trunc[i] or not rewards[i].any(), "a truncation has no result"
                cut += int(trunc[i])
            if cut >= 2:
                break
        assert cut >= 2
    rnd = RandomAgent(seed=0)
    r = play(g, [rnd] * 3, seeds=range(4), keep_states=True)
    for i in range(4):
        assert r["truncated"][i] == g.is_truncated(r["states"][i])
        assert not r["truncated"][i] or not r["returns"][i].any()
    assert r["truncated"].any()
    env = SingleAgentEnv(g, seat=0)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    for _ in range(200_000):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            break
    assert truncated == env.game.is_truncated(env.state) and not (terminated and truncated)
    if truncated:
        assert reward == 0.0
    if not ci_scope.runs_vector(g.env_id):
        return
    pytest.importorskip("stable_baselines3")
    from mushgym.wrappers import SingleAgentBatch
    from mushgym.wrappers.sb3 import MaskableVecEnv

    sb = MaskableVecEnv(SingleAgentBatch(g, num_envs=2, seed=0))
    sb.reset()
    seen = 0
    for _ in range(200_000):
        masks = sb.action_masks()
        acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        _, _, dones, infos = sb.step(acts)
        for i in np.flatnonzero(dones):
            if infos[i].get("TimeLimit.truncated"):
                seen += 1
        if seen:
            break
    assert seen, "an SB3 episode cut by the turn limit is marked TimeLimit.truncated"


def test_env_docstring_tables_are_the_generated_ones():
    """env.py fills its docstring's placeholders from the layouts on import (mushgym.docsite.fill_env_docstring)."""
    import mushgym.envs.mycelium_v2 as env

    for table in (rules.OBSERVATION.table(), rules.ACTION_SPACE.table(), rules.STATE.table()):
        assert table in env.__doc__
    assert f"Discrete({rules.NUM_ACTIONS_BASE}) with every variant off" in env.__doc__
    assert f"one int64 array of {rules.STATE_SIZE} slots" in env.__doc__
    assert "@" not in env.__doc__  # every placeholder filled


def test_explore_example_red_builds_to_birch_and_gathers():
    """Red: 1 gatherer on Birch, 2 on its own Spore Cave, then builds the Paths to Birch before
    its Gather Phase (4 on this board; 3 on the rulebook's): 1 Nutrient, and from the cave as
    many spores as gatherers, capped by its bonded Paths there (this route runs along the cave)."""
    from collections import deque

    sc = Scenario(4, tp=RED)
    birch, cave = sc.gloc("Birch"), int(sc.board.cave_of_seat[RED])
    sc.v["gatherer"][RED] = [birch, cave, cave]
    sc.give(RED, "Wood Blewit", "Yellow Morel")
    board = sc.board
    prev = {e: None for e in sc.ring(RED)}
    q = deque(sc.ring(RED))
    targets = {int(x) for x in board.gloc_edges[birch] if x >= 0}
    goal = None
    while q:
        e = q.popleft()
        if e in targets:
            goal = e
            break
        for n in sc.nbrs(e):
            if n not in prev and board.permanent[n] < 0:
                prev[n] = e
                q.append(n)
    chain = []
    while board.permanent[goal] < 0:
        chain.append(goal)
        goal = prev[goal]
    chain.reverse()
    assert len(chain) == 4
    sc.act("build", player=RED)
    for _ in range(3):
        sc.act("pay_token")
    sc.act("pay_card", K["Wood Blewit"])
    sc.act("pay_card", K["Yellow Morel"])
    sc.act("pay_done")
    for e in chain:
        sc.act("place_path", e, player=RED)
        sc.pass_all_but(RED)
    assert sc.v["npaths"][RED] == 4 and sc.v["mat_spores"][RED] == 0
    obs = sc.game.observe(sc.s, RED)
    bonded_cave = int(obs[rules.O_BONDED + cave])
    assert obs[rules.O_BONDED + birch] >= 1 and bonded_cave >= 1
    sc.act("end_actions", player=RED)
    assert sc.v["mat_nut"][RED] == 1 and sc.v["mat_spores"][RED] == min(2, bonded_cave)


def test_picture_shows_only_what_the_viewer_may_see():
    """The SVG drawn for a seat does not move when what that seat cannot see is redrawn."""
    from mushgym.envs.mycelium.game import MyceliumGame
    from mushgym.render import draw_state

    g = MyceliumGame(num_players=4)
    rng = np.random.default_rng(4)
    s = g.new_state(4)
    checked = 0
    for step in range(900):
        if g.is_terminal(s):
            break
        if step % 60 == 0 or rules.STATE.arrays(s)["c_active"] and step % 3 == 0:
            for p in range(4):
                other = g.perturb_hidden(s, p, rng)
                assert draw_state(g, other, p).to_svg() == draw_state(g, s, p).to_svg()
                checked += 1
        legal = g.legal_actions(s)
        s = g.step(s, int(legal[rng.integers(legal.size)]))
    assert checked > 20
    rgb = draw_state(g, s, None).to_rgb()
    assert rgb.shape == (700, 1100, 3) and rgb.dtype == np.uint8


def test_an_overshooting_payment_stays_inside_the_observation_bounds():
    sc = Scenario(4, tp=BLUE)
    sc.v["mat_spores"][BLUE] = 11
    sc.act("build")
    for _ in range(11):
        if sc.legal("pay_token"):
            sc.act("pay_token")
    assert sc.v["decisions"][0][2] == 30 or sc.v["decisions"][0][2] == 33
    sc.v["decisions"][0][2] = 29
    sc.v["mat_spores"][BLUE] = 1
    sc.act("pay_token")  # 32 > 30: allowed, it was below the cap when paid
    obs = sc.game.observe(sc.s, BLUE)
    assert (obs <= sc.game.obs_high).all() and obs[rules.O_PAY] == 1.0
