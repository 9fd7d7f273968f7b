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
