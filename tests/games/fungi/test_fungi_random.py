"""Fungi: random play with invariant checks, hidden information, the deck loader, JIT/no-JIT equality."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mushgym import testing
from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.cards import DeckError, load_deck
from mushgym.envs.fungi.game import FungiGame, decode_action, encode_action

G = FungiGame()


def _random_games(game, n, seed):
    rng = np.random.default_rng(seed)
    stats = {"cooks": 0, "finishes": 0, "trims": 0, "skips": 0, "passes": 0, "lengths": []}
    for g in range(n):
        s = game.new_state(seed + g)
        steps = 0
        while not game.is_terminal(s):
            game.check_invariants(s)
            mask = game.legal_mask(s)
            n_legal = int(mask.sum())
            assert n_legal > 0
            assert bool(R.has_action(s, int(R.current_player(s)), game.config)) or R.phase(s) != R.PH_ACT
            a = int(rng.choice(np.flatnonzero(mask)))
            kind = decode_action(a)[0]
            stats["cooks"] += kind == "cook"
            stats["finishes"] += kind == "finish_cook"
            stats["trims"] += kind == "discard"
            s = game.step(s, a)
            steps += 1
        game.check_invariants(s)
        assert steps <= game.spec.max_game_length
        stats["skips"] += int(s[R.NSKIPS])
        stats["passes"] += int(s[R.NPASSES])
        stats["lengths"].append(steps)
    return stats


def test_random_play_keeps_every_invariant():
    st = _random_games(G, 300, seed=1)
    assert st["cooks"] > 100 and st["finishes"] > 10 and st["trims"] > 50  # the phases are exercised
    assert max(st["lengths"]) <= G.spec.max_game_length


@pytest.mark.slow
def test_random_play_keeps_every_invariant_long():
    st = _random_games(FungiGame(reward="score_diff"), 1000 * testing.slow_scale(), seed=10_000)
    assert st["skips"] > 0


def test_has_action_matches_the_mask_for_both_players():
    rng = np.random.default_rng(5)
    for g in range(40):
        s = G.new_state(g)
        while not G.is_terminal(s):
            if R.phase(s) == R.PH_ACT:
                for p in (0, 1):
                    t = s.copy()
                    t[R.TURN_PLAYER] = p
                    mask = np.zeros(R.NUM_ACTIONS, np.int8)
                    assert (R.legal_mask(t, G.config, mask, G.work) > 0) == bool(R.has_action(t, p, G.config))
            s = G.step(s, int(rng.choice(G.legal_actions(s))))


def test_hidden_information_is_hidden_and_perturbation_changes_states():
    changed = testing.check_hidden_information(G, 6, seed=3, every=2)
    assert changed > 100


def test_action_codec_round_trip():
    for a in range(R.NUM_ACTIONS):
        assert encode_action(*decode_action(a)) == a
        assert isinstance(G.action_to_string(None, a), str)


def test_rollouts_in_kernel():
    r = G.random_rollouts(200, seed=0, threads=1)
    assert r["games"] == 200 and 20 < r["mean_length"] <= G.spec.max_game_length
    assert r["max_length"] <= G.spec.max_game_length


def test_text_views():
    s = G.new_state(7)
    text = G.state_to_string(s)
    assert "forest" in text and "draw pile (70" in text
    me = G.render_text(s, 0)
    other = int(1 - 0)
    # player 0's view never lists player 1's hand cards
    assert "you are player 0" in me and f"player {other}" in me
    assert G.state_to_string(s) == G.state_to_string(s.copy())


def test_same_results_without_jit():
    code = "from mushgym.testing import trajectory_digest;print(trajectory_digest('mushgym.envs.fungi_v0', {}, 11))"
    env = dict(os.environ)
    jit = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    env["NUMBA_DISABLE_JIT"] = "1"
    nojit = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert jit.stdout.strip() == nojit.stdout.strip() != ""


# --- the deck file -----------------------------------------------------------------------------


def test_published_deck_tables():
    d = load_deck()
    assert d.copies[:9].tolist() == [10, 8, 6, 5, 5, 4, 4, 4, 3]
    assert d.flavor[:9].tolist() == [1, 1, 2, 2, 3, 3, 3, 4, 6]
    assert d.sticks[:9].tolist() == [1, 2, 1, 2, 1, 2, 3, 2, 4]
    assert d.copies[C.NIGHT0 : C.NIGHT0 + 8].tolist() == [1] * 8
    assert d.units[C.NIGHT0 : C.NIGHT0 + 8].tolist() == [2] * 8
    assert [int(d.copies[k]) for k in (C.FLY, C.BUTTER, C.CIDRE, C.PAN, C.BASKET, C.MOON)] == [5, 3, 3, 13, 5, 8]
    assert d.flavor[C.BUTTER] == 3 and d.flavor[C.CIDRE] == 5
    assert d.copies.sum() == 86 + 8 and d.draw_pile_size == 84


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = C.DEFAULT_DECK_PATH.read_text()
    assert old in text
    p = tmp_path / "deck.toml"
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize(
    "old,new,words",
    [
        ("copies = 8\nflavor = 1\nsticks = 2", "flavor = 1\nsticks = 2", ["Tree ear", "copies", "missing"]),
        ("copies = 6\nflavor = 2", "copies = -6\nflavor = 2", ["Lawyer's wig", "copies", "negative"]),
        ("flavor = 6\nsticks = 4", "flavor = 6\nsticks = -4", ["Morel", "sticks", "negative"]),
        ("copies = 10\nflavor = 1", "copies = 9\nflavor = 1", ["wrong count", "85", "86"]),
        ('name = "Porcini"', 'name = "Penny bun"', ["Penny bun", "unknown"]),
        ('type = "Shiitake"', 'type = "Morel"', ["type", "Morel"]),
        (
            'copies = 5\nflavor = 2\nsticks = 2\nstatus = { copies = "published"',
            'copies = 5\nflavor = 2\nsticks = 2\nstatus = { copies = "guessed"',
            ["Shiitake", "status", "guessed"],
        ),
    ],
)
def test_malformed_deck_is_refused_naming_card_and_field(tmp_path, old, new, words):
    with pytest.raises(DeckError) as e:
        load_deck(_broken(tmp_path, old, new))
    for w in words:
        assert w in str(e.value)


def test_own_deck_through_a_subclass(tmp_path):
    p = _broken(tmp_path, "flavor = 6\nsticks = 4", "flavor = 7\nsticks = 4")

    class MyFungi(FungiGame):
        deck_path = str(p)

    g = MyFungi()
    assert g.deck.flavor[C.MOREL if hasattr(C, "MOREL") else 8] == 7
    assert g.random_rollouts(20, seed=0, threads=1)["games"] == 20


def test_perturbed_states_are_valid_and_look_the_same():
    rng = np.random.default_rng(2)
    changed = total = 0
    for seed in range(12):
        s = G.new_state(seed)
        i = 0
        while not G.is_terminal(s):
            if 4 < i < 45:
                for p in (0, 1):
                    o = G.perturb_hidden(s, p, rng)
                    G.check_invariants(o)
                    assert np.array_equal(G.observe(o, p), G.observe(s, p))
                    # the perturbed player's own hand never moves
                    assert np.array_equal(R.L.arrays(o)["hand"][p], R.L.arrays(s)["hand"][p])
                    total += 1
                    changed += not np.array_equal(o, s)
            s = G.step(s, int(rng.choice(G.legal_actions(s))))
            i += 1
    assert changed > 0.9 * total
