"""Regression tests of issue 10 (hardening): bad input gets a clear error, never foreign code or a crash."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

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

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "training" / "fungi_v0_ppo.pt"
    weights = torch.load(path, weights_only=True)   # plain tensors: no unpickling of objects
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
    if suffix == ".zip":   # an SB3-looking archive whose entries are pickles
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
    # a weights-only description does not help a pickle through: torch refuses it
    (tmp_path / "model.json").write_text(json.dumps({"env_id": "fungi_v0", "encoder": "scaled", "policy": {
        "format": "mushgym-state-dict-v1", "net_arch": [8], "activation": "tanh"}}))
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


# --- states at the Python boundary ------------------------------------------------------------

import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import mushgym  # noqa: E402
from mushgym.testing import slow_scale  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_states import fuzz  # noqa: E402


def _bounded_games():
    out = []
    for env_id in mushgym.list_envs():
        g = mushgym.game(env_id)
        fields = g.layout.fields.values() if g.layout is not None else ()
        declared = any(f.low is not None for f in fields)
        out.append(pytest.param(env_id, marks=() if declared else pytest.mark.skip(
            reason=f"{env_id} declares no state bounds yet (issue 10: Layout.bound in its layout.py)")))
    return out


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v0"])
def test_functional_api_refuses_bad_dtype_and_length(env_id):
    g = mushgym.game(env_id)
    s = g.new_state(0)
    for bad in (s[:3], s.astype(np.int32), list(s), np.concatenate([s, s])):
        for call in (g.current_player, g.is_terminal, g.returns, g.legal_mask, g.validate,
                     lambda x: g.observe(x, 0), lambda x: g.step(x, 0)):
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
    g.step_inplace(s.copy(), int(g.legal_actions(s)[0]), check=False)   # the fast path does not check
    t = s.copy()
    t[g.layout.fields["decisions_n"].offset] = 5
    with pytest.raises(ValueError, match="decisions_n = 5"):
        g.legal_mask(t)


def test_mycelia_corrupted_fields_are_named():
    g = mushgym.game("mycelia_v0")
    s = g.new_state(3)
    f = g.layout.fields
    for name, idx, value, msg in (
            ("spores", (3, 1), 31, r"spores\[3, 1\] = 31 is outside 0\.\.30"),
            ("adjacency", (2, 0), 50, r"adjacency\[2, 0\] = 50 is outside -1\.\.49"),
            ("mat_card", (0, 4), 69, r"mat_card\[0, 4\] = 69 is outside -2\.\.68"),
            ("card_loc", (5,), -1, r"card_loc\[5\] = -1 is outside"),
            ("decisions", (0, 2), 10**6, r"decisions\[0, 2\] = 1000000 is outside -1\.\.68"),
            ("tiles_placed", (), 51, r"tiles_placed = 51 is outside 0\.\.50")):
        t = s.copy()
        t[f[name].index(*idx)] = value
        for call in (g.legal_mask, lambda x: g.observe(x, 0), g.returns):
            with pytest.raises(ValueError, match=msg):
                call(t)
    g.validate(s)   # a dealt game is within its bounds


@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v0"])
def test_bool_and_float_actions_refused(env_id):
    g = mushgym.game(env_id)
    s = g.new_state(0)
    a = int(g.legal_actions(s)[0])
    for bad in (True, False, float(a), np.bool_(True), "0"):
        with pytest.raises(ValueError, match="illegal action"):
            g.step(s, bad)
    assert np.array_equal(g.step(s, np.int64(a)), g.step(s, a))
    env = mushgym.make(env_id)
    env.reset(seed=np.int64(3))   # numpy seeds accepted
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

    code = ("import mushgym\nenv = mushgym.make('fungi_v0'); env.reset(seed=0)\n"
            "for bad in (450, -1, True):\n"
            "    try:\n        env.step(bad)\n    except AssertionError as e:\n        print('refused', bad)\n")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.split("\n")[:3] == ["refused 450", "refused -1", "refused True"], out.stderr[-2000:]


@pytest.mark.parametrize("env_id", _bounded_games())
def test_fuzz_states_small(env_id):
    for kind in ("random", "corrupt"):
        counts = fuzz(env_id, kind, 60, seed=1)
        assert counts["crash"] == 0 and counts["unclear"] == 0, (kind, counts)
    assert fuzz(env_id, "random", 30, seed=2)["refused"] == 30


@pytest.mark.slow
@pytest.mark.parametrize("env_id", _bounded_games())
def test_fuzz_states_large(env_id):
    n = 300 * slow_scale()   # MUSHGYM_SLOW_SCALE=34: the 10,000 per kind
    for kind in ("random", "corrupt"):
        counts = fuzz(env_id, kind, n, seed=3)
        assert counts["crash"] == 0 and counts["unclear"] == 0, (kind, counts)


# --- vector API ------------------------------------------------------------------------------

@pytest.mark.parametrize("env_id", ["fungi_v0", "mycology_v0"])
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
    garbage = np.random.default_rng(0).integers(-2**62, 2**62, game.state_size)
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
    for name, choices in mushgym.game("mycology_v0").option_choices.items():
        if all(type(c) is int for c in choices):
            with pytest.raises(ValueError, match="valid choices"):
                mushgym.game("mycology_v0", **{name: float(choices[0])})


def test_vector_arguments_type_checked():
    import mushgym.vector

    for kw in ({"max_episode_steps": True}, {"threads": 1.5}, {"threads": True}):
        with pytest.raises(ValueError):
            mushgym.vector.make("fungi_v0", num_envs=2, **kw)
