"""PettingZoo's three standard AEC wrappers as one flat layer.

``env()`` of a PettingZoo classic game is
``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw)))``.
Every attribute the standard loop reads (``agent_selection``, ``terminations``,
``_cumulative_rewards``, ...) then fails the normal lookup on each layer and is
forwarded by ``BaseWrapper.__getattr__``, three times: about 60 µs per step,
several times the cost of a whole mushgym step.

:class:`MushroomEnforcingWrapper` reproduces the three wrappers' behaviour in one
layer over a :class:`mushgym.aec.MushroomAECEnv`, with the hot attributes as
plain properties:

* order enforcing: ``step``/``observe``/``state``/``render``/``agent_iter``
  before ``reset`` are errors; ``rewards``, ``terminations``, ``truncations``,
  ``infos``, ``agent_selection``, ``num_agents`` and ``agents`` raise
  ``AttributeError`` before ``reset``; a step with no agents left warns;
* out of bounds: an action outside the action space (or ``None`` for a live
  agent) fails the same ``AssertionError`` ("action is not in action space");
* illegal move: an action outside the current legal mask warns
  (``EnvLogger.warn_on_illegal_move``), gives the mover ``illegal_reward`` (-1),
  ends the game for every agent (terminated and truncated), after which the
  agents are stepped out with ``None`` as usual.

It is an ``OrderEnforcingWrapper`` subclass, so code that checks for PettingZoo's
outer wrapper still finds it, and ``env.unwrapped`` is the raw env.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

_BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


def _forwarded(name: str, guarded: bool) -> property:
    if guarded:

        def get(self):
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)
    else:

        def get(self):
            return getattr(self.env, name)

    def set_(self, value):
        setattr(self.env, name, value)

    return property(get, set_, doc=f"The wrapped env's ``{name}``.")


class MushroomEnforcingWrapper(OrderEnforcingWrapper):
    """TerminateIllegalWrapper + AssertOutOfBoundsWrapper + OrderEnforcingWrapper in one layer."""

    def __init__(self, env, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._illegal_value = float(illegal_reward)
        self._terminated = False  # ended by an illegal move

    agent_selection = _forwarded("agent_selection", True)
    agents = _forwarded("agents", True)
    rewards = _forwarded("rewards", True)
    terminations = _forwarded("terminations", True)
    truncations = _forwarded("truncations", True)
    infos = _forwarded("infos", True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", False)
    possible_agents = _forwarded("possible_agents", False)
    metadata = _forwarded("metadata", False)

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self.env.agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        self._has_reset = True
        self._has_updated = True
        self.env.reset(seed=seed, options=options)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def action_space(self, agent):
        return self.env.action_spaces[agent]

    def observation_space(self, agent):
        return self.env.observation_spaces[agent]

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
            return
        env = self.env
        if not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = env.agent_selection
        dead = env.terminations[agent] or env.truncations[agent]
        # AssertOutOfBoundsWrapper
        space = env.action_spaces[agent]
        if type(action) is int or isinstance(action, np.integer):
            in_space = space.start <= action < space.start + space.n
        elif isinstance(action, (bool, np.bool_)):
            in_space = False  # True/False are not action ids
        else:
            in_space = space.contains(action)
        if not ((action is None and dead) or in_space):  # an explicit raise: survives python -O
            raise AssertionError(
                f"action is not in action space: got {action!r}; actions are integers "
                f"{space.start}..{space.start + space.n - 1}"
            )
        # TerminateIllegalWrapper
        if self._terminated and dead:
            env._was_dead_step(action)
        elif not dead and not env._mask[action]:
            EnvLogger.warn_on_illegal_move()
            env._cumulative_rewards[agent] = 0
            env.terminations = dict.fromkeys(env.agents, True)
            env.truncations = dict.fromkeys(env.agents, True)
            env.rewards = dict.fromkeys(env.truncations, 0)
            env.rewards[agent] = float(self._illegal_value)
            env._accumulate_rewards()
            env._deads_step_first()
            self._terminated = True
        else:
            env.step(action)

    def __str__(self) -> str:
        return str(self.env)


def wrap(env, illegal_reward: float = -1.0) -> MushroomEnforcingWrapper:
    """``env`` (a raw mushgym AEC env) with the standard wrappers' behaviour, in one fast layer."""
    return MushroomEnforcingWrapper(env, illegal_reward=illegal_reward)
