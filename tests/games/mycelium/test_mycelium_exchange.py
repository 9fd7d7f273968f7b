"""Mycelium's Exchange by Mushling Card Type: "Discard 2 Mushling Cards of the same type", the
types being Builder, Thief, Enforcer, Warrior, Reinforcement, Wizard, Scout, Worker. The cards
are named only when there is a choice (a pick with one legal answer is made for the player)."""

import numpy as np
import pytest
from mycelium_helpers import K, Scenario

import mushgym
from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.data import MUSHLING_TYPES
from mushgym.envs.mycelium.game import MyceliumGame

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3
TY = {name: i for i, name in enumerate(MUSHLING_TYPES)}


def _block(sc, viewer):
    """The observation's Exchange fields of ``viewer``, by field."""
    o = np.asarray(sc.game.observe(sc.s, viewer), np.int64)
    full = np.zeros(rules.OBSERVATION.size, np.int64)
    full[: o.size] = o
    return rules.OBSERVATION.arrays(full)


def _names(sc):
    from mushgym.envs.mycelium.data import MUSHLING_NAMES

    return sorted(MUSHLING_NAMES[t] for t in range(rules.NUM_MUSHLING_KINDS) if sc.legal("card", t))


def test_two_warriors_of_different_cards_exchange_without_a_question():
    """Death Cap + Liberty Cap: two Warriors (different cards of one type) make an Exchange; with
    exactly two cards of the type the rules force both, so nothing is asked (RULES.md, "The
    Exchange by Mushling Card Type")."""
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Death Cap", "Liberty Cap")
    sc.top("Russula")
    assert sc.legal("exchange", TY["warrior"], 0) and sc.legal("exchange", TY["warrior"], 1 + GREEN)
    assert not any(sc.legal("exchange", TY[t], 0) for t in MUSHLING_TYPES if t != "warrior")
    sc.act("exchange", TY["warrior"], 0, player=BLUE)
    assert sc.top_kind() == -1 and sc.v["actions_used"] == 0  # no question; an Exchange cannot loop
    assert sc.v["discard"][K["Death Cap"]] == 1 and sc.v["discard"][K["Liberty Cap"]] == 1
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["hand"][BLUE, K["Russula"]] == 1


def test_two_copies_of_one_card_still_exchange():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Yellow Morel", "Yellow Morel", "Russula")
    cave = int(sc.board.cave_of_seat[RED])
    before = int(sc.v["loc_spores"][cave])
    sc.act("exchange", TY["worker"], 1 + RED)  # two copies of one card: one pair, not asked
    assert sc.top_kind() == -1
    assert sc.v["loc_spores"][cave] == before + 1 and sc.v["discard"][K["Yellow Morel"]] == 2
    assert sc.v["hand"][BLUE].sum() == 1 and sc.v["hand"][BLUE, K["Russula"]] == 1


def test_other_pairs_of_one_type_and_a_mixed_hand():
    """Chanterelle + Wood Blewit (Builders) and Night Light + Yellow Morel (Workers) exchange;
    a Warrior and a Scout do not."""
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Chanterelle", "Wood Blewit", "Night Light", "Yellow Morel", "Death Cap", "Russula")
    legal = {t for t in MUSHLING_TYPES if sc.legal("exchange", TY[t], 0)}
    assert legal == {"builder", "worker"}
    sc.act("exchange", TY["builder"], 0)
    assert sc.top_kind() == -1
    sc.act("exchange", TY["worker"], 0)
    assert sc.top_kind() == -1
    assert (
        sc.v["discard"][[K["Chanterelle"], K["Wood Blewit"], K["Night Light"], K["Yellow Morel"]]].tolist() == [1] * 4
    )
    assert sc.v["hand"][BLUE].sum() == 4  # Death Cap, Russula and 2 cards drawn


def test_three_builders_the_player_chooses_which_two():
    """Chanterelle x2 + Wood Blewit: the lower card is named first, and only Chanterelle can be,
    so it is named for the player (discarded at once); the second is the player's choice on
    the stack: Chanterelle or Wood Blewit."""
    for second, kept in (("Wood Blewit", "Chanterelle"), ("Chanterelle", "Wood Blewit")):
        sc = Scenario(4, tp=BLUE)
        sc.give(BLUE, "Chanterelle", "Chanterelle", "Wood Blewit")
        sc.top("Death Cap")
        sc.act("exchange", TY["builder"], 1 + BLUE)
        assert sc.top_kind() == rules.D_EXCHANGE and sc.who() == BLUE
        assert _names(sc) == ["Chanterelle", "Wood Blewit"]
        assert sc.v["discard"][K["Chanterelle"]] == 1  # the first card named is discarded
        blk = _block(sc, GREEN)  # public: another player sees the Exchange in question
        assert blk["exchange_decision"] == 1 and blk["exchange_type"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
        assert blk["exchange_option"][(BLUE - GREEN) % 4 + 1] == 1 and blk["exchange_first"][K["Chanterelle"]] == 1
        assert sc.game.observe(sc.s, BLUE)[rules.O_DKIND : rules.O_DKIND + rules.NUM_D_BASE].sum() == 0
        cave = int(sc.board.cave_of_seat[BLUE])
        before = int(sc.v["loc_spores"][cave])
        sc.act("card", K[second], player=BLUE)
        assert sc.top_kind() == -1 and sc.v["loc_spores"][cave] == before + 1
        hand = {n: int(sc.v["hand"][BLUE, K[n]]) for n in ("Chanterelle", "Wood Blewit") if sc.v["hand"][BLUE, K[n]]}
        assert hand == {kept: 1} and sc.v["deck"][int(sc.v["deck_n"]) - 1] == K["Death Cap"]  # spawn: no draw
        assert _block(sc, BLUE)["exchange_decision"] == 0


def test_three_warriors_two_picks_each_pair_named_one_way():
    """Common Puffball, Death Cap, Liberty Cap: first Puffball or Death Cap (Liberty Cap, the
    highest id, has no higher partner); each of the 3 pairs is reached exactly one way."""
    outcomes = []
    for first in ("Common Puffball", "Death Cap"):
        sc = Scenario(4, tp=BLUE)
        sc.give(BLUE, "Common Puffball", "Death Cap", "Liberty Cap")
        sc.act("exchange", TY["warrior"], 0)
        assert _names(sc) == ["Common Puffball", "Death Cap"]
        sc.act("card", K[first])
        if first == "Death Cap":  # Liberty Cap is the only partner left: named for the player
            assert sc.top_kind() == -1
            outcomes.append(("Death Cap", "Liberty Cap"))
            continue
        assert sc.top_kind() == rules.D_EXCHANGE
        for second in _names(sc):
            s2 = Scenario(4, tp=BLUE)
            s2.s[...] = sc.s
            s2.act("card", K[second])
            assert s2.top_kind() == -1
            outcomes.append(tuple(n for n in ("Common Puffball", "Death Cap", "Liberty Cap") if s2.v["discard"][K[n]]))
    assert sorted(outcomes) == [
        ("Common Puffball", "Death Cap"),
        ("Common Puffball", "Liberty Cap"),
        ("Death Cap", "Liberty Cap"),
    ]


def test_the_team_game_and_the_2_player_game():
    """Team rules: a Trade-era hand exchanges by type too; the 2-player game: the agent acting
    for Red exchanges Red's two Reinforcements into its other Colony's (Blue's) cave."""
    from test_mycelium_team import TeamScenario

    sc = TeamScenario(4, tp=GREEN)
    sc.give(GREEN, "Fly Agaric", "Penny Bun", "Inky Cap")  # three Enforcers
    sc.top("Russula")
    sc.act("exchange", TY["enforcer"], 0, player=GREEN)
    assert sc.top_kind() == rules.D_EXCHANGE and _names(sc) == ["Fly Agaric", "Inky Cap"]
    sc.act("card", K["Inky Cap"], player=GREEN)  # keeps the Fly Agaric: Penny Bun is the only second
    assert sc.top_kind() == -1
    assert {t: int(c) for t, c in enumerate(sc.v["hand"][GREEN]) if c} == {K["Fly Agaric"]: 1, K["Russula"]: 1}
    assert sc.v["discard"][K["Inky Cap"]] == 1 and sc.v["discard"][K["Penny Bun"]] == 1

    two = TeamScenario(2, tp=RED)
    two.give(RED, "Blue Oyster", "Pink Oyster")
    assert two.who() == 0  # agent 0 acts for Blue and Red
    cave = int(two.board.cave_of_seat[BLUE])
    before = int(two.v["loc_spores"][cave])
    assert two.legal("exchange", TY["reinforcement"], 1 + BLUE)
    two.act("exchange", TY["reinforcement"], 1 + BLUE, player=0)
    assert two.v["loc_spores"][cave] == before + 1 and two.v["hand"][RED].sum() == 0


def test_pickaxe_applies_to_the_exchange_by_type():
    from test_mycelium_emsporium import own

    sc = Scenario(4, tp=BLUE, emsporium=True)
    own(sc, BLUE, "Pickaxe")
    sc.give(BLUE, "Veiled Lady", "Truffle")  # two Wizards
    cave = int(sc.board.cave_of_seat[BLUE])
    before = int(sc.v["loc_spores"][cave])
    sc.act("exchange", TY["wizard"], 1 + BLUE)
    assert sc.v["loc_spores"][cave] == before + 2


def test_the_type_is_the_card_files_field(tmp_path):
    """A card file that types Death Cap as a Scout exchanges it with a Russula."""
    from mushgym.envs.mycelium.data import CARDS_PATH

    text = CARDS_PATH.read_text()
    i = text.index('name = "Death Cap"')
    cards = tmp_path / "cards.toml"
    cards.write_text(text[:i] + text[i:].replace('type = "warrior"', 'type = "scout"', 1))

    class Custom(MyceliumGame):
        cards_path = str(cards)

    sc = Scenario(4, tp=BLUE, game_class=Custom)
    sc.give(BLUE, "Death Cap", "Russula")
    assert sc.legal("exchange", TY["scout"], 0) and not sc.legal("exchange", TY["warrior"], 0)


def test_spaces_ids_and_text():
    """The Exchange group is exchange(type, option): 8 x 5 ids right after build; its observation
    fields are the base game's."""
    g = MyceliumGame()
    assert g.encode_action("exchange", 0, 0) == 2 and g.encode_action("exchange", 7, 4) == 41
    assert g.decode_action(42) == ("attack", (0, 0)) and "unused" not in g.actions.groups
    s = g.new_state(0)
    assert "exchange 2 warrior cards: draw a card" == g.action_to_string(s, g.encode_action("exchange", 3, 0))
    assert rules.OBSERVATION.fields["exchange_first"].offset + rules.NUM_MUSHLING_KINDS <= rules.OBS_SIZE_BASE


def _random_checks(game, games, seed):
    """Random play: the Exchange is offered exactly for the types with 2 cards, never by card;
    the choice is asked only with 2 answers or more; each Exchange discards 2 cards of its type."""
    rng = np.random.default_rng(seed)
    types = game.config[rules.CFG_CARD_TYPE : rules.CFG_CARD_TYPE + rules.NUM_MUSHLING_KINDS]
    asked = exchanged = 0
    for g in range(games):
        s = game.new_state(seed + g)
        while not game.is_terminal(s):
            v = rules.STATE.arrays(s)
            mask = game.legal_mask(s)
            depth = int(v["decisions_n"])
            top = v["decisions"][depth - 1] if depth else None
            if depth and top[0] == rules.D_EXCHANGE:
                asked += 1
                assert np.flatnonzero(mask).size >= 2, "a pick with one answer is asked"
                assert all(types[a - rules.A_CARD] == top[2] for a in np.flatnonzero(mask))
                game.validate(s)
            elif depth == 0 and int(v["phase"]) == rules.PH_ACTION:
                p = int(v["turn_player"])
                per_type = np.bincount(types, weights=v["hand"][p], minlength=8)
                for ct in range(8):
                    assert bool(mask[rules.exchange_action(ct, 0)]) == (per_type[ct] >= 2)
            legal = np.flatnonzero(mask)
            a = int(legal[rng.integers(legal.size)])
            if depth == 0 and 2 <= a < 42:
                exchanged += 1
                assert rules.D_EXCHANGE not in v["decisions"][:depth, 0]
                ct, _o = rules.exchange_args(a)
                p = int(v["turn_player"])
                before = np.bincount(types, weights=v["hand"][p], minlength=8)[ct]
                disc = v["discard"].copy()
                game.step_inplace(s, a)
                while (
                    not game.is_terminal(s)
                    and int(v["decisions_n"])
                    and v["decisions"][int(v["decisions_n"]) - 1][0] == rules.D_EXCHANGE
                ):
                    m = np.flatnonzero(game.legal_mask(s))
                    game.step_inplace(s, int(m[rng.integers(m.size)]))
                added = v["discard"] - disc
                if not (added < 0).any():  # (a reshuffle of the discard pile to draw makes it unreadable)
                    assert added.sum() == 2 and (types[added > 0] == ct).all()
                    assert np.bincount(types, weights=v["hand"][p], minlength=8)[ct] >= before - 2
                continue
            game.step_inplace(s, a)
    return asked, exchanged


@pytest.mark.parametrize(
    "options",
    [{}, {"num_players": 3}, {"team": True, "emsporium": True}, {"num_players": 2}],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "default",
)
def test_random_games_offer_the_exchange_by_type_only(options):
    game = MyceliumGame(turn_limit=60, **options)
    asked, exchanged = _random_checks(game, 3, 11)
    assert exchanged > 0


def test_the_validator_places_the_exchange_decision():
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Chanterelle", "Chanterelle", "Wood Blewit")
    sc.act("exchange", TY["builder"], 0)  # the first Chanterelle is forced: named for the player
    sc.game.validate(sc.s)
    top = int(sc.v["decisions_n"]) - 1
    for col, value, words in (
        (4, 1 + K["Death Cap"], "argument outside"),  # a first card of another type
        (2, TY["warrior"], "argument outside"),
        (1, GREEN, "misplaced"),
    ):
        bad = sc.s.copy()
        rules.STATE.arrays(bad)["decisions"][top, col] = value
        with pytest.raises(ValueError, match=words):
            sc.game.validate(bad)
    # a choice with one answer left is never asked (the rules force it)
    one = sc.s.copy()
    rules.STATE.arrays(one)["hand"][BLUE, K["Wood Blewit"]] = 0
    rules.STATE.arrays(one)["discard"][K["Wood Blewit"]] += 1
    with pytest.raises(ValueError, match="never asks"):
        sc.game.validate(one)
    # a choice with no card left to name is never asked
    none = sc.s.copy()
    for name in ("Chanterelle", "Wood Blewit"):
        rules.STATE.arrays(none)["hand"][BLUE, K[name]] = 0
        rules.STATE.arrays(none)["discard"][K[name]] += 1
    with pytest.raises(ValueError, match="never asks"):
        sc.game.validate(none)


def test_greedy_names_the_cheapest_pair():
    from mushgym.envs.mycelium import greedy

    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Amethyst Deceiver", "Chicken of the Woods", "Death Cap")  # Death Cap is worth keeping
    sc.act("exchange", TY["warrior"], 0)
    mask = sc.game.legal_mask(sc.s)
    scores = greedy.heuristic(sc.game, sc.s, BLUE, sc.game.observe(sc.s, BLUE), mask)
    assert int(np.argmax(scores)) == rules.A_CARD + K["Amethyst Deceiver"]
    sc.act("card", K["Amethyst Deceiver"])
    mask = sc.game.legal_mask(sc.s)
    scores = greedy.heuristic(sc.game, sc.s, BLUE, sc.game.observe(sc.s, BLUE), mask)
    assert int(np.argmax(scores)) == rules.A_CARD + K["Chicken of the Woods"]


def test_greedy_plays_to_the_end():
    from mushgym.agents import GreedyAgent

    game = mushgym.game("mycelium_v2", num_players=3, turn_limit=60)
    agent = GreedyAgent()
    exchanges = 0
    for seed in range(3):
        s = game.new_state(seed)
        while not game.is_terminal(s):
            a = agent.act_state(game, s, game.current_player(s))
            exchanges += 2 <= a < 42 and int(s[rules.STATE.fields["decisions_n"].offset]) == 0
            game.step_inplace(s, int(a))
        assert game.returns(s).max() == 1.0  # decided (10 Nutrients) within 60 turns
    assert exchanges > 0


def test_a_card_file_keeps_the_types_the_abilities_name(tmp_path):
    """Builder pairs, Thief pairs, Common Puffball's 'any Thief' and the reinforcement round are
    coded for their two cards: a file typing a third card so is refused, naming it."""
    from mushgym.envs.mycelium.data import CARDS_PATH, MyceliumDataError, load_mushlings

    text = CARDS_PATH.read_text()
    for card, old, new in (
        ("Russula", 'type = "scout"', 'type = "builder"'),
        ("Death Cap", 'type = "warrior"', 'type = "thief"'),
        ("Blue Oyster", 'type = "reinforcement"', 'type = "wizard"'),
    ):
        i = text.index(f'name = "{card}"')
        bad = tmp_path / "cards.toml"
        bad.write_text(text[:i] + text[i:].replace(old, new, 1))
        with pytest.raises(MyceliumDataError, match=rf"cards.toml: mushling '{card}': field 'type'"):
            load_mushlings(bad)


def test_the_docstring_is_generated_from_the_layouts():
    """env.py fills its docstring's placeholders from the layouts on import
    (mushgym.docsite.fill_env_docstring): no placeholder is left and every table is there."""
    import mushgym.envs.mycelium_v2 as env

    assert "@" not in env.__doc__.replace("@njit", "")
    for table in (rules.ACTION_SPACE.table(), rules.OBSERVATION.table(), rules.STATE.table()):
        assert table in env.__doc__
    assert "| 2..41 | `exchange` | type=8 x option=5 |" in env.__doc__
    assert "### Version history" in env.__doc__ and "* v2" in env.__doc__


def test_a_redraw_keeps_the_cards_of_a_pending_exchange():
    """While Blue chooses its Exchange's cards, what others cannot see is redrawn but Blue's
    cards of that type (what it discards next is among them)."""
    sc = Scenario(4, tp=BLUE)
    sc.give(BLUE, "Common Puffball", "Death Cap", "Liberty Cap", "Russula", "Veiled Lady", "Penny Bun")
    sc.act("exchange", TY["warrior"], 0)
    sc.act("card", K["Common Puffball"])  # then Death Cap or Liberty Cap: a choice
    rng = np.random.default_rng(0)
    moved = False
    for _ in range(20):
        other = sc.game.perturb_hidden(sc.s, GREEN, rng)
        sc.game.validate(other)
        hand = rules.STATE.arrays(other)["hand"][BLUE]
        assert hand[K["Death Cap"]] >= 1 and hand[K["Liberty Cap"]] >= 1 and hand.sum() == 5
        moved |= not np.array_equal(hand, sc.v["hand"][BLUE])
    assert moved
