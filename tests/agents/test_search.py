"""Search: the determinizers (generic over every registered env that provides one), the compiled
SO-ISMCTS loop and MCTSAgent (forced wins, seeds, hidden information, allocation, CLI specs)."""

import os
import subprocess
import sys

import numpy as np
import pytest
from toygame.game import ToyGame

import mushgym
from mushgym import testing
from mushgym.agents import MCTSAgent, RandomAgent, make_agent, play_games
from mushgym.agents.evaluate import agent_spec_problem
from mushgym.core import rng_seed
from mushgym.game import Game
from mushgym.search import Searcher, determinization_mode, find_kernel

DET_ENVS = [e for e in mushgym.list_envs() if find_kernel(mushgym.game(e).kernels, "determinize") is not None]


def random_states(game, n_games=3, seed=0, every=7):
    return testing.random_states(game, n_games, seed, every)


def det_fn(game):
    """The game's determinize kernel alone (cheaper to compile than the whole search loop)."""
    return find_kernel(game.kernels, "determinize"), rng_seed_words


def rng_seed_words(rng, seed):
    rng_seed(rng, 0, seed)


def player_counts(env_id):
    game = mushgym.game(env_id)
    if "num_players" not in game.option_choices:
        return [None]
    counts = game.player_counts()  # (a count needing another option, e.g. Mycelia's fifth player, left out)
    return sorted({min(counts), max(counts)})


@pytest.mark.parametrize("env_id", DET_ENVS)
def test_determinize_keeps_the_observation_and_the_invariants(env_id):
    """Every player, at states met in random play: the redrawn state is valid, keeps the
    game's invariants and looks the same to that player; something hidden does move."""
    for n in player_counts(env_id):
        game = mushgym.game(env_id, **({} if n is None else {"num_players": n}))
        det, seed_rng = det_fn(game)
        rng = np.zeros(4, np.int64)
        seed_rng(rng, 5)
        moved = 0
        for s in random_states(game, n_games=2, every=9):
            for p in range(game.num_players):
                obs = game.observe(s, p)
                for _ in range(4):
                    d = s.copy()
                    det(d, p, game.config, game.work, rng)
                    game.validate(d)
                    game.check_invariants(d)
                    np.testing.assert_array_equal(
                        game.observe(d, p), obs, err_msg=f"{env_id}: determinize changed player {p}'s view"
                    )
                    assert game.is_terminal(d) == game.is_terminal(s)
                    moved += not np.array_equal(d, s)
        assert moved > 0, f"{env_id}: determinize never redrew anything"


@pytest.mark.parametrize("env_id", DET_ENVS)
def test_determinize_draws_every_consistent_hidden_card(env_id):
    """Over many draws, every value a slot takes under the game's reference redraw
    (``perturb_hidden``) at least 3 times in 60 shows up under ``determinize`` too, in 3000
    draws (the RNG words excepted): every consistent hidden card reaches every hidden place.
    (A value drawn 3 times in 60 has a chance of at least ~1% a draw; missing it in 3000 draws
    has a chance below 1e-12.)"""
    game = mushgym.game(env_id)
    det, seed_rng = det_fn(game)
    rng = np.zeros(4, np.int64)
    seed_rng(rng, 11)
    np_rng = np.random.default_rng(0)
    states = random_states(game, n_games=1, every=13)
    for s in states[:: max(1, len(states) // 3)]:
        p = int(game.current_player(s)) if not game.is_terminal(s) else 0
        ref = np.stack([game.perturb_hidden(s, p, np_rng) for _ in range(60)])
        draws = np.empty((3000, s.size), np.int64)
        for i in range(draws.shape[0]):
            d = s.copy()
            det(d, p, game.config, game.work, rng)
            draws[i] = d
        rng_slots = set(range(int(game.kernels.RNG), int(game.kernels.RNG) + 4))
        for slot in np.flatnonzero((ref != s).any(axis=0)):
            if slot in rng_slots:
                continue
            values, counts = np.unique(ref[:, slot], return_counts=True)
            missing = set(values[counts >= 3].tolist()) - set(draws[:, slot].tolist())
            assert not missing, (
                f"{env_id}: slot {slot} never takes {sorted(missing)} under determinize (perturb_hidden draws them)"
            )


def _toy_position(counter):
    game = ToyGame()
    s = game.new_state(0)
    while s[game.kernels.COUNTER] < counter:
        game.step_inplace(s, 0 if counter - s[game.kernels.COUNTER] == 1 else 1)
    assert s[game.kernels.COUNTER] == counter
    return game, s


@pytest.mark.parametrize("counter, winning", [(0, 0), (2, 1), (3, 0), (5, 1), (6, 0), (8, 1)])
def test_search_finds_the_forced_win(counter, winning):
    """Race to 10 (the toy game, adding 1 or 2): the player to move wins by leaving a
    multiple of 3 to go. MCTS must find that move from every winning position."""
    game, s = _toy_position(counter)
    agent = MCTSAgent(simulations=3000, seed=1)
    assert agent.act_state(game, s, game.current_player(s)) == winning


def test_searcher_modes_and_refusals():
    assert determinization_mode(mushgym.game("fungi_v0")) == "kernel"
    assert determinization_mode(ToyGame()) == "pool"  # the documented fallback: perturb_hidden states

    class Blind(ToyGame):
        perturb_hidden = Game.perturb_hidden

    with pytest.raises(ValueError, match="hidden information"):
        Searcher(Blind(), simulations=10)
    for bad in (dict(simulations=0), dict(rollout="smart"), dict(threads=0), dict(c=-1.0)):
        with pytest.raises(ValueError, match=list(bad)[0] if list(bad)[0] != "c" else "exploration"):
            Searcher(ToyGame(), **bad)
    with pytest.raises(ValueError, match="rollout_policy"):
        Searcher(ToyGame(), rollout="greedy")
    game, s = _toy_position(3)
    with pytest.raises(ValueError, match="not to act"):
        Searcher(game, simulations=10).search(s, 1 - game.current_player(s))


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_same_seed_same_move_and_hidden_cards_do_not_matter(env_id):
    game = mushgym.game(env_id)
    rng = np.random.default_rng(3)
    for s in random_states(game, n_games=1, every=11)[:4]:
        p = game.current_player(s)
        for threads in (1, 2):
            a = Searcher(game, simulations=300, seed=7, threads=threads)
            v1, _ = a.search(s, p)
            assert v1.sum() == 300 * threads
            v2, _ = Searcher(game, simulations=300, seed=7, threads=threads).search(s, p)
            np.testing.assert_array_equal(v1, v2)
            # redraw what p cannot see: the search (seeded from p's view only) must not notice
            v3, _ = a.search(game.perturb_hidden(s, p, rng), p)
            np.testing.assert_array_equal(v1, v3)
        assert (
            not np.array_equal(Searcher(game, simulations=300, seed=8).search(s, p)[0], v1) or np.count_nonzero(v1) <= 1
        )


def test_tree_uses_one_node_per_simulation():
    game = mushgym.game("fungi_v0")
    s = game.new_state(1)
    a = Searcher(game, simulations=500, seed=0)
    a.search(s, game.current_player(s))
    assert a.last_nodes == 501  # the root and one expansion per simulation, all preallocated


ALLOC_SCRIPT = r"""
import numpy as np, mushgym
from numba.core.runtime import rtsys
from mushgym.search import Searcher
game = mushgym.game("fungi_v0")
s = game.new_state(4)
p = game.current_player(s)
counts = []
for sims in (20, 20, 2000):
    a = Searcher(game, simulations=sims, seed=1)
    a._buffer(0)
    before = rtsys.get_allocation_stats().alloc
    a.search(s, p)
    counts.append(rtsys.get_allocation_stats().alloc - before)
print(counts)
"""


def test_no_allocation_per_simulation():
    """numba's own allocation counter (NRT stats): a search of 2000 simulations makes no more
    compiled allocations than one of 20."""
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    out = subprocess.run([sys.executable, "-c", ALLOC_SCRIPT], env=env, capture_output=True, text=True, check=True)
    counts = eval(out.stdout.strip().splitlines()[-1])
    assert counts[2] == counts[1], f"allocations grow with simulations: {counts}"


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_greedy_rollouts_are_legal_and_read_no_hidden_card(env_id):
    """The compiled rollout policies: whole searches run (every rollout action legal, or the
    kernels would break the invariants checked below) and redrawing hidden cards does not
    change the result."""
    game = mushgym.game(env_id)
    rng = np.random.default_rng(1)
    for s in random_states(game, n_games=1, every=17)[:3]:
        p = game.current_player(s)
        a = Searcher(game, simulations=200, seed=3, rollout="greedy")
        v1, _ = a.search(s, p)
        assert v1.sum() == 200
        np.testing.assert_array_equal(v1, a.search(game.perturb_hidden(s, p, rng), p)[0])


def test_mcts_beats_random_on_fungi():
    res = play_games("fungi_v0", [MCTSAgent("fungi_v0", simulations=200, seed=0), RandomAgent(seed=0)], 16, seed=5)
    rets = res["returns"] if isinstance(res, dict) else res.returns
    wins = int((np.asarray(rets)[:, 0] > 0).sum())
    assert wins >= 13, f"MCTS(200) won only {wins} of 16 against random"


def test_mcts_agent_specs():
    a = make_agent("mcts:50", env_id="fungi_v0", seed=3)
    assert isinstance(a, MCTSAgent) and a.simulations == 50 and a.name == "mcts:50"
    assert agent_spec_problem("mcts:1000") is None and agent_spec_problem("mcts:10:greedy") is None
    g = make_agent("mcts:10:greedy", env_id="fungi_v0")
    assert g.rollout == "greedy" and g.name == "mcts:10:greedy"
    r = make_agent("mcts:10:random", env_id="fungi_v0")
    assert r.rollout == "random" and r.name == "mcts:10:random" and agent_spec_problem("mcts:10:random") is None
    # the default ("auto"): the game's compiled greedy rollouts where it has them, else random
    assert a.rollout == "auto" and a.searcher(mushgym.game("fungi_v0")).config.rollout == "greedy"
    assert MCTSAgent(simulations=10).searcher(ToyGame()).config.rollout == "random"
    assert Searcher(mushgym.game("fungi_v0")).config.rollout == "random"  # the primitive: random unless asked
    assert "mcts:SIMS" in agent_spec_problem("mcts:x")
    assert "mcts:SIMS" in agent_spec_problem("mcts:0")
    with pytest.raises(ValueError, match="mcts:SIMS"):
        make_agent("mcst", env_id="fungi_v0")
    with pytest.raises(ValueError, match="made for fungi_v0"):
        a.act_state(mushgym.game("mycology_v1"), mushgym.game("mycology_v1").new_state(0), 0)


FULL = os.environ.get("MUSHGYM_HARNESS", "") == "full"


@pytest.mark.slow
@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_mcts_plays_every_env_and_player_count(env_id):
    """Any registered game gets search with no code in agents/: whole games, legal moves.
    CI's small form plays Fungi and Mycology (whose search loops other tests compile anyway);
    MUSHGYM_HARNESS=full plays every env (compiling each game's search loop takes minutes)."""
    if not FULL and env_id not in ("fungi_v0", "mycology_v1"):
        pytest.skip("MUSHGYM_HARNESS=full plays every env")
    for n in player_counts(env_id):
        opts = {} if n is None else {"num_players": n}
        game = mushgym.game(env_id, **opts)
        agents = [MCTSAgent(simulations=8, seed=1)] + [RandomAgent(seed=q) for q in range(1, game.num_players)]
        play_games(game, agents, 1, seed=2)


def test_cli_eval_and_play_accept_mcts(monkeypatch, capsys):
    from mushgym import cli

    assert cli.main(["eval", "fungi_v0", "mcts:20", "random", "--games", "2", "--no-save"]) == 0
    assert "mcts:20" in capsys.readouterr().out
    answers = iter(["1"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "fungi_v0", "--seed", "4", "--opponent", "mcts:20"]) == 0
    assert "game over" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="mcts:SIMS"):
        cli.main(["eval", "fungi_v0", "mcts:lots", "random", "--games", "2", "--no-save"])


def test_tables_print_mcts_names_verbatim():
    from mushgym.agents.evaluate import MatchResult, TournamentResult

    r = TournamentResult(
        "mycology_v1",
        ["greedy", "mcts:100:greedy"],
        [MatchResult("greedy", "mcts:100:greedy", 4, 2, 0, 2)],
        {"greedy": 0.0, "mcts:100:greedy": 0.0},
        {"greedy": 0.0, "mcts:100:greedy": 50.0},
        "greedy",
    )
    assert "mcts:100:greedy" in r.table()


def _finished_mycology_games(game, n=4, seed=0):
    """Terminal states of Mycology games played by the compiled rollout policy (short games)."""
    policy = find_kernel(game.kernels, "rollout_policy")
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, seed)
    work = np.zeros(max(1, game.work_size), np.int64)
    out = []
    for g in range(n):
        s = game.new_state(seed + g)
        while not game.is_terminal(s):
            mask = game.legal_mask(s)
            game.step_inplace(s, int(policy(s, game.config, mask, int(np.count_nonzero(mask)), work, rng)))
        out.append(s)
    return out


def test_search_value_option_and_refusals():
    myc, fungi = mushgym.game("mycology_v1"), mushgym.game("fungi_v0")
    # "auto" (MCTSAgent's default): the game's search_value where it has one, else the returns
    assert MCTSAgent(simulations=10).searcher(myc).config.value == "game"
    assert MCTSAgent(simulations=10).searcher(fungi).config.value == "returns"
    assert Searcher(myc).config.value == "returns"  # the primitive: the returns unless asked
    with pytest.raises(ValueError, match="search_value"):
        Searcher(fungi, value="game")
    for make in (lambda: Searcher(myc, value="score"), lambda: MCTSAgent(simulations=10, value="score")):
        with pytest.raises(ValueError, match=r"unknown value 'score'.*'auto', 'returns', 'game'"):
            make()


def test_search_value_same_seed_same_visits_and_it_changes_the_search():
    game = mushgym.game("mycology_v1")
    s = random_states(game, n_games=1, every=13)[2]
    p = game.current_player(s)
    v1 = Searcher(game, simulations=300, seed=5, rollout="greedy", value="game").search(s, p)
    v2 = Searcher(game, simulations=300, seed=5, rollout="greedy", value="game").search(s, p)
    np.testing.assert_array_equal(v1[0], v2[0])
    np.testing.assert_array_equal(v1[1], v2[1])
    v3 = Searcher(game, simulations=300, seed=5, rollout="greedy", value="returns").search(s, p)
    # same tree growth up to the first differing value; the summed values differ (margin term)
    assert not np.allclose(v1[1], v3[1])


@pytest.mark.parametrize("players", [2, 4])
def test_mycology_search_value_grades_wins_by_margin(players):
    """Mycology's search_value: its documented formula; in [0, 1]; each winner above every
    loser; a higher score worth more among losers; with reward="score" the normalised return."""
    from mushgym.envs.mycology.search import MARGIN_SCALE, MARGIN_WEIGHT

    game = mushgym.game("mycology_v1", num_players=players)
    fn = find_kernel(game.kernels, "search_value")
    lo, hi = game.spec.reward_range
    out = np.zeros(players)
    for s in _finished_mycology_games(game):
        fn(s, game.config, float(lo), float(hi), out)
        scores = np.array(game.scores(s), np.float64)
        ret = game.returns(s)
        other = np.array([np.delete(scores, p).max() for p in range(players)])
        margin = np.clip((scores - other) / MARGIN_SCALE, -1.0, 1.0)
        want = (1 - MARGIN_WEIGHT) * (ret - lo) / (hi - lo) + MARGIN_WEIGHT * 0.5 * (margin + 1.0)
        np.testing.assert_allclose(out, want, rtol=1e-12)
        assert ((0.0 <= out) & (out <= 1.0)).all()
        win = ret == ret.max()
        if not win.all():
            assert out[win].min() > out[~win].max()
        for a in np.flatnonzero(~win):
            for b in np.flatnonzero(~win):
                if scores[a] > scores[b]:
                    assert out[a] > out[b] or margin[a] == margin[b] == -1.0  # (a deficit past the scale is clipped)
    score_game = mushgym.game("mycology_v1", num_players=players, reward="score")
    score_fn = find_kernel(score_game.kernels, "search_value")
    lo, hi = score_game.spec.reward_range
    for s in _finished_mycology_games(score_game, n=2):
        score_fn(s, score_game.config, float(lo), float(hi), out)
        np.testing.assert_allclose(out, (score_game.returns(s) - lo) / (hi - lo))


def test_mycology_rollout_policy_is_the_greedy_move_but_for_epsilon():
    """rollout_policy: legal; greedy_move's move but for about ROLLOUT_EPSILON of the decisions (a
    uniformly random legal move); the same generator words give the same moves."""
    from mushgym.envs.mycology.search import ROLLOUT_EPSILON

    game = mushgym.game("mycology_v1")
    policy = find_kernel(game.kernels, "rollout_policy")
    greedy = find_kernel(game.kernels, "greedy_move")
    work = np.zeros(max(1, game.work_size), np.int64)
    moves = []
    for seed in (0, 0, 1):
        rng = np.zeros(4, np.int64)
        rng_seed(rng, 0, seed)
        run = []
        for s in random_states(game, n_games=2, every=3):
            mask = game.legal_mask(s)
            n = int(np.count_nonzero(mask))
            a = int(policy(s, game.config, mask, n, work, rng))
            assert mask[a], f"illegal rollout action {game.action_to_string(s, a)}"
            run.append((a, int(greedy(s, game.config, mask, n, work, rng)), n))
        moves.append(run)
    assert moves[0] == moves[1] and moves[0] != moves[2]
    run = np.array(moves[0])
    differ = (run[:, 0] != run[:, 1]).mean()
    assert 0 < differ <= 2 * ROLLOUT_EPSILON, differ


def test_progressive_widening_limits_children_and_expands_the_policy_move_first():
    """widen=k: a node gets a new child only while it has fewer than 1 + k sqrt(visits) (the
    rollout policy's move first); widen=0 (the default) is plain UCT, every legal move tried."""
    game = mushgym.game("mycology_v1")
    greedy = find_kernel(game.kernels, "greedy_move")  # the rollout policy's move but for its epsilon
    work = np.zeros(max(1, game.work_size), np.int64)
    rng = np.zeros(4, np.int64)
    checked = 0
    for s in random_states(game, n_games=2, every=5):
        mask = game.legal_mask(s)
        if np.count_nonzero(mask) < 8:
            continue
        p = game.current_player(s)
        plain, _ = Searcher(game, simulations=60, seed=2, rollout="greedy").search(s, p)
        assert np.count_nonzero(plain) == np.count_nonzero(mask)
        visits, _ = Searcher(game, simulations=60, seed=2, rollout="greedy", widen=0.5).search(s, p)
        assert 1 <= np.count_nonzero(visits) <= 1 + int(0.5 * np.sqrt(59))
        first = int(greedy(s, game.config, mask, int(np.count_nonzero(mask)), work, rng))
        assert visits[first] > 0
        again, _ = Searcher(game, simulations=60, seed=2, rollout="greedy", widen=0.5).search(s, p)
        np.testing.assert_array_equal(visits, again)
        checked += 1
    assert checked >= 3
    for bad in (-1.0, float("nan"), True, "1"):
        with pytest.raises(ValueError, match="widen"):
            Searcher(game, widen=bad)


def _mycology_act_state(players, season, resources, feast=0, magic=0, field=(), counts=(0, 0, 0, 0)):
    """A valid Mycology state where the turn player acts (2 actions left) in ``season`` with these
    resources and tokens, ``field`` face up (the other slots: Fall-only cards, out of season in
    Winter-Summer) and ``counts`` basket places filled with in-season cards (points in the score)."""
    from mushgym.envs.mycology.layout import FIELD_SIZE, NUM_SEASONS, C, L

    game = mushgym.game("mycology_v1", num_players=players)
    t = C.arrays(game.config)
    s = game.new_state(0)
    v = L.arrays(s)
    p = game.current_player(s)
    placed = list(field) + [c for c in np.flatnonzero(t["seasons"] == 1 << 3) if c not in field]
    placed = placed[:FIELD_SIZE]
    v["field"][:] = placed
    for q in range(NUM_SEASONS):
        cards = [c for c in np.flatnonzero((t["seasons"] >> q) & 1) if c not in placed][: counts[q]]
        v["basket"][p, q, : counts[q]] = cards
        placed += cards
    rest = [c for c in range(len(t["points"])) if c not in placed]
    v["deck"][: len(rest)] = rest
    v["deck_count"][...] = len(rest)
    v["basket_count"][p] = counts
    v["season"][...] = season
    v["resources"][p] = resources
    v["feast"][p], v["magic"][p] = feast, magic
    v["score"][p] = sum(int(t["points"][c]) for c in placed[FIELD_SIZE:]) + feast + magic
    game.validate(s)
    return game, s


def _mycology_card(game, special, season, cost=None, poison_resource=None):
    """The first card of the data with this special kind, in ``season``, (optionally) this cost."""
    from mushgym.envs.mycology.layout import C

    t = C.arrays(game.config)
    for c in range(len(t["points"])):
        if (
            t["special"][c] == special
            and (t["seasons"][c] >> season) & 1
            and (cost is None or list(t["cost"][c]) == list(cost))
            and (poison_resource is None or t["poison_resource"][c] == poison_resource)
        ):
            return c
    raise AssertionError("no such card in the data")


def _rollout_move(game, s, seed=0):
    """The rollout's move but for its epsilon (greedy_move)."""
    policy = find_kernel(game.kernels, "greedy_move")
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, seed)
    mask = game.legal_mask(s)
    return int(
        policy(s, game.config, mask, int(np.count_nonzero(mask)), np.zeros(max(1, game.work_size), np.int64), rng)
    )


def test_mycology_rollout_prices_poison_and_trades_1_2_5_to_open_a_harvest():
    """The greedy rollout (greedy.py's policy, compiled): a Poison card is worth its points + Feast +
    0.5 minus 2 x its resource's chance per roll x the rolls left (at most 12: 3 per player per basket
    place left), so an early Soil/Dung poison card (5 points, 10/36 a roll) is declined with 4 players
    and with 2 near the end taken; trade 1 (3 resources -> the one a card lacks), trade 2 (3 resources
    -> Feast) when nothing can be harvested, trade 5 (a new field row) when no field card is in season."""
    from mushgym.envs.mycology.actions import A_END, A_HARVEST, A_T1, A_T2, A_T5
    from mushgym.envs.mycology.layout import FIELD_SIZE, OP, SD, SP_NONE, SP_POISON, WR, C

    game = mushgym.game("mycology_v1", num_players=4)
    spring = 1
    poison = _mycology_card(game, SP_POISON, spring, cost=[0, 0, 0, 0, 1], poison_resource=SD)
    sd_only = [0, 0, 0, 0, 1]
    for players, counts, want in (
        (4, (0, 0, 0, 0), A_END),
        (4, (1, 1, 3, 4), A_END),
        (2, (0, 0, 0, 0), A_END),
        (2, (1, 1, 3, 4), A_HARVEST),
    ):
        g, s = _mycology_act_state(players, spring, sd_only, field=[poison], counts=counts)
        assert g.legal_mask(s)[A_HARVEST], "the poison card is affordable"
        assert _rollout_move(g, s) == want, (players, counts)
    # trade 1: Wood Rot x3 -> the Other Parasite a two-Other-Parasite card lacks
    plain = _mycology_card(game, SP_NONE, spring, cost=[2, 0, 0, 0, 0])
    res = np.zeros(5, np.int64)
    res[OP], res[WR] = 1, 3
    g, s = _mycology_act_state(4, spring, res, field=[plain])
    assert _rollout_move(g, s) == A_T1 + OP
    # trade 2: one Other Parasite short after a trade 1 as well: nothing to harvest, 3 resources -> a Feast
    res[OP] = 0
    g, s = _mycology_act_state(4, spring, res, field=[plain])
    assert g.legal_mask(s)[A_T1 + OP] and _rollout_move(g, s) == A_T2
    # trade 5: no field card in season, a Feast, too few resources for trade 2: the top row renewed
    summer_only = np.flatnonzero(C.arrays(game.config)["seasons"] == 1 << 2)[:FIELD_SIZE]
    g, s = _mycology_act_state(4, spring, [1, 0, 0, 0, 0], feast=1, field=summer_only)
    assert g.legal_mask(s)[A_T5] and _rollout_move(g, s) == A_T5
    assert all(_rollout_move(g, s, seed) == A_T5 for seed in range(3)), "same state, same move"


@pytest.mark.parametrize("players", [2, 4])
def test_mycology_rollout_is_greedy_compiled(players):
    """On every act, pay and ordering decision of random play the rollout's move is greedy.py's
    default greedy's (poison="expected", feast_trade=True); trades 1 and 2 and harvests passed over
    (a Poison card priced out, or a trade 1 to a better card) are among them."""
    from mushgym.envs.mycology.actions import A_HARVEST, A_T1, A_T2
    from mushgym.envs.mycology.greedy import Greedy

    game = mushgym.game("mycology_v1", num_players=players)
    greedy = Greedy(game)
    seen = {"t1": 0, "t2": 0, "passed": 0}  # (trade 5 is rare in random play: the test above)
    for s in random_states(game, n_games=4, every=2):
        if game.phase(s) in (3, 4):  # exchange choices (after a trade 6, which neither takes): random
            continue
        mask = game.legal_mask(s)
        a = _rollout_move(game, s)
        assert a == greedy.act(s, mask), game.action_to_string(s, a)
        seen["t1"] += A_T1 <= a < A_T2
        seen["t2"] += a == A_T2
        seen["passed"] += bool(mask[A_HARVEST:A_T1].any()) and not A_HARVEST <= a < A_T1
    assert all(seen.values()), seen
