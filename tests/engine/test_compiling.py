"""Compilation is visible (one line on stderr per game and kernel group) and can be done ahead of time."""

import sys
import types

import numpy as np
import pytest
from numba import njit
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym import aec, cli, compiling, vector


def _fake_kernel_module(name):
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec("def step(x):\n    return x + 1\n\ndef par_vec_step(x):\n    return step(x) * 2\n", module.__dict__)
    return module


def test_one_notice_per_game_and_group_on_real_compiles_only(capsys, monkeypatch):
    monkeypatch.setenv("MUSHGYM_COMPILE_NOTICE", "1")
    module = _fake_kernel_module("mushgym.envs.noticetoy.rules")
    try:
        step = njit(module.step)
        assert step(1) == 2
        assert step(2) == 3  # same types: no compile, no second line
        assert step(1.5) == 2.5  # a new specialisation of an announced group: silent
        module.step = step
        vec = njit(module.par_vec_step)
        assert vec(1) == 4  # compiles par_vec_step (and nothing announced for the inner call)
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [
            "mushgym: compiling noticetoy game kernels (first use; ~10 s on 2 idle cores, cached afterwards; "
            "`mushgym compile noticetoy` does it ahead of time)",
            "mushgym: compiling noticetoy parallel vector API kernels (256+ envs) (first use; ~3 min on 2 idle "
            "cores, cached afterwards; `mushgym compile noticetoy` does it ahead of time)",
        ]
        other = njit(lambda x: x)  # not a game's kernel: no notice
        other(1)
        assert capsys.readouterr().err == ""
    finally:
        del sys.modules["mushgym.envs.noticetoy.rules"]


def test_notice_can_be_silenced(capsys, monkeypatch):
    monkeypatch.setenv("MUSHGYM_COMPILE_NOTICE", "0")
    module = _fake_kernel_module("mushgym.envs.quiettoy.rules")
    try:
        assert njit(module.step)(1) == 2
        assert capsys.readouterr().err == ""
    finally:
        del sys.modules["mushgym.envs.quiettoy.rules"]


@pytest.mark.parametrize(
    "name, group",
    [
        ("init", "game"),
        ("aec_advance", "game"),
        ("random_rollouts", "rollouts"),
        ("par_vec_step", "vector_parallel"),
        ("vec_seed", "vector"),
        ("vec_step__3fa9c2e1", "vector"),
        ("sa_step", "single_agent"),
        ("par_sa_reset", "single_agent_parallel"),
        ("mcts_search__search_kernel", "search"),
        ("search_rng_seed", "search"),
    ],
)
def test_kernel_groups(name, group):
    assert compiling.kernel_group(name) == group


def test_compile_command(capsys):
    assert cli.main(["compile", "fungi_v0", "--group", "game", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "fungi_v0" in out and "game kernels" in out and "compiled (or loaded)" in out
    with pytest.raises(SystemExit, match="unknown env id 'nope_v0'"):
        cli.main(["compile", "nope_v0"])


# --- the compile worker of the first AEC step (aec.compile_ahead) ----------------------------


def test_ahead_signatures_are_the_ones_the_aec_env_uses():
    import mushgym

    env = mushgym.make("fungi_v0")
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    game = env.unwrapped.game
    for name, sig in aec._ahead_signatures(game).items():
        used = [tuple(s) for s in game.compiled(name).signatures]
        assert sig in used, (name, sig, used)  # the worker compiles exactly what the env calls


def test_no_worker_when_disabled_or_cached(monkeypatch):
    import mushgym

    game = mushgym.game("fungi_v0")
    monkeypatch.setenv("MUSHGYM_COMPILE_WORKERS", "0")
    monkeypatch.setattr(compiling, "_ahead_started", {})
    assert aec.compile_ahead(game, "fungi_v0") is None
    monkeypatch.setenv("MUSHGYM_COMPILE_WORKERS", "1")
    game.new_state(0)
    game.observe(game.new_state(0), 0)
    if not compiling._cold(game.kernels.observe) and not compiling._cold(game.loops.aec_advance):
        assert aec.compile_ahead(game, "fungi_v0") is None  # warm cache: one stat each, no process
    assert aec.compile_ahead(game, "fungi_v0") is None  # once per env id and process


AFTER_WORKER = r"""
import sys
from numba.core import event
compiled = []
class L(event.Listener):
    def on_start(self, ev): compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev): pass
event.register("numba:compile", L())
import mushgym
env = mushgym.make("fungi_v0")
env.reset(seed=0)
obs, *_ = env.last()
env.step(int(obs["action_mask"].nonzero()[0][0]))
print(" ".join(compiled))
"""


def test_the_worker_fills_the_cache_the_env_then_loads(tmp_path):
    import os
    import subprocess

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), MUSHGYM_COMPILE_WORKERS="0", MUSHGYM_COMPILE_NOTICE="0")
    subprocess.run([sys.executable, "-m", "mushgym.aec", "fungi_v0"], env=env, check=True, timeout=900)
    out = subprocess.run(
        [sys.executable, "-c", AFTER_WORKER], env=env, check=True, timeout=900, capture_output=True, text=True
    ).stdout.split()
    assert "init" in out  # the deal was not in the worker's share
    assert "observe" not in out and "aec_advance" not in out, out


# --- the compile worker of the first vector step (vector.vector_ahead) ---------------------


@pytest.mark.parametrize("single_agent", [False, True])
def test_vector_step_signature_is_the_one_the_env_uses(single_agent):
    import mushgym.vector

    if single_agent:
        vec = mushgym.vector.make_single_agent("fungi_v0", 3, seed=0)
        vec.reset()
        vec.step(vec.action_masks().argmax(axis=1))
    else:
        vec = mushgym.vector.make("fungi_v0", 3, seed=0)
        vec.reset()
        vec.step(vec.sample_random_actions())
    used = [tuple(s) for s in vec._step_kernel().signatures]
    assert vector.vector_step_signature(vec) in used, used  # the worker compiles what step calls


def test_no_vector_worker_when_disabled_or_cached(monkeypatch):
    import mushgym.vector

    started = []
    monkeypatch.setattr(compiling, "_start_worker", lambda key, module, argv: started.append(argv) or object())
    monkeypatch.setattr(compiling, "_ahead_started", {})
    monkeypatch.setenv("MUSHGYM_COMPILE_WORKERS", "0")
    vec = mushgym.vector.make("fungi_v0", 2, seed=0)
    assert vec._ahead is None and started == []
    vec.reset()
    vec.step(vec.sample_random_actions())  # compiled (or loaded) now: the cache holds it
    monkeypatch.setenv("MUSHGYM_COMPILE_WORKERS", "1")
    if compiling.compile_workers_enabled() and not compiling._cold(vec._step_kernel()):
        assert mushgym.vector.make("fungi_v0", 2, seed=0)._ahead is None and started == []


def test_a_cold_vector_step_loop_starts_one_worker_and_step_waits_for_it(monkeypatch):
    import mushgym.vector

    class Proc:
        waited = 0

        def wait(self, timeout=None):
            Proc.waited += 1

    started = []
    monkeypatch.setattr(compiling, "_ahead_started", {})
    monkeypatch.setattr(compiling, "_cold", lambda dispatcher: True)
    monkeypatch.setattr(compiling, "compile_workers_enabled", lambda: True)

    def start(key, module, argv):
        started.append([module, *argv])
        compiling._ahead_started[key] = Proc()
        return compiling._ahead_started[key]

    monkeypatch.setattr(compiling, "_start_worker", start)
    vec = mushgym.vector.make("fungi_v0", 2, seed=0)
    assert started == [
        ["mushgym.vector", "fungi_v0", "MushroomVectorEnv", "0", vec.obs_dtype.name, vec.state_dtype.name]
    ]
    mushgym.vector.make("fungi_v0", 2, seed=0)
    assert len(started) == 1  # once per loop and argument types in a process
    vec.reset()
    assert Proc.waited == 0  # reset runs alongside the worker
    vec.step(vec.sample_random_actions())
    vec.step(vec.sample_random_actions())
    assert Proc.waited == 1  # the first step waits for it, once


def test_compile_log_records_each_outermost_compilation_and_the_report_sums_it(tmp_path, monkeypatch, capsys):
    log = tmp_path / "compile.log"
    monkeypatch.setenv("MUSHGYM_COMPILE_LOG", str(log))
    compiling.install_compile_notice()
    module = _fake_kernel_module("mushgym.envs.logtoy.rules")
    try:
        step = njit(module.step)
        module.step = step
        outer = njit(module.par_vec_step)
        assert outer(1) == 4  # compiles par_vec_step and, inside it, step: one line
        assert outer(2) == 6  # no compilation: no line
        assert step(1.5) == 2.5  # a new signature of step: a line of its own
    finally:
        del sys.modules["mushgym.envs.logtoy.rules"]
    lines = [line.split("\t") for line in log.read_text().splitlines()]
    assert [(fields[2], fields[3]) for fields in lines] == [
        ("mushgym.envs.logtoy.rules.par_vec_step", "(int64,)"),
        ("mushgym.envs.logtoy.rules.step", "(float64,)"),
    ]
    assert all(float(fields[1]) >= 0 for fields in lines)
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    try:
        import compile_log
    finally:
        sys.path.pop(0)
    log.write_text(log.read_text() + "\t".join(["99999", "1.5", *lines[1][2:]]) + "\n")  # another process, same one
    compile_log.main([str(log), "--top", "5"])
    out = capsys.readouterr().out
    assert "in 3 compilations" in out and "repeat a function and signature" in out
    assert "mushgym.envs.logtoy.rules.step (float64,)" in out
