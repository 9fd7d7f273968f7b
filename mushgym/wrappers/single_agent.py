"""A single-agent Gymnasium view of any mushgym game, for SB3 and other single-agent learners.

    from mushgym.wrappers import SingleAgentEnv
    env = SingleAgentEnv("fungi_v0", opponents="greedy", seat=None)   # random seat per episode
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().nonzero()[0][0])

The learner holds one seat (``seat=int``, or ``None`` for a random seat each
episode); the other seats are played, inside ``step``, by agents drawn from an
:class:`OpponentPool` at the start of each episode. The reward is always the
**learner's** return (+1 win, -1 loss, 0 tie by default), given when the game
ends, whoever made the last move. The legal mask of the learner's decision is
``action_masks()`` (the name sb3-contrib's ``MaskablePPO`` looks for) and
``info["action_mask"]``.

The env drives the game's compiled kernels directly (no PettingZoo loop) and
times them: ``env.timers`` holds the seconds spent in the game (kernels and
observation encoding) and in the opponents' decisions.

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

import time
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from mushgym.game import MASK_DTYPE, OBS_DTYPE

from .encoders import ObservationEncoder, make_encoder


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


class OpponentPool:
    """Agents the wrapper draws opponents from, with sampling weights.

    Self-play adds frozen snapshots of the learner with :meth:`add`; ``max_size``
    bounds the snapshots kept (the oldest non-permanent entries go first).
    """

    def __init__(self, agents: Sequence[Any] = (), weights: Sequence[float] | None = None,
                 env_id: str | None = None, max_size: int | None = None) -> None:
        self.env_id = env_id
        self.max_size = max_size
        self.entries: list[list[Any]] = []  # [agent, weight, permanent]
        weights = list(weights) if weights is not None else [1.0] * len(agents)
        if len(weights) != len(agents):
            raise ValueError("one weight per opponent")
        for a, w in zip(agents, weights):
            self.add(a, w, permanent=True)

    def _build(self, agent):
        from mushgym.agents import make_agent

        return make_agent(agent, env_id=self.env_id)

    def add(self, agent: Any, weight: float = 1.0, permanent: bool = False) -> None:
        self.entries.append([self._build(agent), float(weight), permanent])
        if self.max_size is not None:
            while sum(1 for e in self.entries if not e[2]) > self.max_size:
                i = next(i for i, e in enumerate(self.entries) if not e[2])
                del self.entries[i]

    @property
    def agents(self) -> list[Any]:
        return [e[0] for e in self.entries]

    def sample(self, rng: np.random.Generator):
        if not self.entries:
            raise ValueError("the opponent pool is empty")
        w = np.array([e[1] for e in self.entries], dtype=np.float64)
        return self.entries[int(rng.choice(len(w), p=w / w.sum()))][0]

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return "OpponentPool(" + ", ".join(f"{getattr(e[0], 'name', e[0])}:{e[1]:g}" for e in self.entries) + ")"


class SingleAgentEnv(gymnasium.Env):
    """The learner's view of a multi-player mushgym game (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, env: Any = "fungi_v0", opponents: Any = "random", seat: int | None = None,
                 encoder: str | ObservationEncoder = "scaled", options: dict[str, Any] | None = None,
                 render_mode: str | None = None, illegal_action: str = "lose",
                 torch_threads: int | None = 1) -> None:
        super().__init__()
        if torch_threads is not None:
            set_torch_threads(torch_threads)
        if isinstance(env, str):
            import mushgym

            self.game = mushgym.game(env, **(options or {}))
        elif hasattr(env, "kernels") and hasattr(env, "new_state"):
            self.game = env
        elif hasattr(getattr(env, "unwrapped", None), "game"):  # a mushgym AEC env
            self.game = env.unwrapped.game
        else:
            raise TypeError(f"env must be an env id, a mushgym Game or a mushgym AEC env; got {env!r}")
        g = self.game
        self.env_id = g.env_id
        self.num_players = g.num_players
        if seat is not None and not 0 <= int(seat) < self.num_players:
            raise ValueError(f"{self.env_id}: no seat {seat}; seats are 0..{self.num_players - 1} or None (random)")
        self.fixed_seat = None if seat is None else int(seat)
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action must be 'lose' or 'raise'")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.render_mode = render_mode
        if isinstance(opponents, OpponentPool):
            self.pool = opponents
            if self.pool.env_id is None:
                self.pool.env_id = self.env_id
        else:
            if isinstance(opponents, (str,)) or not isinstance(opponents, Sequence):
                opponents = [opponents]
            self.pool = OpponentPool(opponents, env_id=self.env_id)
        self.encoder = make_encoder(encoder, g)
        self.observation_space = self.encoder.space
        self.action_space = spaces.Discrete(g.num_actions)
        self.reward_range = g.spec.reward_range
        self._k, self._cfg, self._work = g.kernels, g.config, g.work
        self._raw_obs = np.zeros(g.observation_shape, dtype=OBS_DTYPE)
        self._mask = np.zeros(g.num_actions, dtype=MASK_DTYPE)
        self._opp_mask = np.zeros(g.num_actions, dtype=MASK_DTYPE)
        self._opp_obs = np.zeros(g.observation_shape, dtype=OBS_DTYPE)
        self._rets = np.zeros(g.num_players, dtype=np.float64)
        self.state = None
        self._done = True
        self._steps = 0
        self.seat = 0
        self.seat_agents: list[Any] = []
        self.timers = {"env": 0.0, "opponents": 0.0}
        self.counts = {"learner_steps": 0, "opponent_steps": 0, "episodes": 0}

    # --- helpers ------------------------------------------------------------------
    @property
    def game_state(self) -> np.ndarray:
        return self.state

    def _observe(self) -> np.ndarray:
        self._k.observe(self.state, self.seat, self._cfg, self._raw_obs, self._work)
        return self.encoder(self._raw_obs)

    def _play_opponents(self) -> None:
        """Let the opponents move until it is the learner's turn or the game is over."""
        k, cfg, state = self._k, self._cfg, self.state
        limit = self.game.spec.max_game_length
        while not k.is_terminal(state):
            p = int(k.current_player(state))
            if p == self.seat:
                return
            t0 = time.perf_counter()
            self._opp_mask[:] = 0
            k.legal_mask(state, cfg, self._opp_mask, self._work)
            k.observe(state, p, cfg, self._opp_obs, self._work)
            t1 = time.perf_counter()
            agent = self.seat_agents[p]
            if agent.uses_state:
                a = int(agent.act_state(self.game, state, p, self._opp_obs, self._opp_mask))
            else:
                a = int(agent.act(self._opp_obs, self._opp_mask))
            t2 = time.perf_counter()
            if not (0 <= a < self.game.num_actions and self._opp_mask[a]):
                raise ValueError(f"opponent {agent!r} chose illegal action {a} in {self.env_id}")
            k.step(state, a, cfg, self._work)
            self.timers["env"] += (t1 - t0) + (time.perf_counter() - t2)
            self.timers["opponents"] += t2 - t1
            self.counts["opponent_steps"] += 1
            self._steps += 1
            if self._steps > limit:
                raise RuntimeError(f"{self.env_id}: game did not end within {limit} steps")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seat": self.seat}

    # --- Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        t0 = time.perf_counter()
        for _ in range(1000):
            self.state = self.game.new_state(int(rng.integers(0, 2**62)))
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
            self.seat_agents = [None if p == self.seat else self.pool.sample(rng) for p in range(self.num_players)]
            for p, agent in enumerate(self.seat_agents):
                if agent is not None:
                    agent.reset(seed=int(rng.integers(0, 2**62)))
            self._steps = 0
            self.timers["env"] += time.perf_counter() - t0
            self._play_opponents()
            t0 = time.perf_counter()
            if not self._k.is_terminal(self.state):  # a game over before the learner moved is re-dealt
                break
        else:
            raise RuntimeError(f"{self.env_id}: 1000 deals in a row ended before the learner's first move")
        self._mask[:] = 0
        self._k.legal_mask(self.state, self._cfg, self._mask, self._work)
        obs = self._observe()
        self.timers["env"] += time.perf_counter() - t0
        self.counts["episodes"] += 1
        self._done = False
        return obs, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), for sb3-contrib's MaskablePPO."""
        return self._mask.astype(bool)

    def step(self, action):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        k, cfg = self._k, self._cfg
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        t0 = time.perf_counter()
        try:
            a = int(action)
            legal = a == action and 0 <= a < self.game.num_actions and bool(self._mask[a])
        except (TypeError, ValueError):
            legal = False
        if not legal:
            if self.illegal_action == "raise":
                self.game.check_action(self.state, action, self._mask)
            obs = self._observe()
            self._mask[:] = 0
            info = self._info()
            info.update(illegal_action=True, is_success=False)
            self._done = True
            return obs, float(self.reward_range[0]), True, False, info
        k.step(self.state, a, cfg, self._work)
        self._steps += 1
        self.counts["learner_steps"] += 1
        self.timers["env"] += time.perf_counter() - t0
        self._play_opponents()
        t0 = time.perf_counter()
        self._mask[:] = 0
        terminated = bool(k.is_terminal(self.state))
        self._done = terminated
        reward = 0.0
        if terminated:
            k.returns(self.state, cfg, self._rets)
            reward = float(self._rets[self.seat])
        else:
            k.legal_mask(self.state, cfg, self._mask, self._work)
        obs = self._observe()
        self.timers["env"] += time.perf_counter() - t0
        info = self._info()
        if terminated:
            best = self._rets.max()
            won = bool(self._rets[self.seat] == best and (self._rets == best).sum() == 1)
            info.update(returns=self._rets.copy(), is_success=won)
        return obs, reward, terminated, False, info

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
