"""A single-agent Gymnasium view of any mushgym game, for SB3 and other single-agent learners.

    from mushgym.agents import make_agent
    from mushgym.wrappers import SingleAgentEnv
    env = SingleAgentEnv("fungi_v0", opponents="greedy", seat=None, build_opponent=make_agent)  # random seat
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().nonzero()[0][0])

The learner holds one seat (``seat=int``, or ``None`` for a random seat each
episode); the other seats are played, inside ``step``, by agents drawn from an
:class:`OpponentPool` at the start of each episode (built by ``build_opponent``:
without it the library makes only ``"random"`` and takes agent objects as they are,
see :mod:`mushgym.wrappers.opponents`). The reward is always the
**learner's** return (+1 win, -1 loss, 0 tie by default), given when the game
ends, whoever made the last move. The legal mask of the learner's decision is
``action_masks()`` (the name sb3-contrib's ``MaskablePPO`` looks for) and
``info["action_mask"]``.

A game cut by its own rules rather than ended by them (e.g. Mycology's turn limit)
returns ``terminated=False, truncated=True``, with the reward the game gives (0 for
Mycology unless ``turn_limit_end="score"``).

It is the one-game view of :class:`mushgym.wrappers.SingleAgentBatch` (the
compiled row kernels of :mod:`mushgym.episodes`, no PettingZoo loop), which also
times them: ``env.timers`` holds the seconds spent in the game (kernels and
observation encoding) and in the opponents' decisions. To train on many games at
once with the opponents' decisions batched across them, use ``SingleAgentBatch``
(or its SB3 VecEnv, :class:`mushgym.wrappers.sb3.MaskableVecEnv`).

An illegal action (possible only without masking, e.g. from an env checker's
random ``action_space.sample()``) ends the episode as a loss for the learner
(reward = the game's lowest reward) with ``info["illegal_action"] = True``;
pass ``illegal_action="raise"`` to get a ``ValueError`` instead.

Observations are encoded with ``encoder="scaled"`` by default (each element mapped
through its bounds to [0, 1]): the same default as
:func:`mushgym.agents.train_ppo`. ``"flat"`` gives the raw values (Mycology's run up
to 2,400 and down to -4,800), ``"onehot"`` one-hot codes of small counts.

**torch threads.** Small policy networks run several times faster with one torch
thread than with torch's default (one per core, which fight the game kernels and
each other on a busy machine: 3.6x on 2 cores with MaskablePPO). So constructing a
``SingleAgentEnv`` calls ``torch.set_num_threads(1)`` when torch has been imported (as
it has once stable-baselines3 is); pass ``torch_threads=None`` to leave torch alone, or
another number to choose it.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from ..game import action_index
from .encoders import ObservationEncoder
from .opponents import OpponentPool
from .single_agent_batch import SingleAgentBatch

__all__ = ["OpponentPool", "SingleAgentEnv", "set_torch_threads"]


def set_torch_threads(n: int = 1, import_torch: bool = False) -> bool:
    """``torch.set_num_threads(n)`` if torch is imported (or importable, with ``import_torch``):
    True if set. One thread is the default of every mushgym entry point that trains or
    evaluates a network (see the module docstring); importing torch only for this would
    cost a second or two, hence the check."""
    import sys

    if "torch" not in sys.modules and not import_torch:
        return False
    try:
        import torch
    except ImportError:
        return False
    if torch.get_num_threads() != int(n):
        torch.set_num_threads(int(n))
    return True


class SingleAgentEnv(gymnasium.Env):
    """The learner's view of a multi-player mushgym game (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        env: Any = "fungi_v0",
        opponents: Any = "random",
        seat: int | None = None,
        encoder: str | ObservationEncoder = "scaled",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        torch_threads: int | None = 1,
        build_opponent: Any = None,
    ) -> None:
        super().__init__()
        if torch_threads is not None:
            set_torch_threads(torch_threads)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.render_mode = render_mode
        self.core = SingleAgentBatch(
            env,
            1,
            opponents=opponents,
            seat=seat,
            encoder=encoder,
            options=options,
            illegal_action=illegal_action,
            autoreset=False,
            build_opponent=build_opponent,
        )
        c = self.core
        self.game, self.env_id, self.num_players = c.game, c.env_id, c.num_players
        self.fixed_seat, self.illegal_action, self.pool, self.encoder = (
            c.fixed_seat,
            c.illegal_action,
            c.pool,
            c.encoder,
        )
        self.observation_space = c.observation_space
        self.action_space = c.action_space
        self.reward_range = c.reward_range
        self.timers, self.counts = c.timers, c.counts
        self._started = False

    # --- the one game ---------------------------------------------------------------
    @property
    def state(self) -> np.ndarray | None:
        return self.core.batch.states[0] if self._started else None

    @property
    def game_state(self) -> np.ndarray | None:
        return self.state

    @property
    def seat(self) -> int:
        return int(self.core.seats[0])

    @property
    def seat_agents(self) -> list[Any]:
        return self.core.seat_agents(0)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.core.batch.masks[0].copy(), "seat": self.seat}

    # --- Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:
            import warnings

            warnings.warn(
                f"{self.env_id}: reset(options={options!r}) is ignored: game options are fixed when "
                "the env is made, e.g. SingleAgentEnv(env_id, options={'num_players': 4})",
                stacklevel=2,
            )
        if isinstance(seed, np.integer) and not isinstance(seed, np.bool_):
            seed = int(seed)  # numpy integers are integers (Gymnasium's seeding takes Python ints only)
        super().reset(seed=seed)
        self.core.rngs[0] = self.np_random
        obs = self.core.reset()[0]
        self._started = True
        return obs, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), for sb3-contrib's MaskablePPO."""
        return self.core.batch.masks[0] != 0

    def step(self, action):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.core.needs_reset[0]:
            raise RuntimeError("the episode is over; call reset()")
        idx = action_index(action)  # an integer (Python, numpy, one-element array); not a bool or float
        ok = idx is not None and 0 <= idx < self.game.num_actions
        a = idx if ok else -1
        if not ok:
            a = -1  # an illegal action
            if self.illegal_action == "raise":
                self.game.check_action(self.state, action, self.core.batch.masks[0])
        obs, rewards, terminated, truncated, infos = self.core.step(np.array([a], dtype=np.int64))
        info = self._info()
        info.update(infos[0])
        info.pop("TimeLimit.truncated", None)  # SB3's VecEnv key; Gymnasium has the truncated flag
        return obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]), info

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render without specifying a render_mode.")
            return None
        if self.render_mode == "rgb_array":
            from mushgym.render import draw_state

            return draw_state(self.game, self.state, self.seat).to_rgb()
        text = self.game.render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
