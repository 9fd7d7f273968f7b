"""Compilation is visible (one line on stderr per game and kernel group) and can be done ahead of time."""

import sys
import types

import pytest
from numba import njit

from mushgym import cli, compiling


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
        assert step(2) == 3            # same types: no compile, no second line
        assert step(1.5) == 2.5        # a new specialisation of an announced group: silent
        module.step = step
        vec = njit(module.par_vec_step)
        assert vec(1) == 4             # compiles par_vec_step (and nothing announced for the inner call)
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [
            "mushgym: compiling noticetoy game kernels (first use; ~10 s on 2 idle cores, cached afterwards; "
            "`mushgym compile noticetoy` does it ahead of time)",
            "mushgym: compiling noticetoy parallel vector API kernels (256+ envs) (first use; ~3 min on 2 idle "
            "cores, cached afterwards; `mushgym compile noticetoy` does it ahead of time)",
        ]
        other = njit(lambda x: x)     # not a game's kernel: no notice
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


@pytest.mark.parametrize("name, group", [("init", "game"), ("aec_advance", "game"), ("random_rollouts", "rollouts"),
                                         ("par_vec_step", "vector_parallel"), ("vec_seed", "vector"),
                                         ("vec_step__3fa9c2e1", "vector"), ("sa_step", "single_agent"),
                                         ("par_sa_reset", "single_agent_parallel"),
                                         ("mcts_search__search_kernel", "search"), ("search_rng_seed", "search")])
def test_kernel_groups(name, group):
    assert compiling.kernel_group(name) == group


def test_compile_command(capsys):
    assert cli.main(["compile", "fungi_v0", "--group", "game", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "fungi_v0" in out and "game kernels" in out and "compiled (or loaded)" in out
    with pytest.raises(SystemExit, match="unknown env id 'nope_v0'"):
        cli.main(["compile", "nope_v0"])
