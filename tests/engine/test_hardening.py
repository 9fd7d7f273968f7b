"""Regression tests of the hardening: bad input gets a clear error, never foreign code or a crash."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym import cli
from mushgym.testing import inside_installed_package, regenerate_golden


def test_golden_refuses_site_packages(tmp_path):
    site = Path(sysconfig.get_paths()["purelib"]) / "mushgym" / "tests_golden_probe"
    assert inside_installed_package(site)
    assert not inside_installed_package(tmp_path)
    with pytest.raises(ValueError, match="installed package"):
        regenerate_golden(site)
    assert not site.exists()
    with pytest.raises(SystemExit, match="installed package"):
        cli.main(["golden", "--dir", str(site)])


# --- model files: weights only unless trusted ---------------------------------------------


def _malicious_pickle(path: Path, marker: Path) -> None:
    import pickle

    class Boom:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    path.write_bytes(pickle.dumps({"state_dict": Boom()}))


def test_shipped_policy_loads_weights_only():
    torch = pytest.importorskip("torch")
    from mushgym.agents import load_policy

    path = REPO_ROOT / "benchmarks" / "training" / "fungi_v0_ppo.pt"
    weights = torch.load(path, weights_only=True)  # plain tensors: no unpickling of objects
    assert all(isinstance(v, torch.Tensor) for v in weights.values())
    assert load_policy(path).encoder.name == "scaled"


@pytest.mark.parametrize("suffix", [".pt", ".zip"])
def test_pickled_model_is_refused_without_trust(tmp_path, suffix):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import json
    import zipfile

    from mushgym.agents import load_policy, make_agent

    marker = tmp_path / "pwned"
    model = tmp_path / f"model{suffix}"
    if suffix == ".zip":  # an SB3-looking archive whose entries are pickles
        inner = tmp_path / "inner.pkl"
        _malicious_pickle(inner, marker)
        with zipfile.ZipFile(model, "w") as z:
            z.write(inner, "policy.pth")
            z.write(inner, "data")
    else:
        _malicious_pickle(model, marker)
    (tmp_path / "model.json").write_text(json.dumps({"env_id": "fungi_v0", "encoder": "scaled"}))
    with pytest.raises(ValueError, match="trust"):
        load_policy(model)
    with pytest.raises(ValueError, match="trust"):
        make_agent(str(model), env_id="fungi_v0")
    # the other ways a path gets in: SingleAgentEnv(opponents=path), train --opponent path
    # (its opponent pool), mushgym eval ENV random FILE
    from mushgym.agents.evaluate import eval_main
    from mushgym.wrappers.opponents import OpponentPool
    from mushgym.wrappers.single_agent import SingleAgentEnv

    with pytest.raises(ValueError, match="trust"):
        SingleAgentEnv("fungi_v0", opponents=str(model), build_opponent=make_agent).reset(seed=0)
    with pytest.raises(ValueError, match="trust"):
        OpponentPool([str(model)], env_id="fungi_v0", build=make_agent).sample(np.random.default_rng(0))
    with pytest.raises(SystemExit, match="refusing to load .*trust-model"):
        eval_main(["fungi_v0", "random", str(model), "--games", "2", "--no-save"])
    # a weights-only description does not help a pickle through: torch refuses it
    (tmp_path / "model.json").write_text(
        json.dumps(
            {
                "env_id": "fungi_v0",
                "encoder": "scaled",
                "policy": {"format": "mushgym-state-dict-v1", "net_arch": [8], "activation": "tanh"},
            }
        )
    )
    if suffix == ".pt":
        with pytest.raises(ValueError, match="weights-only"):
            load_policy(model)
    else:
        with pytest.raises(ValueError, match="trust"):
            load_policy(model)
    assert not marker.exists()


def test_eval_cli_refuses_bad_games_and_untrusted_zip(tmp_path, capsys):
    pytest.importorskip("rich")
    from mushgym.agents.evaluate import eval_main

    for bad in ("-3", "0"):
        with pytest.raises(SystemExit) as exc:
            eval_main(["fungi_v0", "random", "greedy", "--games", bad, "--no-save"])
        assert exc.value.code == 2
        assert "positive integer" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"not a model, just text\n", b"PK\x05\x06" + bytes(18)], ids=["text", "empty zip"])
def test_eval_a_file_that_is_no_model_is_one_clear_error_with_or_without_trust(tmp_path, content):
    """A file that is neither a weights-only policy nor an SB3 archive or policy: the same clear
    message whether or not the model is trusted (never a traceback from unpickling)."""
    pytest.importorskip("torch")
    from mushgym.agents.evaluate import eval_main

    model = tmp_path / "model.pt"
    model.write_bytes(content)
    for trust in ([], ["--trust-model"]):
        with pytest.raises(SystemExit, match=r"mushgym eval: .*model.pt is not a saved model: neither"):
            eval_main(["fungi_v0", str(model), "greedy", "--games", "2", "--no-save", *trust])
    # a torch file that is no SB3 policy, loaded with trust: a clear error too
    import torch

    torch.save({"x": torch.zeros(2)}, model)
    with pytest.raises(SystemExit, match=r"model.pt is not a saved model: it does not load as an SB3"):
        eval_main(["fungi_v0", str(model), "greedy", "--games", "2", "--no-save", "--trust-model"])


# --- states at the Python boundary ------------------------------------------------------------

import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import mushgym  # noqa: E402
from mushgym.testing import slow_scale  # noqa: E402

sys.path.insert(0, str(TESTS_DIR))
from fuzz_states import fuzz  # noqa: E402


def _bounded_games():
    out = []
    for env_id in mushgym.list_envs():
        g = mushgym.game(env_id)
        fields = g.layout.fields.values() if g.layout is not None else ()
        declared = any(f.low is not None for f in fields)
        out.append(
            pytest.param(
                env_id,
                marks=()
                if declared
                else pytest.mark.skip(reason=f"{env_id} declares no state bounds yet (Layout.bound in its layout.py)"),
            )
        )
    return out


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_functional_api_refuses_bad_dtype_and_length(env_id):
    g = mushgym.game(env_id)
    s = g.new_state(0)
    for bad in (s[:3], s.astype(np.int32), list(s), np.concatenate([s, s])):
        for call in (
            g.current_player,
            g.is_terminal,
            g.returns,
            g.legal_mask,
            g.validate,
            lambda x: g.observe(x, 0),
            lambda x: g.step(x, 0),
        ):
            with pytest.raises(ValueError, match="1-D int64 array of length"):
                call(bad)
    with pytest.raises(ValueError, match="no player"):
        g.observe(s, True)


def test_corrupted_field_is_named():
    g = mushgym.game("fungi_v0")
    s = g.new_state(3)
    t = s.copy()
    t[g.layout.fields["forest"].offset + 2] = 10**12
    with pytest.raises(ValueError, match=r"invalid state: forest\[2\] = 1000000000000 is outside 0\.\.22"):
        g.observe(t, 0)
    g.step_inplace(s.copy(), int(g.legal_actions(s)[0]), check=False)  # the fast path does not check
    t = s.copy()
    t[g.layout.fields["decisions_n"].offset] = 5
    with pytest.raises(ValueError, match="decisions_n = 5"):
        g.legal_mask(t)


def test_mycelia_corrupted_fields_are_named():
    g = mushgym.game("mycelia_v1")
    s = g.new_state(3)
    f = g.layout.fields
    for name, idx, value, msg in (
        ("spores", (3, 1), 31, r"spores\[3, 1\] = 31 is outside 0\.\.30"),
        ("adjacency", (2, 0), 50, r"adjacency\[2, 0\] = 50 is outside -1\.\.49"),
        # card ids are bounded by the 104 cards of the layout (69 + the North American expansion's 35)
        ("mat_card", (0, 4), 104, r"mat_card\[0, 4\] = 104 is outside -2\.\.103"),
        ("card_loc", (5,), -1, r"card_loc\[5\] = -1 is outside"),
        ("decisions", (0, 2), 10**6, r"decisions\[0, 2\] = 1000000 is outside -1\.\.103"),
        ("tiles_placed", (), 51, r"tiles_placed = 51 is outside 0\.\.50"),
    ):
        t = s.copy()
        t[f[name].index(*idx)] = value
        for call in (g.legal_mask, lambda x: g.observe(x, 0), g.returns):
            with pytest.raises(ValueError, match=msg):
                call(t)
    g.validate(s)  # a dealt game is within its bounds


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_bool_and_float_actions_refused(env_id):
    g = mushgym.game(env_id)
    s = g.new_state(0)
    a = int(g.legal_actions(s)[0])
    for bad in (True, False, float(a), np.bool_(True), "0"):
        with pytest.raises(ValueError, match="illegal action"):
            g.step(s, bad)
    assert np.array_equal(g.step(s, np.int64(a)), g.step(s, a))
    env = mushgym.make(env_id)
    env.reset(seed=np.int64(3))  # numpy seeds accepted
    with pytest.raises(AssertionError, match="not in action space"):
        env.step(True)
    raw = env.unwrapped
    with pytest.raises(ValueError, match="illegal action"):
        raw.step(True)


def test_aec_lifecycle_errors():
    raw = mushgym.make("fungi_v0").unwrapped
    with pytest.raises(RuntimeError, match="before reset"):
        raw.observe("player_0")
    with pytest.raises(RuntimeError, match="before reset"):
        raw.step(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        raw.reset(seed=0, options={"num_players": 3})
    assert any("ignored" in str(w.message) for w in caught)
    rng = np.random.default_rng(0)
    while raw.agents:
        agent = raw.agent_selection
        if raw.terminations[agent]:
            raw.step(None)
            continue
        raw.step(int(rng.choice(np.flatnonzero(raw.observe(agent)["action_mask"]))))
    with pytest.raises(RuntimeError, match="every agent is done"):
        raw.step(0)


def test_wrapped_env_checks_survive_python_O(tmp_path):
    import subprocess

    code = (
        "import mushgym\nenv = mushgym.make('fungi_v0'); env.reset(seed=0)\n"
        "for bad in (450, -1, True):\n"
        "    try:\n        env.step(bad)\n    except AssertionError as e:\n        print('refused', bad)\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.split("\n")[:3] == ["refused 450", "refused -1", "refused True"], out.stderr[-2000:]


#: games whose validate kernel refuses every inconsistent state the fuzzer makes (0 silent)
NO_SILENT = ("fungi_v0", "mycology_v1", "mycelium_v2", "mycelia_v1")  # every game: 0 accepted-but-invalid


@pytest.mark.parametrize("env_id", _bounded_games())
def test_fuzz_states_small(env_id):
    for kind in ("random", "corrupt"):
        counts = fuzz(env_id, kind, 60, seed=1)
        assert counts["crash"] == 0 and counts["unclear"] == 0, (kind, counts)
        assert env_id not in NO_SILENT or counts["silent"] == 0, (kind, counts, counts.why)
    assert fuzz(env_id, "random", 30, seed=2)["refused"] == 30


@pytest.mark.slow
@pytest.mark.parametrize(
    "env_id, options",
    [pytest.param(p.values[0], {}, marks=p.marks) for p in _bounded_games()] + [("mycology_v1", {"num_players": 6})],
)
def test_fuzz_states_large(env_id, options):
    """The full size, 10,000 + 10,000 per game with MUSHGYM_SLOW_SCALE=34 (or, with counts:
    ``python tests/fuzz_states.py ENV --random 10000 --corrupt 10000 --seed 7 --show``)."""
    n = 300 * slow_scale()
    for kind in ("random", "corrupt"):
        counts = fuzz(env_id, kind, n, seed=3, options=options)
        assert counts["crash"] == 0 and counts["unclear"] == 0, (kind, counts)
        assert env_id not in NO_SILENT or counts["silent"] == 0, (kind, counts, counts.why)


# --- vector API ------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_vector_masks_and_states_are_read_only(env_id):
    import mushgym.vector

    vec = mushgym.vector.make(env_id, num_envs=4, seed=0)
    obs, masks, player = vec.reset()
    with pytest.raises(ValueError, match="read-only"):
        masks[:] = 1
    with pytest.raises(ValueError, match="read-only"):
        vec.states[0, :] = 7
    illegal = int(np.flatnonzero(vec.masks[0] == 0)[0])
    acts = vec.sample_random_actions().copy()
    acts[0] = illegal
    with pytest.raises(ValueError, match="illegal"):
        vec.step(acts)
    sa = mushgym.vector.make_single_agent(env_id, num_envs=2, seed=0, copy=False)
    _, info = sa.reset()
    with pytest.raises(ValueError, match="read-only"):
        info["action_mask"][:] = 1


def test_vector_set_state_is_checked():
    import mushgym.vector

    game = mushgym.game("fungi_v0")
    vec = mushgym.vector.make("fungi_v0", num_envs=3, seed=0)
    vec.reset()
    garbage = np.random.default_rng(0).integers(-(2**62), 2**62, game.state_size)
    with pytest.raises(ValueError, match="invalid state"):
        vec.set_state(1, garbage)
    with pytest.raises(ValueError, match="env index"):
        vec.set_state(3, game.new_state(0))
    s = game.new_state(42)
    vec.set_state(1, s)
    assert np.array_equal(vec.states[1], s)
    assert np.array_equal(vec.masks[1], game.legal_mask(s))
    assert vec.current_player[1] == game.current_player(s)
    assert np.array_equal(vec.obs[1], game.observe(s, game.current_player(s)))
    vec.step(vec.sample_random_actions(out=np.zeros(3, np.int64)))


def test_options_are_type_checked():
    g = mushgym.game("fungi_v0")
    for name, choices in g.option_choices.items():
        for c in choices:
            if type(c) is int:
                for bad in (float(c), bool(c) if c in (0, 1) else float(c) + 0.5):
                    with pytest.raises(ValueError, match="valid choices"):
                        mushgym.game("fungi_v0", **{name: bad})
                assert mushgym.game("fungi_v0", **{name: np.int64(c)}).options[name] == c
    for name, choices in mushgym.game("mycology_v1").option_choices.items():
        if all(type(c) is int for c in choices):
            with pytest.raises(ValueError, match="valid choices"):
                mushgym.game("mycology_v1", **{name: float(choices[0])})


def test_random_rollouts_arguments_type_checked():
    g = mushgym.game("fungi_v0")
    for kw in (
        {"n_games": 2.0},
        {"n_games": True},
        {"n_games": 0},
        {"n_games": 2, "seed": -1},
        {"n_games": 2, "seed": 1.0},
        {"n_games": 2, "seed": 2**63},
        {"n_games": 2, "threads": 1.5},
        {"n_games": 2, "threads": True},
        {"n_games": 2, "threads": 0},
    ):
        with pytest.raises(ValueError, match="must be"):
            g.random_rollouts(**kw)
    assert g.random_rollouts(np.int64(2), seed=np.int64(1), threads=np.int64(1))["games"] == 2


def test_vector_arguments_type_checked():
    import mushgym.vector

    for kw in ({"max_episode_steps": True}, {"threads": 1.5}, {"threads": True}):
        with pytest.raises(ValueError):
            mushgym.vector.make("fungi_v0", num_envs=2, **kw)


# --- the state header ------------------------------------------------------------------------

from mushgym.core.header import HEADER_WORDS  # noqa: E402


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_every_state_carries_the_header(env_id):
    import mushgym.vector

    g = mushgym.game(env_id)
    s = g.new_state(7)
    assert s.shape == (g.state_size,) and np.array_equal(s[-HEADER_WORDS:], g.header)
    assert np.array_equal(g.step(s, int(g.legal_actions(s)[0]))[-HEADER_WORDS:], g.header)
    assert (g.header >= 0).all() and (g.header < 2**15).all()  # fits an int16 state too
    vec = mushgym.vector.make(env_id, num_envs=3, seed=0, max_episode_steps=5)
    vec.reset()
    for _ in range(12):  # across auto-resets (the batch loops' deals)
        vec.step(vec.sample_random_actions())
        assert (vec.states[:, -HEADER_WORDS:] == g.header).all()
    g.validate(vec.states[0].copy())


def test_foreign_states_are_refused_naming_why():
    fungi, myc2 = mushgym.game("fungi_v0"), mushgym.game("mycology_v1")
    myc6 = mushgym.game("mycology_v1", num_players=6)
    assert myc6.state_size == myc2.state_size  # same length: only the header tells them apart
    with pytest.raises(ValueError, match=r"dealt with options \{'num_players': 6\}"):
        myc2.observe(myc6.new_state(0), 0)
    with pytest.raises(ValueError, match="a state of mycology_v1, not of fungi_v0"):
        fungi.current_player(myc2.new_state(0))
    with pytest.raises(ValueError, match=r"options \{'reward': 'score_diff'\}"):
        fungi.legal_mask(mushgym.game("fungi_v0", reward="score_diff").new_state(0))
    s = fungi.new_state(0)
    s[-1] += 1
    with pytest.raises(ValueError, match="layout version"):
        fungi.step(s, 0)
    # a state without a header (the old layout's length) is refused
    with pytest.raises(ValueError, match="length"):
        fungi.is_terminal(fungi.new_state(0)[:-HEADER_WORDS])


def test_header_changes_with_layout_and_version():
    from mushgym.core.header import make_header

    g = mushgym.game("fungi_v0")
    body = g.config[:-HEADER_WORDS]
    base = make_header(g.env_id, g.options, body, g.layout, g._body_size, 1)
    assert np.array_equal(base, g.header)
    assert make_header(g.env_id, g.options, body, g.layout, g._body_size, 2)[3] != base[3]
    assert make_header(g.env_id, g.options, body, None, g._body_size, 1)[3] != base[3]
    assert make_header("other_v0", g.options, body, g.layout, g._body_size, 1)[0] != base[0]
    ids = {int(mushgym.game(e).header[0]) for e in mushgym.list_envs()}
    assert len(ids) == len(mushgym.list_envs())  # the registered games are told apart


def test_aec_set_state_checks_and_continues():
    env = mushgym.make_raw("mycology_v1")
    env.reset(seed=1)
    saved = env.state()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match="num_players"):
        env.set_state(mushgym.game("mycology_v1", num_players=4).new_state(0))
    with pytest.raises(ValueError, match="invalid state"):
        env.set_state(np.random.default_rng(0).integers(-9, 9, saved.shape[0]))
    env.set_state(saved)
    assert np.array_equal(env.state(), saved)
    assert env.agent_selection == f"player_{env.game.current_player(saved)}"


# --- seeds -----------------------------------------------------------------------------------


def test_rng_seed_is_seedsequence_of_the_whole_seed():
    from mushgym.core.rng import rng_seed, seed_key

    seeds = [0, 1, 2**32 - 1, 2**32, 2**60, 2**63 - 1] + np.random.default_rng(0).integers(0, 2**63 - 1, 50).tolist()
    for seed in seeds:
        want = np.random.SeedSequence(seed).generate_state(4, np.uint32).astype(np.int64)
        for fn in (rng_seed, rng_seed.py_func):  # compiled and plain Python agree
            got = np.zeros(4, np.int64)
            fn(got, 0, np.int64(seed) if fn is rng_seed else seed)
            assert np.array_equal(got, want), seed
    assert seed_key(np.int64(5)) == 5 and seed_key(2**70) != seed_key(2**70 + 1)
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises((TypeError, ValueError), match="seed"):
            seed_key(bad)


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_whole_seed_deals(env_id):
    g = mushgym.game(env_id)
    assert not np.array_equal(g.new_state(0), g.new_state(2**60))
    assert not np.array_equal(g.new_state(5), g.new_state(2**64 + 5))
    assert np.array_equal(g.new_state(np.uint64(9)), g.new_state(9))
    with pytest.raises(ValueError, match="non-negative"):
        g.new_state(-1)


def test_vector_seeds_are_not_reduced_mod_2_64():
    import mushgym.vector

    a = mushgym.vector.make("fungi_v0", num_envs=2, seed=5)
    b = mushgym.vector.make("fungi_v0", num_envs=2, seed=2**64 + 5)
    c = mushgym.vector.make("fungi_v0", num_envs=2, seed=np.int64(5))
    for v in (a, b, c):
        v.reset()
    assert not np.array_equal(a.states, b.states) and np.array_equal(a.states, c.states)
    g = a.game
    assert np.array_equal(a.states[1], g.new_state(int(a.episode_seeds[1])))  # episode seeds still deal


def test_numpy_seeds_everywhere():
    from mushgym.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv("fungi_v0")
    o1, _ = env.reset(seed=np.int64(3))
    o2, _ = env.reset(seed=3)
    assert np.array_equal(o1, o2)
    with pytest.warns(UserWarning, match="ignored"):
        env.reset(seed=1, options={"num_players": 3})
    for bad in (True, 1.0, np.float32(2), 10**30):
        with pytest.raises(ValueError, match="illegal action"):
            _step_raise(bad)


def _step_raise(action):
    from mushgym.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv("fungi_v0", illegal_action="raise")
    env.reset(seed=0)
    env.step(action)


DETERMINISM = (
    "import mushgym, numpy as np\n"
    "for e in ('fungi_v0', 'mycology_v1'):\n"
    "    g = mushgym.game(e); s = g.new_state(2**61 + 3); rng = np.random.default_rng(0)\n"
    "    for _ in range(15):\n"
    "        s = g.step(s, int(rng.choice(g.legal_actions(s))))\n"
    "    print(e, s.tobytes().hex()[:4000])\n"
)


def test_seed_determinism_across_processes_and_jit():
    import os
    import subprocess

    outs = []
    for jit in ("0", "1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit)
        out = subprocess.run([sys.executable, "-c", DETERMINISM], capture_output=True, text=True, env=env, timeout=900)
        assert out.returncode == 0, out.stderr[-2000:]
        outs.append(out.stdout)
    assert outs[0] == outs[1] == outs[2] and outs[0]


# --- data files ------------------------------------------------------------------------------


def _deck_modules():
    from mushgym.envs.fungi import cards as fungi_cards
    from mushgym.envs.mycology import cards as myc_cards

    return [(fungi_cards, fungi_cards.DEFAULT_DECK_PATH), (myc_cards, myc_cards.DEFAULT_PATH)]


@pytest.mark.parametrize("which", [0, 1])
def test_deck_files_bad_encoding_types_and_sizes(tmp_path, which):
    import re

    cards, path = _deck_modules()[which]
    text = path.read_text()
    p = tmp_path / "deck.toml"
    p.write_bytes(b"\xff\xfe" + text.encode())
    with pytest.raises(cards.DeckError, match=r"deck\.toml: not UTF-8"):
        cards.load_deck(p)
    table = re.search(r"^\[\[(\w+)\]\]$", text, re.M).group(1)
    p.write_text(f"{table} = [1, 2, 3]\n" + text.replace(f"[[{table}]]", "[[unused]]"))
    with pytest.raises(
        cards.DeckError, match=rf"deck\.toml: .*{table if table == 'card' else 'forest card'} 1: must be a table"
    ):
        cards.load_deck(p)
    for field in ("flavor", "sticks", "points", "feast"):
        m = re.search(rf"^{field} = (\d+)$", text, re.M)
        if m:
            p.write_text(text[: m.start(1)] + str(2**62) + text[m.end(1) :])
            with pytest.raises(
                cards.DeckError, match=rf"deck\.toml: .*card .*\(.+\): field '{field}' = {2**62} is outside"
            ):
                cards.load_deck(p)
            p.write_text(text[: m.start(1)] + "[1, 2]" + text[m.end(1) :])
            with pytest.raises(cards.DeckError, match=rf"field '{field}' must be an integer"):
                cards.load_deck(p)


# --- numba cache, threading layer ------------------------------------------------------------

CACHED_MODULE = "from numba import njit\n@njit(cache=True)\ndef f(x):\n    return x * 2 + 1\n"


def test_corrupted_cache_is_dropped_and_recompiled(tmp_path):
    import subprocess

    (tmp_path / "mod_cg.py").write_text(CACHED_MODULE)
    code = "import mushgym; mushgym.setup(); import mod_cg; print(mod_cg.f(3))"  # the guard comes with the engine

    def run():
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)

    assert run().stdout.strip() == "7"
    files = list((tmp_path / "__pycache__").glob("*.nb[ic]"))
    assert files
    for kind, damage in (("truncated", lambda b: b[:20]), ("garbage", lambda b: b"garbage\n")):
        for f in (tmp_path / "__pycache__").glob("*.nb[ic]"):
            f.write_bytes(damage(f.read_bytes()))
        out = run()
        assert out.returncode == 0 and out.stdout.strip() == "7", out.stderr[-2000:]
        notes = [line for line in out.stderr.splitlines() if "could not be loaded" in line]
        assert len(notes) == 1 and "recompiling" in notes[0], out.stderr
        out = run()  # the cache was rebuilt: silent again
        assert out.stdout.strip() == "7" and "could not be loaded" not in out.stderr


def test_drop_corrupted_cache_drops_the_whole_game(tmp_path, monkeypatch):
    """Every cache folder of the game (its package and sub-packages) is emptied, another
    game's is not. On a game written into ``tmp_path``: dropping a real game's cache here
    would make every later test in the run compile that game again."""
    from mushgym.core import cache

    envs = tmp_path / "envs"
    game_dir, other = envs / "probegame", envs / "othergame"
    for d in (game_dir, game_dir / "board", other):
        d.mkdir(parents=True)
        (d / "__init__.py").write_text("")
    (game_dir / "rules.py").write_text("")
    monkeypatch.setattr(cache, "_package_roots", lambda: {"mushgym": cache.MUSHGYM_DIR, "mushgym.envs": envs})
    made = []
    for src in [*cache._game_source_dirs(game_dir), other]:
        for cdir in cache.cache_dirs(src):
            if str(cdir).startswith(str(tmp_path)):
                cdir.mkdir(parents=True, exist_ok=True)
                f = cdir / "zz_probe.fake-1.py311.nbi"
                f.write_bytes(b"x")
                made.append(f)
    assert len(made) == 3
    cache.drop_corrupted_cache(str(game_dir / "rules.py"), made[0].parent, EOFError("probe"))
    assert not made[0].exists() and not made[1].exists()
    assert made[2].exists()  # another game's cache stays


def os_access(path: Path) -> bool:
    import os

    return os.access(path, os.W_OK)


def test_cache_clear_honours_numba_cache_dir(tmp_path):
    """``mushgym cache-clear`` empties the games' folders under ``NUMBA_CACHE_DIR``. The
    command also visits this checkout's in-tree caches: here their deletion is recorded, not
    done (a real clear in the middle of the suite would make every later test compile again)."""
    import os
    import subprocess

    code = (
        "from pathlib import Path\nfrom mushgym.core import cache\nimport mushgym.envs\n"
        "for d in cache._game_source_dirs(Path(mushgym.envs.__path__[0]) / 'fungi'):\n"
        "    for c in cache.cache_dirs(d):\n"
        "        if str(c).startswith(%r):\n"
        "            c.mkdir(parents=True, exist_ok=True); (c / 'k.f-1.py311.nbi').write_bytes(b'x')\n" % str(tmp_path)
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=300)
    assert list(tmp_path.rglob("*.nbi"))
    clear = (
        "import sys\nfrom mushgym.core import cache\nfrom mushgym import cli\n"
        "real = cache.clear_cache_files\n"
        "cache.clear_cache_files = lambda d: real(d) if str(d).startswith(%r) else 0\n"
        "sys.exit(cli.main(['cache-clear']))\n" % str(tmp_path)
    )
    out = subprocess.run([sys.executable, "-c", clear], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0 and "removed" in out.stdout and " 0 " not in out.stdout, out.stdout + out.stderr
    assert not list(tmp_path.rglob("*.nbi"))


def test_cache_clear_covers_the_user_wide_fallback(monkeypatch):
    """A read-only install caches in numba's user-wide folder: cache-clear visits it too
    (recorded, not deleted: this checkout's caches stay)."""
    from numba.core import caching

    import mushgym.envs
    from mushgym.core import cache

    game = Path(mushgym.envs.__path__[0]) / "fungi"
    fallback = Path(caching.UserWideCacheLocator(lambda: None, str(game / "__init__.py")).get_cache_path())
    assert fallback in cache.cache_dirs(game)
    visited = []
    monkeypatch.setattr(cache, "clear_cache_files", lambda d: visited.append(Path(d)) or 0)
    cache.clear_all_caches([game.parent])
    assert fallback in visited


# --- pickling --------------------------------------------------------------------------------


def _pickle_roundtrip_steps(make, step, n_steps=30):
    import pickle

    a = make()
    b = pickle.loads(pickle.dumps(a))
    for _ in range(n_steps):
        ra, rb = step(a), step(b)
        for x, y in zip(ra, rb):
            assert np.array_equal(np.asarray(x), np.asarray(y))
    return b


def test_vector_classes_and_single_agent_env_pickle():
    import pickle
    import subprocess

    import mushgym.vector
    from mushgym.wrappers.single_agent import SingleAgentEnv

    def vec():
        v = mushgym.vector.make("fungi_v0", num_envs=3, seed=4)
        v.reset()
        return v

    b = _pickle_roundtrip_steps(vec, lambda v: v.step(v.sample_random_actions(out=np.zeros(3, np.int64)))[:6])
    with pytest.raises(ValueError, match="read-only"):
        b.masks[0, 0] = 1
    assert np.shares_memory(b.vector_states, b._b.states)  # the raw buffer (b.states converts to int64)

    def sa():
        v = mushgym.vector.make_single_agent("fungi_v0", num_envs=3, seed=4)
        v.reset()
        return v

    def sa_step(v):
        m = v.action_masks()
        return v.step(np.array([int(np.flatnonzero(r)[0]) if r.any() else 0 for r in m]))[:4]

    _pickle_roundtrip_steps(sa, sa_step)

    def single():
        e = SingleAgentEnv("fungi_v0")
        e.reset(seed=2)
        return e

    def single_step(e):
        if e.core.needs_reset[0]:
            e.reset(seed=3)
        r = e.step(int(np.flatnonzero(e.action_masks())[0]))
        return r[:4]

    _pickle_roundtrip_steps(single, single_step)
    # and in another process (SB3's SubprocVecEnv, Ray)
    blob = pickle.dumps(vec())
    code = (
        "import pickle, sys, numpy as np\nv = pickle.loads(sys.stdin.buffer.read())\n"
        "for _ in range(5): v.step(v.sample_random_actions(out=np.zeros(3, np.int64)))\nprint('ok', v.states.shape)"
    )
    out = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True, timeout=600)
    assert out.stdout.decode().startswith("ok"), out.stderr.decode()[-2000:]


# --- CLI ---------------------------------------------------------------------------------------


def test_cli_library_errors_are_one_line(capsys):
    assert cli.main(["play", "no_such_env"]) == 2
    err = capsys.readouterr().err
    assert "unknown env id 'no_such_env'" in err and "Traceback" not in err


# --- fuzz every entry point ------------------------------------------------------------------

from fuzz_entry import fuzz as fuzz_entry  # noqa: E402

SMALL = {"aec": 20, "wrapped": 20, "vector": 12, "single_agent": 12, "deck": 20, "cli": 4}


@pytest.mark.parametrize("entry", sorted(SMALL))
@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_fuzz_entry_points_small(entry, env_id):
    if entry == "cli" and env_id != "fungi_v0":
        pytest.skip("the CLI cases do not depend on the game")
    counts = fuzz_entry(entry, env_id, SMALL[entry], seed=1)
    assert counts["crash"] == counts["unclear"] == counts["silent"] == 0, (entry, counts)
    assert counts["refused"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(SMALL))
@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v1"])
def test_fuzz_entry_points_large(entry, env_id):
    if entry == "cli" and env_id != "fungi_v0":
        pytest.skip("the CLI cases do not depend on the game")
    n = (8 if entry == "cli" else 300) * slow_scale()  # a CLI case is a process (~2 s)
    counts = fuzz_entry(entry, env_id, n, seed=2)
    assert counts["crash"] == counts["unclear"] == counts["silent"] == 0, (entry, counts)


def test_a_position_without_a_move_is_refused():
    """Found by the 6-player Mycology fuzz: a decision argument rewritten to a value within
    its bounds and passing the game's own check, after which the player to act had no legal
    action. ``Game.validate`` refuses such a state in every game."""
    from mushgym import testing
    from mushgym.core.validate import first_out_of_bounds, slot_name
    from mushgym.envs.mycology import layout as mycology_layout

    game = mushgym.game("mycology_v1", num_players=6)
    lo, hi = game._state_low, game._state_high
    first = [i for i in range(game.state_size) if slot_name(game.layout, i).startswith("decisions[0,")]
    found = 0
    for state in testing.random_states(game, n_games=2, seed=3, every=7):
        if mycology_layout.decision_depth(state) == 0:
            continue
        for i in first:
            for v in range(int(lo[i]), min(int(hi[i]), 12) + 1):
                s = state.copy()
                s[i] = v
                if (
                    first_out_of_bounds(s, lo, hi) >= 0
                    or game.kernels.validate(s, game.config, game.work) != 0
                    or game.kernels.is_terminal(s)
                ):
                    continue
                mask = np.zeros(game.num_actions, np.int8)
                if game.kernels.legal_mask(s, game.config, mask, game.work) == 0:
                    found += 1
                    with pytest.raises(ValueError, match="has no legal action"):
                        game.validate(s)
    assert found > 0, "no corrupted decision without a move was met: the check is not exercised"


def test_training_benchmark_refuses_a_runs_pickles_without_trust_run(tmp_path):
    """benchmarks/training/run.py --skip-train --run-dir RUN evaluates a run it did not train: its
    SB3 checkpoints are pickles, so it unpickles them only with --trust-run."""
    import importlib.util
    import shutil

    script = REPO_ROOT / "benchmarks" / "training" / "run.py"
    spec = importlib.util.spec_from_file_location("training_run_under_test", script)
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    marker = tmp_path / "pwned"
    run_dir = tmp_path / "run"
    (run_dir / "checkpoints").mkdir(parents=True)
    _malicious_pickle(run_dir / "checkpoints" / "ppo_100_steps.zip", marker)
    args = [
        "--env",
        "fungi_v0",
        "--skip-train",
        "--run-dir",
        str(run_dir),
        "--out",
        str(tmp_path / "out"),
        "--games",
        "2",
        "--curve-games",
        "2",
    ]
    with pytest.raises(SystemExit, match="--trust-run"):  # no final.pt: the latest checkpoint is exported
        run.main(args)
    shipped = REPO_ROOT / "benchmarks" / "training" / "fungi_v0_ppo.pt"
    shutil.copy(shipped, run_dir / "final.pt")
    shutil.copy(shipped.with_suffix(".json"), run_dir / "final.json")
    with pytest.raises(SystemExit, match="--trust-run"):  # the learning curve reads every checkpoint
        run.main(args)
    assert not marker.exists()
