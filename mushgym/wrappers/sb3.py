"""Stable-Baselines3's VecEnv over :class:`SingleAgentBatch` (imports stable-baselines3).

    from mushgym.wrappers import SingleAgentBatch
    from mushgym.wrappers.sb3 import MaskableVecEnv
    vec = MaskableVecEnv(SingleAgentBatch("fungi_v0", num_envs=8, opponents=["random", "greedy"],
                                          build_opponent=make_agent))     # from mushgym.agents
    model = sb3_contrib.MaskablePPO("MlpPolicy", vec)

or in one call ``make_sb3("fungi_v0", 8, opponents=[...], build_opponent=make_agent)``
(also offered as ``mushgym.vector.make_sb3``).

Every ``step`` advances all games with one compiled call for the learners' actions and,
per round of opponents' moves, one ``act_batch`` call per opponent agent for all the
games where it is to act (instead of one call per decision per game). Episodes restart
automatically (SB3's convention: ``infos[i]["terminal_observation"]``; a game cut by its
own rules, e.g. Mycology's turn limit, is done with ``infos[i]["TimeLimit.truncated"] = True``,
so SB3 bootstraps its value instead of treating the cut as an end), ``seed(s)``
gives game ``i`` the seed ``s + i`` from the next ``reset``, and
``env_method("action_masks")`` gives sb3-contrib's MaskablePPO the learners' masks.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("mushgym.wrappers.sb3 needs stable-baselines3: pip install 'mushgym[train]'") from e

from .opponents import Builder
from .single_agent_batch import SingleAgentBatch


class MaskableVecEnv(VecEnv):
    """An SB3 ``VecEnv`` whose envs are the games of a :class:`SingleAgentBatch`."""

    def __init__(self, games: SingleAgentBatch) -> None:
        if not games.autoreset:
            raise ValueError("MaskableVecEnv needs a SingleAgentBatch with autoreset=True")
        self.games = games
        self._actions: np.ndarray | None = None
        super().__init__(games.num_envs, games.observation_space, games.action_space)

    # --- the VecEnv API --------------------------------------------------------------
    def reset(self):
        seeds = [s for s in self._seeds]
        if seeds[0] is not None:
            self.games.seed(seeds[0])
        obs = self.games.reset()
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.games.step(self._actions)
        return obs, rewards.astype(np.float32), terminated | truncated, infos

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks()

    def close(self) -> None:
        pass

    def _indices(self, indices: None | int | Iterable[int]) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        value = getattr(self.games, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.games, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.games.action_masks()
            return [masks[i] for i in idx]
        method = getattr(self.games, method_name)
        return [method(*method_args, **method_kwargs) for _ in idx]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.games, attr_name)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def __repr__(self) -> str:
        return f"MaskableVecEnv({self.games!r})"


def make_sb3(
    env_id: str,
    num_envs: int,
    opponents: Any = "random",
    *,
    seat: int | None = None,
    encoder: Any = "scaled",
    seed: int | None = 0,
    build_opponent: Builder | None = None,
    **options: Any,
) -> MaskableVecEnv:
    """Stable-Baselines3's ``VecEnv`` of ``env_id`` (needs stable-baselines3, the ``train`` extra).

    ``num_envs`` games, the learner on ``seat`` (None: a random seat each game), the other
    seats played by ``opponents`` (an agent, ``"random"``, or a list of them drawn per game;
    with ``build_opponent=mushgym.agents.make_agent`` also ``"greedy"``, ``"mcts:SIMS"`` or
    a model path), observations through ``encoder``; ``options`` are the env's options.
    Returns :class:`MaskableVecEnv`:
    ``env_method("action_masks")`` gives sb3-contrib's ``MaskablePPO`` the legal actions.

        vec = make_sb3("fungi_v0", 8, opponents=["random", "greedy"], build_opponent=make_agent)
        model = sb3_contrib.MaskablePPO("MlpPolicy", vec)
    """
    return MaskableVecEnv(
        SingleAgentBatch(
            env_id,
            num_envs=num_envs,
            opponents=opponents,
            seat=seat,
            encoder=encoder,
            options=options or None,
            seed=seed,
            build_opponent=build_opponent,
        )
    )
