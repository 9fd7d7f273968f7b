"""Mycology: random play with invariant checks, the card loader, JIT / no-JIT equality, the env module."""

import os
import subprocess
import sys
from pathlib import Path

import ci_scope
import numpy as np
import pytest

from mushgym.envs.mycology import rules as R
from mushgym.envs.mycology.cards import DeckError, load_deck
from mushgym.envs.mycology.game import MycologyGame
from mushgym.envs.mycology.layout import L
from mushgym.testing import check_hidden_information, random_trajectory, slow_scale


def _play(n, games, seed=0):
    g = MycologyGame(observation="full", num_players=n)
    ends = 0
    for i in range(games):
        state = None
        for state, _a in random_trajectory(g, seed + i):  # checks invariants, observations, length
            pass
        g.check_invariants(state)
        assert g.is_terminal(state)
        r = g.returns(state)
        assert abs(r.sum()) < 1e-9 and r.max() > 0 or np.all(r == 0)
        ends += int(state[R.ENDER]) >= 0
    return ends


@pytest.mark.parametrize("n", [2, 3])
def test_random_play_invariants(n):
    assert _play(n, 6) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 5, 6])
def test_random_play_invariants_many_players(n):
    assert _play(n, 4 * slow_scale()) >= 1


@ci_scope.rollouts_test("mycology_v1")
@pytest.mark.parametrize("n", [2, 6])
def test_compiled_rollouts_end_and_win_fairly(n):
    g = MycologyGame(observation="full", num_players=n)
    r = g.random_rollouts(300, seed=1, threads=1)
    assert r["max_length"] <= g.spec.max_game_length
    assert (r["wins"] > 0).all()


def test_hidden_information_is_only_the_deck_order():
    g = MycologyGame(observation="full", num_players=3)
    assert check_hidden_information(g, 2, seed=3, every=25) > 20


def test_observation_rotates_seats():
    g = MycologyGame(observation="full", num_players=3)
    s = g.new_state(5)
    L.arrays(s)["feast"][1] = 9
    R.update_scores(s, g.config)  # (a consistent state: the functional API checks the scores)
    o0, o1 = g.observe(s, 0), g.observe(s, 1)
    OL = g.observation_layout()
    assert o1[OL.fields["seat0_feast"].offset] == 9 and o0[OL.fields["seat1_feast"].offset] == 9
    assert o0[OL.fields["seat0_feast"].offset] == 2 and o1[OL.fields["seat2_feast"].offset] == 2


def test_no_jit_gives_the_same_game():
    code = (
        "import numpy as np\nfrom mushgym.envs.mycology.game import MycologyGame\n"
        "from mushgym.testing import random_trajectory\nimport hashlib\n"
        'g = MycologyGame(observation="full", num_players=4)\nh = hashlib.sha256()\n'
        "for s, a in random_trajectory(g, 11, check=False):\n"
        "    h.update(s.tobytes()); h.update(g.observe(s, 0).tobytes())\n"
        "print(h.hexdigest())\n"
    )
    out = []
    for jit in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit)
        out.append(
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        )
    assert out[0] == out[1] and len(out[0]) > 60


def test_max_game_length_bound():
    g = MycologyGame(observation="full", num_players=6, turn_limit=120)
    assert g.max_turns == 120 and g.spec.max_game_length == 120 * 2 * g.steps_per_action()
    # the longest action: harvest of the costliest card (4 units), one decision per unit
    assert g.steps_per_action() == 1 + max(4, int(g.deck.cost.sum(axis=1).max()))


# --- the card file ----------------------------------------------------------------------------
def test_deck_facts():
    d = load_deck()
    assert len(d.names) == 84 and all(d.designed)
    assert (d.special == 1).sum() == 13 and (d.special == 2).sum() == 6 and (d.special == 3).sum() == 3
    assert ((d.poison_res >= 0) == (d.special == 1)).all()
    for s in range(4):  # enough cards of every season to fill its basket many times over
        assert ((d.seasons >> s) & 1).sum() >= 4 * [1, 2, 3, 4][s]


def _bad(tmp_path, edit):
    text = (Path(R.__file__).with_name("cards.toml")).read_text()
    p = tmp_path / "cards.toml"
    p.write_text(edit(text))
    return p


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace("points = 5", 'points = "x"', 1), r"card \d+ \([^)]+\): field 'points'"),
        (lambda t: t.replace('seasons = ["winter"]', 'seasons = ["monsoon"]', 1), r"'seasons'"),
        (
            lambda t: t.replace("cost = { symbiont = 1 }", "cost = { mycelium = 1 }", 1),
            r"card \d+ \([^)]+\): field 'cost'.*mycelium",
        ),
        (lambda t: t.replace('special = "stinkhorn"', 'special = "smelly"', 1), r"Common Stinkhorn.*'special'"),
        (lambda t: t.replace('poison_resource = "symbiont"', "", 1), r"poison_resource"),
        (lambda t: t.rsplit("[[card]]", 1)[0], r"84 cards, the file has 83"),
        (lambda t: t.replace("feast = 3", "feest = 3", 1), r"unknown field"),
    ],
)
def test_malformed_card_file(tmp_path, edit, message):
    with pytest.raises(DeckError, match=message):
        load_deck(_bad(tmp_path, edit))


def test_env_module():
    from mushgym.envs import mycology_v1

    assert "Mycology" in mycology_v1.__doc__
    from mushgym.envs.mycology import observation_v1

    for options, size in (({}, observation_v1.obs_size(5)), ({"observation": "full"}, R.obs_size(5))):
        e = mycology_v1.env(num_players=5, **options)
        e.reset(seed=3)
        assert len(e.agents) == 5
        obs, *_ = e.last()
        assert obs["observation"].shape == (size,) and obs["action_mask"].shape == (R.NUM_ACTIONS,)


def test_env_docstring_matches_the_observation_layout():
    """The docstring's shape formulas and tables are the declarations' (generated, so they cannot drift):
    the compact observation (the default) first, then the full one."""
    import re

    from mushgym.envs.mycology import env as env_module
    from mushgym.envs.mycology import observation_v1
    from mushgym.envs.mycology.actions import A
    from mushgym.envs.mycology.observation import CARD

    doc = env_module.__doc__
    formulas = re.findall(r"\((\d+) \+ (\d+) n,\)", doc)
    assert len(formulas) >= 2, "the docstring gives both observation shapes as (a + b n,)"
    for (a, b), size, options in (
        (formulas[0], observation_v1.obs_size, {}),
        (formulas[1], R.obs_size, {"observation": "full"}),
    ):
        a, b = int(a), int(b)
        for n in range(2, 7):
            assert a + b * n == size(n), f"docstring formula gives {a + b * n} for n = {n}, obs_size {size(n)}"
            assert f"({size(n)},) {n}p" in doc
            OL = MycologyGame(num_players=n, **options).observation_layout()
            assert OL.size == size(n)
            if options:
                assert len(OL.fields) == 4 + 1 + 12 + 9 * n + 1
        assert MycologyGame(**options).observation_layout().table() in doc
    assert A.table() in doc and CARD.table() in doc and "@" not in doc
    # the full table's rows tile 0..size-1 for n = 2
    full = doc.split("### The full observation")[1].split("Card features")[0]
    rows = re.findall(r"^\| (\d+)(?:\.\.(\d+))? \| `", full, re.M)
    spans = [(int(lo), int(hi or lo)) for lo, hi in rows]
    assert spans[0][0] == 0 and spans[-1][1] == R.obs_size(2) - 1
    assert all(lo2 == hi1 + 1 for (_, hi1), (lo2, _) in zip(spans, spans[1:]))


def test_observation_bounds_come_from_the_layout():
    g = MycologyGame(observation="full", num_players=3)
    OL = g.observation_layout()
    lo, hi = OL.bounds()
    assert (lo == g.obs_low).all() and (hi == g.obs_high).all()
    f = OL.fields["field"]
    card_hi = g.card_feature_high()
    assert hi[f.offset] == 1.0 and (hi[f.offset + 1 : f.offset + 1 + len(card_hi)] == card_hi).all()
    assert lo[OL.fields["seat1_score"].offset] == g.score_bounds()[0]


def test_designed_cards_follow_their_stated_rules():
    """cards.toml's header and RULES.md: Feast follows edibility (0 inedible or toxic; the
    hallucinogenic magic species and the poisonous species are not food), the reason states
    that Feast, and points = round-half-up(cost value + season scarcity - 0.5 x Feast
    + poison bonus), at least 1."""
    import math
    import re

    d = load_deck()
    value = (3.0, 2.0, 1.5, 1.2, 1.0)
    from mushgym.envs.mycology.greedy import RES_CHANCE

    bonus = tuple(2.0 * 4.5 * c for c in RES_CHANCE)  # the Poison expected over the last 4.5 rolls
    assert np.allclose(bonus, (0.5, 1.0, 1.5, 2.0, 2.5))
    words = {0: ("inedible", "toxic"), 1: ("edible but unremarkable",), 2: ("good edible",), 3: ("choice edible",)}
    from mushgym.core.data import tomllib

    cards = tomllib.loads((Path(R.__file__).with_name("cards.toml")).read_text())["card"]
    for i, c in enumerate(cards):
        name, f = d.names[i], int(d.feast[i])
        if d.special[i] in (R.SP_POISON, R.SP_MAGIC):
            assert f == 0, f"{name}: poisonous or hallucinogenic, not food, but {f} Feast"
        m = re.search(r"\((\d) Feast\)", c["reason"])
        assert m and int(m.group(1)) == f, f"{name}: reason does not state its {f} Feast"
        assert any(w + f" ({f} Feast)" in c["reason"] for w in words[f]), f"{name}: edibility words vs {f} Feast"
        nseasons = bin(int(d.seasons[i])).count("1")
        v = sum(value[r] * int(d.cost[i, r]) for r in range(5)) + {1: 1.0, 2: 0.5}.get(nseasons, 0.0) - 0.5 * f
        if d.special[i] == R.SP_POISON:
            v += bonus[int(d.poison_res[i])]
        assert int(d.points[i]) == max(1, math.floor(v + 0.5 + 1e-9)), (
            f"{name}: points {int(d.points[i])}, rule gives {v}"
        )


def test_one_greedy_with_the_simulation_variants():
    from mushgym.envs.mycology.greedy import Greedy
    from mushgym.envs.mycology.simulate import greedy_variants, play, run_table

    g = MycologyGame(observation="full")
    with pytest.raises(ValueError, match="poison mode 'maybe' unknown"):
        Greedy(g, poison="maybe")
    names = [v.name for v in greedy_variants(g)]
    assert names == ["greedy", "greedy_feast", "greedy_safe", "greedy_agent", "greedy_exchange", "greedy_late_poison"]
    safe = greedy_variants(g)[2]
    for turns, steps, _limit, scores, _first, harvested in play(g, [safe, safe], range(3)):
        assert steps > 0 and any(harvested)
        assert not [c for hv in harvested for c in hv if g.deck.special[c] == R.SP_POISON], "greedy_safe took poison"
    t = run_table(2, 4, "mixed", seed=1)
    assert t["games"] == 4 and abs(sum(v * n / 2 for v, n in t["pol"].values()) - 4) < 1e-9


def test_simulation_takes_another_card_file(tmp_path):
    from mushgym.envs.mycology.cards import DEFAULT_PATH
    from mushgym.envs.mycology.simulate import run_table

    same = run_table(2, 3, "greedy", seed=2, deck=DEFAULT_PATH)
    base = run_table(2, 3, "greedy", seed=2)
    assert (same["turns"] == base["turns"]).all() and (same["seat_wins"] == base["seat_wins"]).all()
    text = DEFAULT_PATH.read_text()
    cheap = tmp_path / "cards.toml"  # every card worth 1 point: the scores change, the rules do not
    cheap.write_text("\n".join("points = 1" if line.startswith("points = ") else line for line in text.split("\n")))
    t = run_table(2, 3, "greedy", seed=2, deck=cheap)
    assert t["game"].deck.points.max() == 1 and (t["turns"] > 0).all()


def test_exchange_and_poison_timing_policies_do_what_they_say():
    from mushgym.envs.mycology.actions import A_END, A_T6
    from mushgym.envs.mycology.simulate import greedy_variants

    g = MycologyGame(observation="full", num_players=3)
    v = {p.name: p for p in greedy_variants(g)}
    pols = [v["greedy_exchange"], v["greedy_late_poison"], v["greedy"]]
    exchanges, early_poison = 0, 0
    for seed in range(12):
        s = g.new_state(seed)
        while not g.is_terminal(s):
            p = g.current_player(s)
            mask = g.legal_mask(s)
            a = pols[p].act(s, mask)
            if g.phase(s) == 0 and A_T6 <= a < A_END:
                assert p == 0, "only the exchange policy exchanges"
                exchanges += 1
            if g.phase(s) == 0 and a < 8 and p == 1:
                c = g.field(s)[a]
                filled = sum(len(g.basket(s, 1, x)) for x in range(4))
                early_poison += int(g.deck.special[c] == R.SP_POISON and filled < 7)
            s = g.step(s, a)
    assert exchanges > 0 and early_poison == 0
