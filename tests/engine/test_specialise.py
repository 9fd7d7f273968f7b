"""Calls between mushgym's jitted functions compile one specialisation per argument type,
not one per constant (mushgym.core.specialise)."""

import sys
import types

from numba import njit

import mushgym.core  # noqa: F401  (installs the hook)
from mushgym import compiling
from mushgym.core import specialise

SOURCE = """
def callee(a, b):
    return a * 10 + b

def caller(x):
    return callee(x, 0) + callee(x, 1) + callee(x, 2) + callee(0, x)
"""


def _module(name):
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(SOURCE, module.__dict__)
    module.callee = njit(module.callee)
    module.caller = njit(module.caller)
    return module


def test_constants_do_not_multiply_specialisations():
    assert specialise.install()
    module = _module("mushgym.envs.spectoy.rules")
    try:
        assert module.caller(3) == 30 + 31 + 32 + 3
        sigs = [str(s) for s in module.callee.signatures]
        assert sigs == ["(int64, int64)"], sigs
    finally:
        del sys.modules["mushgym.envs.spectoy.rules"]


def test_functions_outside_mushgym_keep_numba_behaviour():
    module = _module("someoneelse.rules")
    try:
        assert module.caller(3) == 96
        assert any("Literal" in str(s) for s in module.callee.signatures)  # numba's own default
    finally:
        del sys.modules["someoneelse.rules"]


def test_a_games_other_modules_are_announced_under_its_env_id():
    assert compiling._env_of_module("mushgym.envs.fungi.layout") == "fungi_v0"
    assert compiling._env_of_module("mushgym.envs.fungi.rules") == "fungi_v0"
    # a package with two envs: a module named for a version belongs to that env, a shared one
    # to the first (mycology_v1's observation kernels used to be announced as mycology_v1's)
    assert compiling._env_of_module("mushgym.envs.mycology.observation_v1") == "mycology_v1"
    assert compiling._env_of_module("mushgym.envs.mycology.rules_v1") == "mycology_v1"
    assert compiling._env_of_module("mushgym.envs.mycology.rules") == "mycology_v1"
    assert compiling._env_of_module("mushgym.envs.mycology.baskets") == "mycology_v1"


def test_a_module_announced_while_its_game_imports_is_not_remembered_under_the_package(monkeypatch):
    # a kernel compiled while its game package is still being imported: the registry cannot
    # answer yet, so the package name stands in, and the next call asks again
    from mushgym import registry

    real = registry.env_module

    def importing(env_id):
        if env_id.startswith("mycology"):
            raise ImportError("partially initialized module 'mushgym.envs.mycology'")
        return real(env_id)

    monkeypatch.setattr(compiling, "_kernel_modules", {})
    monkeypatch.setattr(registry, "env_module", importing)
    assert compiling._env_of_module("mushgym.envs.mycology.observation_v1") == "mycology"
    monkeypatch.setattr(registry, "env_module", real)
    assert compiling._env_of_module("mushgym.envs.mycology.observation_v1") == "mycology_v1"
