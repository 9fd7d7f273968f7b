"""Many single-agent episodes at once: the learner on one seat of each game, the other
seats played by opponents whose decisions are batched across the games.

    from mushgym.agents import make_agent
    from mushgym.wrappers import SingleAgentBatch
    envs = SingleAgentBatch("fungi_v0", num_envs=8, opponents=["random", "greedy"], seed=0, build_opponent=make_agent)
    obs = envs.reset()                                   # (8, *encoded shape), the learners' views
    obs, rewards, terminated, truncated, infos = envs.step(actions)  # one learner action per game

The games live in one :class:`mushgym.episodes.EpisodeBatch` (the compiled row kernels
of :mod:`mushgym.episodes`). After the learners' actions, every game where an opponent
is to act is advanced in rounds: per round each opponent agent is asked **once**, with
``act_batch``, for every game where one of its seats is to act (a frozen PPO snapshot
runs one forward pass for all of them), until each game is back at its learner or
over. This is what :func:`mushgym.agents.train_ppo` trains on (through the SB3 VecEnv
adapter :class:`mushgym.wrappers.sb3.MaskableVecEnv`), and
:class:`mushgym.wrappers.SingleAgentEnv` is its one-game Gymnasium view.

Each game has its own generator (``seed(s)`` gives game ``i`` ``default_rng(s + i)``)
from which every episode draws, in this order: the deal's seed, the learner's seat
(unless fixed), one opponent per other seat from the :class:`OpponentPool`, and a seed
for each opponent's ``reset``. A deal that ends before the learner's first move is
re-dealt. The reward is the learner's return, given when the game ends, whoever moved
last; with ``autoreset`` (SB3's convention) an ended game is dealt again at once and its
last observation is in ``infos[i]["terminal_observation"]``.

A game cut by its own rules (its ``is_truncated`` kernel, e.g. Mycology's turn limit)
ends with ``terminated[i] = False``, ``truncated[i] = True`` (Gymnasium's semantics) and
``infos[i]["TimeLimit.truncated"] = True`` (SB3's); its reward is what the game returns
(0 for Mycology unless ``turn_limit_end="score"``). A game still running after the
game's declared ``max_game_length`` is a bug and raises ``RuntimeError``.

An illegal learner action ends that episode as a loss (the game's lowest reward,
``infos[i]["illegal_action"] = True``), or raises with ``illegal_action="raise"``.
``timers`` holds the seconds spent in the game (kernels and encoding) and in the
opponents' decisions; ``counts`` the learner's and opponents' steps and the episodes.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces

from mushgym.episodes import EpisodeBatch, decide

from .encoders import ObservationEncoder, make_encoder
from .opponents import Builder, OpponentPool

#: deals in a row allowed to end before the learner's first move
MAX_REDEALS = 1000


def as_game(env: Any, options: dict[str, Any] | None = None):
    """A mushgym Game from an env id, a Game, or a mushgym AEC env."""
    if isinstance(env, str):
        import mushgym

        return mushgym.game(env, **(options or {}))
    if hasattr(env, "kernels") and hasattr(env, "new_state"):
        return env
    if hasattr(getattr(env, "unwrapped", None), "game"):  # a mushgym AEC env
        return env.unwrapped.game
    raise TypeError(f"env must be an env id, a mushgym Game or a mushgym AEC env; got {env!r}")


def as_pool(opponents: Any, env_id: str, build: Builder | None = None) -> OpponentPool:
    """``opponents`` (a pool, or one or a list of entries ``build`` makes agents of) as a pool."""
    if isinstance(opponents, OpponentPool):
        if opponents.env_id is None:
            opponents.env_id = env_id
        return opponents
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        opponents = [opponents]
    return OpponentPool(opponents, env_id=env_id, build=build)


class SingleAgentBatch:
    """``num_envs`` games, the learner on one seat of each (see the module docstring)."""

    def __init__(
        self,
        env: Any = "fungi_v0",
        num_envs: int = 1,
        opponents: Any = "random",
        seat: int | None = None,
        encoder: str | ObservationEncoder = "scaled",
        options: dict[str, Any] | None = None,
        illegal_action: str = "lose",
        autoreset: bool = True,
        seed: int | None = None,
        build_opponent: Builder | None = None,
    ) -> None:
        self.game = g = as_game(env, options)
        self.env_id = g.env_id
        self.num_players = P = g.num_players
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = n = int(num_envs)
        if seat is not None and not 0 <= int(seat) < P:
            raise ValueError(f"{self.env_id}: no seat {seat}; seats are 0..{P - 1} or None (random)")
        self.fixed_seat = None if seat is None else int(seat)
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action must be 'lose' or 'raise'")
        self.illegal_action = illegal_action
        self.autoreset = bool(autoreset)
        self.pool = as_pool(opponents, self.env_id, build_opponent)
        self.encoder = make_encoder(encoder, g)
        self.observation_space = self.encoder.space
        self.action_space = spaces.Discrete(g.num_actions)
        self.reward_range = g.spec.reward_range
        self.limit = g.spec.max_game_length
        self.batch = EpisodeBatch(g, n, max_steps=self.limit)
        self.seats = np.zeros(n, dtype=np.int64)
        self._opponent = np.full((n, P), -1, dtype=np.int64)  # index into self._agents, -1 = learner
        self._agents: list[Any] = []
        self.needs_reset = np.ones(n, dtype=bool)
        self.rngs: list[np.random.Generator] = []
        self.seed(seed)
        self.timers = {"env": 0.0, "opponents": 0.0}
        self.counts = {"learner_steps": 0, "opponent_steps": 0, "episodes": 0}

    # --- seeds and opponents -------------------------------------------------------------
    def seed(self, seed: int | None = None) -> None:
        """Game ``i`` draws its episodes from ``default_rng(seed + i)`` (fresh entropy if None)."""
        self.rngs = [np.random.default_rng(None if seed is None else int(seed) + i) for i in range(self.num_envs)]

    def _agent_index(self, agent: Any) -> int:
        for k, known in enumerate(self._agents):
            if known is agent:
                return k
        if len(self._agents) >= 64:  # forget agents no game holds any more (old snapshots)
            used = sorted({int(k) for k in self._opponent.ravel() if k >= 0})
            remap = np.full(len(self._agents) + 1, -1, dtype=np.int64)
            remap[used] = np.arange(len(used))
            self._opponent = remap[self._opponent]
            self._agents = [self._agents[k] for k in used]
        self._agents.append(agent)
        return len(self._agents) - 1

    def seat_agents(self, i: int) -> list[Any]:
        """Who holds each seat of game ``i`` (None for the learner)."""
        return [None if k < 0 else self._agents[k] for k in self._opponent[i]]

    # --- episodes -------------------------------------------------------------------------
    def _new_episodes(self, rows: np.ndarray) -> None:
        """Deal each game of ``rows`` a new episode and play the opponents up to its learner's
        first decision (re-dealing the games that end before it)."""
        self.counts["episodes"] += rows.size
        for _ in range(MAX_REDEALS):
            t0 = time.perf_counter()
            seeds = np.empty(rows.size, dtype=np.int64)
            for j, i in enumerate(rows):
                rng = self.rngs[i]
                seeds[j] = rng.integers(0, 2**62)
                seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
                self.seats[i] = seat
                drawn = [None if p == seat else self.pool.sample(rng) for p in range(self.num_players)]
                for p, agent in enumerate(drawn):
                    if agent is not None:
                        agent.reset(seed=int(rng.integers(0, 2**62)))
                        self._opponent[i, p] = self._agent_index(agent)
                    else:
                        self._opponent[i, p] = -1
            self.batch.deal(rows, seeds)
            self.timers["env"] += time.perf_counter() - t0
            self._play_opponents(rows)
            rows = rows[self.batch.players[rows] < 0]  # over before the learner's first move
            if not rows.size:
                return
        raise RuntimeError(f"{self.env_id}: {MAX_REDEALS} deals in a row ended before the learner's first move")

    def _play_opponents(self, rows: np.ndarray) -> None:
        """Opponents' moves, batched across games, until every game of ``rows`` is at its
        learner's decision or over. ``timers["opponents"]`` counts the agents' calls only."""
        b, players, seats = self.batch, self.batch.players, self.seats
        rows = rows[(players[rows] >= 0) & (players[rows] != seats[rows])]
        while rows.size:
            t0 = time.perf_counter()
            thinking = 0.0
            who = self._opponent[rows, players[rows]]
            actions = np.empty(rows.size, dtype=np.int64)
            for k in sorted(set(who.tolist())):
                sel = np.flatnonzero(who == k) if len(who) > 1 else slice(None)
                t1 = time.perf_counter()
                actions[sel] = decide(self._agents[k], self.game, b, rows[sel])
                thinking += time.perf_counter() - t1
            bad = b.step(rows, actions)
            if bad >= 0:
                j = bad % rows.size
                raise ValueError(
                    f"opponent {self._agents[who[j]]!r} chose illegal action {actions[j]} in {self.env_id}"
                )
            self._check_overrun(rows)
            self.counts["opponent_steps"] += rows.size
            rows = rows[(players[rows] >= 0) & (players[rows] != seats[rows])]
            self.timers["opponents"] += thinking
            self.timers["env"] += time.perf_counter() - t0 - thinking

    def _check_overrun(self, rows: np.ndarray) -> None:
        """Raise if a game of ``rows`` hit the ``max_game_length`` safety limit (a game cut
        by its own rules, e.g. a turn limit, is a truncation, not an error)."""
        overran = self.batch.overran(rows)
        if overran.size:
            i = int(overran[0])
            raise RuntimeError(
                f"{self.env_id}: game seed {int(self.batch.seeds[i])} did not end within {self.batch.max_steps} steps"
            )

    def reset(self, seed: int | None = None, rows: Sequence[int] | None = None) -> np.ndarray:
        """New episodes (in every game, or in ``rows``); the learners' encoded observations."""
        if seed is not None:
            self.seed(seed)
        rows = np.arange(self.num_envs, dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        self._new_episodes(rows)
        self.needs_reset[rows] = False
        t0 = time.perf_counter()
        obs = self.encoder.encode_batch(self.batch.obs)
        self.timers["env"] += time.perf_counter() - t0
        return obs

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, ``(num_envs, num_actions)`` bool (all False in an ended game)."""
        return self.batch.masks != 0

    def _legal(self, actions: np.ndarray) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"{self.env_id}: actions must have shape ({self.num_envs},) (one per game), got {a.shape}")
        if a.dtype.kind not in "iu":
            if a.dtype.kind != "f":
                return np.zeros(self.num_envs, dtype=bool)
            ok = np.isfinite(a) & (a == np.round(a))
            a = np.where(ok, a, -1)
        a = a.astype(np.int64)
        inside = (a >= 0) & (a < self.game.num_actions)
        legal = inside.copy()
        legal[inside] = self.batch.masks[np.flatnonzero(inside), a[inside]] != 0
        return legal

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """One learner action per game. Returns ``(obs, rewards, terminated, truncated, infos)``:
        rewards are the learners' returns in the games that ended (0 elsewhere); a game ended
        by its rules (or by an illegal action) is ``terminated``, one cut by the game itself
        (e.g. a turn limit) ``truncated``; an ended game's info has ``returns``,
        ``is_success``, ``TimeLimit.truncated`` and, with autoreset, ``terminal_observation``."""
        if self.needs_reset.any():
            raise RuntimeError(
                f"{self.env_id}: the episode is over in game(s) "
                f"{np.flatnonzero(self.needs_reset).tolist()[:10]}; call reset()"
            )
        t0 = time.perf_counter()
        b, n = self.batch, self.num_envs
        legal = self._legal(actions)
        illegal = np.flatnonzero(~legal)
        if illegal.size and self.illegal_action == "raise":
            i = int(illegal[0])
            self.game.check_action(b.states[i], np.asarray(actions)[i], b.masks[i])
        rows = np.flatnonzero(legal)
        b.step(rows, np.asarray(actions)[rows].astype(np.int64))
        self._check_overrun(rows)
        self.counts["learner_steps"] += rows.size
        self.timers["env"] += time.perf_counter() - t0
        self._play_opponents(rows)
        t0 = time.perf_counter()
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        over = rows[b.players[rows] < 0]
        ended = np.sort(np.concatenate([over, illegal]))
        if ended.size:
            terminated[ended] = True
            truncated[over] = b.truncated[over]  # no overrun got here: cut by the game itself
            terminated[over] = ~truncated[over]
            for i in over:
                rets = b.rewards[i].copy()
                seat = self.seats[i]
                rewards[i] = rets[seat]
                best = rets.max()
                infos[i].update(
                    returns=rets,
                    is_success=bool(rets[seat] == best and (rets == best).sum() == 1),
                    **{"TimeLimit.truncated": bool(truncated[i])},
                )
            for i in illegal:
                rewards[i] = float(self.reward_range[0])
                infos[i].update(illegal_action=True, is_success=False, **{"TimeLimit.truncated": False})
            # the learner's last view of each ended game
            b.obs[ended] = b.observe(ended, self.seats[ended])
            b.masks[illegal] = 0
            if self.autoreset:
                final = self.encoder.encode_batch(b.obs[ended])
                for j, i in enumerate(ended):
                    infos[i]["terminal_observation"] = final[j]
                self.timers["env"] += time.perf_counter() - t0
                self._new_episodes(ended)
                t0 = time.perf_counter()
            else:
                self.needs_reset[ended] = True
        obs = self.encoder.encode_batch(b.obs)
        self.timers["env"] += time.perf_counter() - t0
        return obs, rewards, terminated, truncated, infos

    def __repr__(self) -> str:
        return f"SingleAgentBatch({self.env_id!r}, num_envs={self.num_envs}, opponents={self.pool!r})"
