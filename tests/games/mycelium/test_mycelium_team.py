"""Mycelium's Team variant (``team=True``) and 2-player game (``num_players=2``): the rulebook's
"Team/2 Player (Variant)" rules as scenarios, the options, the spaces and hidden information."""

import numpy as np
import pytest
from mycelium_helpers import K, Scenario

from mushgym.envs.mycelium import rules
from mushgym.envs.mycelium.game import MyceliumGame

BLUE, GREEN, RED, BEIGE = 0, 1, 2, 3  # seats, clockwise: teams Blue + Red (0, 2) and Green + Beige (1, 3)


class TeamScenario(Scenario):
    """A Scenario under the Team rules (4 agents) or the 2-player game (2 agents, 4 seats)."""

    def __init__(self, num_players=4, tp=BLUE, seed=0, **options):
        if num_players == 4:
            options.setdefault("team", True)
        super().__init__(num_players=num_players, tp=tp, seed=seed, **options)
        self.n = self.game.num_seats
        self.v["first_player"][...] = (tp - 1) % self.n  # turn 1 is tp's (4 seats, also in the 2-player game)
        self.v["gatherer"][...] = -1

    def seat(self):
        n = int(self.v["decisions_n"])
        return int(self.v["decisions"][n - 1][1]) if n else int(self.v["turn_player"])

    def chain_to(self, p, gloc):
        """Paths of ``p`` from its Colony to an edge of ``gloc`` (shortest)."""
        from collections import deque

        board = self.board
        start = self.ring(p)
        prev = {e: None for e in start}
        q = deque(start)
        goal = None
        target = {int(x) for x in board.gloc_edges[gloc] if x >= 0}
        while q:
            e = q.popleft()
            if e in target:
                goal = e
                break
            for n in self.nbrs(e):
                if n not in prev and board.permanent[n] < 0:
                    prev[n] = e
                    q.append(n)
        while goal is not None and board.permanent[goal] < 0:
            self.path(p, goal)
            goal = prev[goal]


# --- options and spaces ------------------------------------------------------------------------


def test_options_team_needs_four_players_or_two_and_the_base_spaces_do_not_move():
    with pytest.raises(ValueError, match=r"team=True needs 4 players.*num_players=2.*Allowed"):
        MyceliumGame(num_players=3, team=True)
    with pytest.raises(ValueError, match=r"valid choices are \[False, True\]"):
        MyceliumGame(team="yes")
    base, team, two = MyceliumGame(), MyceliumGame(team=True), MyceliumGame(num_players=2)
    assert (
        (base.num_actions, base.observation_shape)
        == (rules.NUM_ACTIONS_BASE, (rules.OBS_SIZE_BASE,))
        == (1235, (1506,))
    )
    # the Team block follows the items' block (Emsporium, Hero Tavern, Legends): a Team game's spaces are the full ones
    assert (team.num_actions, team.observation_shape) == (rules.NUM_ACTIONS, (rules.OBS_SIZE,)) == (1294, (1705,))
    assert two.num_players == 2 and two.num_seats == 4 and two.team_rules and len(two.board.colours) == 4
    assert base.encode_action("arrange", 3) == 1234 and team.encode_action("arrange", 3) == 1234
    assert team.encode_action("trade", 0) == rules.NUM_ACTIONS_ITEMS and rules.O_TEAM_DKIND == rules.OBS_SIZE_ITEMS
    # the base game never offers a Team action nor fills a Team observation field
    s = base.new_state(1)
    assert (
        not base.legal_mask(s)[rules.NUM_ACTIONS_BASE - 1 :].any() or base.legal_mask(s).size == rules.NUM_ACTIONS_BASE
    )


def test_teams_alternate_in_turn_order():
    sc = TeamScenario(tp=BLUE)
    order = [BLUE]
    for _ in range(4):
        sc.end_turn_on_mush_room((order[-1] + 1) % 4)
        order.append(int(sc.v["turn_player"]))
    assert order == [BLUE, GREEN, RED, BEIGE, BLUE]
    assert [p % 2 for p in order] == [0, 1, 0, 1, 0]  # Blue + Red against Green + Beige, alternating


# --- Trade --------------------------------------------------------------------------------------


def test_trade_needs_both_teammates_consent_and_shows_the_cards_to_everyone():
    """Rulebook, Trade Action: "Both teammates must consent to the Trade": the teammate names what
    it gives back, then the proposer accepts it."""
    sc = TeamScenario(tp=BLUE)
    sc.give(BLUE, "Death Cap", "Yellow Morel")
    sc.give(RED, "Chanterelle", "Chanterelle")
    sc.v["mat_spores"][RED] = 0
    assert sc.legal("trade", K["Death Cap"]) and sc.legal("trade", rules.NUM_MUSHLING_KINDS)  # a card or a Spore Token
    assert not sc.legal("trade", K["Chanterelle"])  # only what Blue holds
    sc.act("trade", K["Death Cap"], player=BLUE)
    assert sc.seat() == RED and sc.top_kind() == rules.D_TRADE
    assert sc.legal("pass") and sc.legal("trade", K["Chanterelle"]) and not sc.legal("trade", rules.NUM_MUSHLING_KINDS)
    sc.act("trade", K["Chanterelle"], player=RED)
    # the proposer consents to what comes back (or refuses): nothing has moved yet
    assert sc.seat() == BLUE and sc.top_kind() == rules.D_TRADE and sc.v["hand"][BLUE, K["Death Cap"]] == 1
    assert sc.legal("pass") and sc.legal("trade", K["Chanterelle"]) and not sc.legal("trade", K["Death Cap"])
    obs = sc.game.observe(sc.s, GREEN)  # the other team sees the offer and what comes back
    assert obs[rules.O_TRADE_OFFER + K["Death Cap"]] == 1 and obs[rules.O_TRADE_BACK + K["Chanterelle"]] == 1
    sc.act("trade", K["Chanterelle"], player=BLUE)
    h = sc.v["hand"]
    assert h[BLUE, K["Chanterelle"]] == 1 and h[BLUE, K["Death Cap"]] == 0
    assert h[RED, K["Death Cap"]] == 1 and h[RED, K["Chanterelle"]] == 1
    # shown to everyone: the other team knows where both cards went
    for viewer in (GREEN, BEIGE):
        assert sc.v["known"][viewer, RED, K["Death Cap"]] == 1
        assert sc.v["known"][viewer, BLUE, K["Chanterelle"]] == 1
    # once per turn
    assert not any(sc.legal("trade", k) for k in range(rules.NUM_MUSHLING_KINDS + 1))
    assert sc.v["trade_used"] == 1


def test_a_refused_trade_moves_nothing_and_leaves_the_turns_trade():
    """A refused offer is no Trade ("This action allows you and your teammate to exchange ...;
    Both teammates must consent"): the turn's one Trade is still there; the kind refused is not
    offered again this turn (RULES.md, Team variant 2)."""
    sc = TeamScenario(tp=GREEN)
    sc.give(GREEN, "Fly Agaric")
    sc.give(BEIGE, "Penny Bun")
    spores = sc.v["mat_spores"].copy()
    sc.act("trade", rules.NUM_MUSHLING_KINDS, player=GREEN)  # a Spore Token offered
    sc.act("pass", player=BEIGE)
    assert (sc.v["mat_spores"] == spores).all() and sc.v["hand"][BEIGE, K["Penny Bun"]] == 1
    assert (
        sc.v["trade_used"] == 0
        and sc.legal("trade", K["Fly Agaric"])
        and not sc.legal("trade", rules.NUM_MUSHLING_KINDS)
    )
    sc.act("trade", K["Fly Agaric"], player=GREEN)  # the proposer refuses what comes back
    sc.act("trade", K["Penny Bun"], player=BEIGE)
    sc.act("pass", player=GREEN)
    assert sc.v["hand"][GREEN, K["Fly Agaric"]] == 1 and sc.v["hand"][BEIGE, K["Penny Bun"]] == 1
    assert sc.v["trade_used"] == 0 and not any(
        sc.legal("trade", k) for k in range(rules.NUM_MUSHLING_KINDS + 1)
    )  # both kinds tried
    # a Spore Token for a card
    sc2 = TeamScenario(tp=GREEN)
    sc2.give(BEIGE, "Penny Bun")
    sc2.act("trade", rules.NUM_MUSHLING_KINDS, player=GREEN)
    sc2.act("trade", K["Penny Bun"], player=BEIGE)
    sc2.act("trade", K["Penny Bun"], player=GREEN)
    assert sc2.v["mat_spores"][GREEN] == 2 and sc2.v["mat_spores"][BEIGE] == 4
    assert sc2.v["hand"][GREEN, K["Penny Bun"]] == 1
    # no Trade when the teammate has neither a card nor a Spore Token; the turn resets it
    sc3 = TeamScenario(tp=GREEN)
    sc3.give(GREEN, "Fly Agaric")
    sc3.v["mat_spores"][BEIGE] = 0
    assert not sc3.legal("trade", K["Fly Agaric"])
    sc2.end_turn_on_mush_room(RED)
    assert sc2.v["trade_used"] == 0 and sc2.v["trade_offers"] == 0


# --- no friendly fire -------------------------------------------------------------------------


def test_no_attack_on_a_teammates_path_but_on_the_other_team():
    sc = TeamScenario(tp=BLUE)
    sc.give(BLUE, "Death Cap", "Parrot Toadstool", "Russula")
    e = sc.spokes(BLUE)[0]
    sc.path(BLUE, e)
    f = [x for x in sc.nbrs(e) if sc.board.permanent[x] < 0 and x != e][0]
    sc.path(RED, f)
    sc.path(GREEN, f)
    slot_red = int(np.flatnonzero(sc.v["paths"][f] == RED + 1)[0])
    slot_green = 1 - slot_red
    assert not sc.legal("attack", f, slot_red) and not sc.legal("parrot_attack", f, slot_red)
    assert sc.legal("attack", f, slot_green) and sc.legal("parrot_attack", f, slot_green)
    # the same position without the Team rules: Red is an opponent
    base = Scenario(4, tp=BLUE)
    base.give(BLUE, "Death Cap")
    base.path(BLUE, e)
    base.path(RED, f)
    assert base.legal("attack", f, 0)


# --- gathering: optional, 10 per Colony, 15 per team -------------------------------------------------


def test_gathering_is_optional_token_by_token_and_the_mush_room_still_draws():
    sc = TeamScenario(tp=RED)
    birch = sc.gloc("Birch")
    sc.v["loc_nut"][birch] = 2
    sc.chain_to(RED, birch)
    cave = int(sc.board.cave_of_seat[RED])
    sc.v["loc_spores"][cave] = 2
    sc.v["gatherer"][RED] = [birch, cave, sc.gloc("Mush Room")]
    hand0 = int(sc.v["hand"][RED].sum())
    sc.act("end_actions", player=RED)
    # first the cave (locations in order: caves, trees): up to 1 spore (1 gatherer)
    assert sc.top_kind() == rules.D_GATHER
    assert sc.legal("gather_take", 0) and sc.legal("gather_take", 1) and not sc.legal("gather_take", 2)
    sc.act("gather_take", 1, player=RED)
    # then Birch: 1 gatherer, 1 bonded Path, 2 Nutrients -> at most 1; Red leaves it for Blue
    assert sc.top_kind() == rules.D_GATHER and int(sc.v["decisions"][0][3]) == birch
    assert sc.legal("gather_take", 1) and not sc.legal("gather_take", 2)
    sc.act("gather_take", 0, player=RED)
    assert sc.v["loc_nut"][birch] == 2 and sc.v["mat_nut"][RED] == 0
    assert sc.v["mat_spores"][RED] == 4 and sc.v["hand"][RED].sum() == hand0 + 1  # the Mush Room draws
    assert (sc.v["gatherer"][RED] == -1).all() and sc.v["phase"] == rules.PH_PLACE and sc.v["decisions_n"] == 0


def test_ten_nutrients_per_colony_the_excess_returns_to_the_supply():
    sc = TeamScenario(tp=RED)
    willow = sc.game.board.willow
    sc.v["loc_nut"][willow] = 3
    sc.chain_to(RED, willow)
    # a second bonded Path on the Willow: its edge next to the chain's end
    wedges = [int(x) for x in sc.board.gloc_edges[willow] if x >= 0]
    mine = [e for e in wedges if (sc.v["paths"][e] == RED + 1).any()]
    sc.path(RED, next(e for e in wedges if e not in mine and mine[0] in sc.nbrs(e)))
    sc.v["gatherer"][RED] = [willow, willow, willow]
    sc.v["mat_nut"][RED] = 9
    supply0 = rules.NUTRIENT_TOKENS - int(sc.v["mat_nut"].sum() + sc.v["loc_nut"].sum())
    sc.act("end_actions", player=RED)
    take = np.flatnonzero(
        sc.game.legal_mask(sc.s)[rules.A_GATHER_TAKE : rules.A_GATHER_TAKE + rules.MAX_GATHER_TAKE + 1]
    ).max()
    assert take == 2
    sc.act("gather_take", int(take), player=RED)
    assert sc.v["mat_nut"][RED] == 10 and not sc.v["done"]  # 10 alone does not win a team game
    supply = rules.NUTRIENT_TOKENS - int(sc.v["mat_nut"].sum() + sc.v["loc_nut"].sum())
    assert supply == supply0 + 1 and sc.v["loc_nut"][willow] == 3 - take


@pytest.mark.parametrize("num_players", [4, 2])
def test_the_first_team_to_fifteen_wins_at_once_and_shares_the_reward(num_players):
    sc = TeamScenario(num_players=num_players, tp=BLUE)
    cave = int(sc.board.cave_of_seat[BLUE])
    oak = sc.gloc("Oak")
    sc.chain_to(BLUE, oak)
    sc.v["loc_nut"][oak] = 1
    sc.v["gatherer"][BLUE] = [oak, cave, -1]
    sc.v["mat_nut"][[BLUE, RED, GREEN, BEIGE]] = [4, 10, 9, 5]  # Green + Beige hold 14: no win for them
    sc.act("end_actions")
    while sc.top_kind() == rules.D_GATHER:
        legal = np.flatnonzero(
            sc.game.legal_mask(sc.s)[rules.A_GATHER_TAKE : rules.A_GATHER_TAKE + rules.MAX_GATHER_TAKE + 1]
        )
        sc.act("gather_take", int(legal.max()))
    assert sc.v["done"] == rules.DONE_RULES and sc.v["winner"] == BLUE
    expected = [1.0, -1.0, 1.0, -1.0] if num_players == 4 else [1.0, -1.0]
    assert sc.game.returns(sc.s).tolist() == expected


def test_bird_nest_gathering_is_optional_too():
    sc = TeamScenario(tp=GREEN)
    oak = sc.gloc("Oak")
    sc.chain_to(BLUE, oak)
    sc.give(BLUE, "Bird's Nest")
    sc.v["gatherer"][BLUE] = [oak, -1, -1]
    sc.v["loc_nut"][oak] = 1
    # Green ends its turn; Red's turn draws a nutrient card: put an Oak card on top
    oak_kind = sc.game.nutrients.names.index("Oak")
    nn = int(sc.v["ndeck_n"])
    pos = int(np.flatnonzero(sc.v["ndeck"][:nn] == oak_kind)[0])
    sc.v["ndeck"][pos], sc.v["ndeck"][nn - 1] = sc.v["ndeck"][nn - 1], sc.v["ndeck"][pos]
    sc.act("end_actions", player=GREEN)
    for _ in range(3):
        sc.act("place_gatherer", sc.gloc("Mush Room"))
    while sc.v["phase"] == rules.PH_DISCARD:
        sc.act("card", int(np.flatnonzero(sc.v["hand"][GREEN])[0]))
    while sc.seat() != BLUE:
        sc.act("pass")
    assert sc.top_kind() == rules.D_BN
    sc.act("birds_nest", 0)
    while sc.top_kind() == rules.D_FA:
        sc.act("pass")
    assert sc.top_kind() == rules.D_GATHER and sc.seat() == BLUE
    sc.act("gather_take", 0)
    assert sc.v["loc_nut"][oak] == 2 and sc.v["mat_nut"][BLUE] == 0 and sc.v["gatherer"][BLUE, 0] == -1


# --- the 2-player game ------------------------------------------------------------------------------


def test_two_player_agents_act_for_two_diagonal_colonies_and_see_both_hands():
    sc = TeamScenario(num_players=2, tp=RED)
    g = sc.game
    sc.give(RED, "Veiled Lady")
    sc.give(BLUE, "Death Cap", "Penny Bun")
    sc.give(GREEN, "Fly Agaric")
    assert g.current_player(sc.s) == 0  # Red's turn: agent 0
    obs = g.observe(sc.s, 0)
    ob = rules.OBSERVATION.arrays(obs) if hasattr(rules.OBSERVATION, "arrays") else None
    hand = obs[rules.O_HAND : rules.O_HAND + rules.NUM_MUSHLING_KINDS]
    partner = obs[rules.O_PARTNER_HAND : rules.O_PARTNER_HAND + rules.NUM_MUSHLING_KINDS]
    assert hand[K["Veiled Lady"]] == 1 and partner[K["Death Cap"]] == 1 and partner[K["Penny Bun"]] == 1
    assert obs[rules.O_CONTROLLED] == 1 and obs[rules.O_CONTROLLED + 2] == 1
    del ob
    # Veiled Lady views 4 cards: everything counts as a 4-player game
    sc.act("veiled_lady")
    sc.pass_all_but()
    while sc.top_kind() == rules.D_FA:
        sc.act("pass")
    nn = int(sc.v["ndeck_n"])
    assert sc.v["nseen"][RED, nn - 4 : nn].all() and not sc.v["nseen"][RED, : nn - 4].any()
    # agent 0's observation shows those cards when it acts for Blue too
    seen = obs_known = (
        g.observe(sc.s, 0)[rules.O_NKNOWN : rules.O_NKNOWN + 4 * rules.MAX_NUTRIENT_KINDS]
        .reshape(4, rules.MAX_NUTRIENT_KINDS)
        .sum()
    )
    assert seen == 4 and obs_known == 4


def test_two_player_reactions_from_either_hand_and_the_aec_agent_follows_the_seat():
    sc = TeamScenario(num_players=2, tp=GREEN)
    g = sc.game
    sc.give(GREEN, "Wood Blewit", "Wood Blewit")
    sc.give(RED, "Penny Bun")
    e = sc.spokes(GREEN)[0]
    # a Red Path next to Green's first spoke: Red (agent 0) may Penny Bun it
    f = [x for x in sc.nbrs(e) if sc.board.permanent[x] < 0][0]
    sc.path(RED, f)
    sc.act("builder_pair", 2)
    while sc.top_kind() == rules.D_FA:
        sc.act("pass")
    assert sc.top_kind() == rules.D_PLACE_PATH and g.current_player(sc.s) == 1
    sc.act("place_path", e)
    while sc.top_kind() == rules.D_PATHWIN and sc.seat() != RED:
        sc.act("pass")
    assert sc.seat() == RED and g.current_player(sc.s) == 0 and sc.legal("penny_bun")
    sc.act("penny_bun")
    while sc.top_kind() == rules.D_FA:
        sc.act("pass")
    assert not (sc.v["paths"][e] == GREEN + 1).any()


def test_two_player_aec_env_has_two_agents_and_shared_rewards():
    from mushgym.envs import mycelium_v2

    env = mycelium_v2.raw_env(num_players=2, turn_limit=60, turn_limit_end="score")
    env.reset(seed=3)
    assert env.possible_agents == ["player_0", "player_1"]
    rng = np.random.default_rng(3)
    seats_by_agent = {"player_0": set(), "player_1": set()}
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(200_000):
        obs, rew, term, trunc, _ = env.last()
        total[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        s = env.state()
        v = rules.STATE.arrays(s)
        n = int(v["decisions_n"])
        seat = int(v["decisions"][n - 1][1]) if n else int(v["turn_player"])
        seats_by_agent[agent].add(seat)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    assert seats_by_agent == {"player_0": {0, 2}, "player_1": {1, 3}}
    assert total["player_0"] == -total["player_1"] and total["player_0"] in (-1.0, 0.0, 1.0)


# --- hidden information ------------------------------------------------------------------------------


def _random_states(game, n=3, every=7, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for g in range(n):
        s = game.new_state(seed + g)
        t = 0
        while not game.is_terminal(s) and t < 1200:
            if t % every == 0:
                out.append(s.copy())
            legal = game.legal_actions(s)
            game.step_inplace(s, int(legal[rng.integers(legal.size)]))
            t += 1
    return out


def _swappable(v, t):
    """Deck positions (below a Witch's Hat's public set) holding another type than ``t``."""
    return np.flatnonzero(v["deck"][: int(v["deck_n"]) - int(v["deck_top_n"])] != t)


def test_a_teammates_hand_stays_hidden_from_its_teammate():
    game = MyceliumGame(team=True)
    moved = 0
    for s in _random_states(game, n=2):
        v = rules.STATE.arrays(s)
        for p in range(4):
            mate = (p + 2) % 4
            free = v["hand"][mate] - v["known"][p, mate]
            free[game.kept_in_hand(s, mate)] = 0  # a pending choice's cards stay in its player's hand
            kinds = np.flatnonzero(free)
            if kinds.size == 0:
                continue
            other = s.copy()
            ov = rules.STATE.arrays(other)
            t = int(kinds[0])
            cand = _swappable(ov, t)  # swap with a deck card
            if cand.size == 0:
                continue
            u = int(cand[0])
            ov["hand"][mate, t] -= 1
            ov["hand"][mate, int(ov["deck"][u])] += 1
            ov["deck"][u] = t
            ov["known"][:, mate] = np.minimum(
                ov["known"][:, mate], ov["hand"][mate]
            )  # the others' knowledge stays true
            game.validate(other)
            np.testing.assert_array_equal(game.observe(s, p), game.observe(other, p))
            moved += 1
    assert moved > 10


def _offered(v, seat):
    """The kind a pending Trade names in ``seat``'s hand (public: the offer of the turn player, the
    card its teammate gives back; it stays in that hand), -1 none."""
    d = int(v["decisions_n"])
    if d and int(v["decisions"][d - 1][0]) == rules.D_TRADE:
        tp, back = int(v["turn_player"]), int(v["decisions"][d - 1][3])
        if seat == tp:
            return int(v["decisions"][d - 1][2])
        if seat == (tp + 2) % 4 and back > 0:
            return back - 1
    return -1


def test_two_player_an_agent_sees_its_other_hand_but_not_the_opponents():
    game = MyceliumGame(num_players=2)
    moved = seen = 0
    for s in _random_states(game, n=2):
        v = rules.STATE.arrays(s)
        for seat in range(4):
            hand = v["hand"][seat].copy()
            if 0 <= _offered(v, seat) < rules.NUM_MUSHLING_KINDS:  # a pending Trade's card stays in its hand
                hand[_offered(v, seat)] -= 1
            hand[game.kept_in_hand(s, seat)] = 0
            kinds = np.flatnonzero(hand)
            if kinds.size == 0:
                continue
            other = s.copy()
            ov = rules.STATE.arrays(other)
            t = int(kinds[0])
            cand = _swappable(ov, t)
            if cand.size == 0:
                continue
            u = int(cand[0])
            ov["hand"][seat, t] -= 1
            ov["hand"][seat, int(ov["deck"][u])] += 1
            ov["deck"][u] = t
            ov["known"][:, seat] = np.minimum(ov["known"][:, seat], ov["hand"][seat])
            owner = seat % 2
            if (v["known"][:, seat] == ov["known"][:, seat]).all():
                # the opponent agent's observation does not move (it did not know that card)
                if not (v["known"][[1 - owner, 3 - owner], seat] > 0).any():
                    np.testing.assert_array_equal(game.observe(s, 1 - owner), game.observe(other, 1 - owner))
                    moved += 1
            # the owner's observation does move: both its hands are in it
            assert not np.array_equal(game.observe(s, owner), game.observe(other, owner))
            seen += 1
    assert moved > 10 and seen > 10


def test_determinize_keeps_both_hands_of_the_agent_in_the_two_player_game():
    from mushgym.envs.mycelium.determinize import determinize

    game = MyceliumGame(num_players=2)
    rng = np.zeros(4, np.int64)
    rng[:] = [1, 2, 3, 4]
    changed = 0
    for s in _random_states(game, n=1, every=11):
        for agent in range(2):
            d = s.copy()
            determinize(d, agent, game.config, game.work, rng)
            game.validate(d)
            v, dv = rules.STATE.arrays(s), rules.STATE.arrays(d)
            own = [agent, agent + 2]
            assert (v["hand"][own] == dv["hand"][own]).all()
            np.testing.assert_array_equal(game.observe(s, agent), game.observe(d, agent))
            changed += not np.array_equal(v["hand"], dv["hand"])
    assert changed > 3


# --- validation and text -------------------------------------------------------------------------


def test_team_fields_are_validated():
    base, team = MyceliumGame(), MyceliumGame(num_players=2)
    s = base.new_state(0)
    rules.STATE.arrays(s)["trade_used"][...] = 1
    with pytest.raises(ValueError, match="Team fields"):
        base.validate(s)
    s = team.new_state(0)
    rules.STATE.arrays(s)["agent_of"][2] = 1
    with pytest.raises(ValueError, match="Team fields"):
        team.validate(s)
    s = base.new_state(0)
    rules.STATE.arrays(s)["agent_of"][1] = 9
    with pytest.raises(ValueError, match="agent_of"):
        base.validate(s)


def test_text_and_pictures_show_the_teams():
    g = MyceliumGame(num_players=2)
    s = g.new_state(0)
    text = g.state_to_string(s)
    assert "teams: Blue (player_0) + Red (player_0)" in text and "Green (player_1) + Beige (player_1)" in text
    assert "teams:" not in MyceliumGame().state_to_string(MyceliumGame().new_state(0))
    # an agent's text shows both its hands, not the opponent's
    pub = g.render_text(s, 0)
    assert pub.count(" hand {") == 2 and pub.count("cards)") == 2
    from mushgym.render import draw_state

    svg = draw_state(g, s, 0).to_svg()
    assert "Blue + Red" in svg and "Green + Beige" in svg and svg.count("(you)") == 2
    assert "Blue (you) + Red" in svg and "Red (you) + Blue" in svg and "Green + Beige" in svg
    assert "teams:" not in draw_state(MyceliumGame(), MyceliumGame().new_state(0), 0).to_svg()


# --- the greedy baseline ---------------------------------------------------------------------------


def test_greedy_plays_the_team_actions_and_reads_no_hidden_card():
    from mushgym.agents import GreedyAgent
    from mushgym.testing import random_states

    game = MyceliumGame(num_players=2, turn_limit=60)
    agent = GreedyAgent(game.env_id, seed=0)
    rng = np.random.default_rng(0)
    used = {"trade": 0, "gather_take": 0, "accepted": 0}
    s = game.new_state(5)
    for _ in range(1500):
        if game.is_terminal(s):
            break
        p = game.current_player(s)
        v = rules.STATE.arrays(s)
        d = int(v["decisions_n"])
        answering = d and int(v["decisions"][d - 1][0]) == rules.D_TRADE
        a = agent.act_state(game, s, p)
        name = rules.ACTION_SPACE.group_of(a).name
        if name in used:
            used[name] += 1
        used["accepted"] += bool(answering and name == "trade")
        game.step_inplace(s, a)
    assert used["gather_take"] > 0 and used["trade"] > 0, used
    # the scores use only what the agent may see (both of its hands in the 2-player game)
    checked = 0
    for st in random_states(game, n_games=1, every=9)[:40]:
        p = game.current_player(st)
        other = game.perturb_hidden(st, p, rng)
        np.testing.assert_array_equal(agent.scores(game, other, p), agent.scores(game, st, p))
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("module", ["team", "emsporium", "tavern", "validate", "rules"])
def test_each_variant_module_imports_first(module):
    """The variants' modules and the rules import each other; any of them may be imported first."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", f"import mushgym.envs.mycelium.{module}"], check=True, timeout=300)
