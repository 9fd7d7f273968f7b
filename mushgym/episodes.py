"""The episode loop: whole games of one game played by agents, many in lockstep.

    from mushgym.episodes import play
    result = play(game, [agent_for_seat0, agent_for_seat1], seeds=range(1000))
    result["returns"]   # float64 [games, players]; result["lengths"], result["steps"]
    result["truncated"] # bool [games]: cut by the game itself (e.g. a turn limit), not ended by its rules

Game ``k`` is dealt from ``seeds[k]``. The games of a block (``batch_size`` games)
live in one :class:`mushgym.core.batch.Batch` and advance together: at each tick
the compiled ``ep_step`` kernel applies one action to every running game and writes
its legal mask, the player to act and that player's observation, and each *agent*
is asked once for the decisions of every game where one of its seats is to act::

    agent.act_batch(observations, action_masks)                       # most agents
    agent.act_batch(observations, action_masks, game=game,            # agents with
                    states=states, players=players)                   # uses_state = True

so a neural policy runs one forward pass per tick and agents that look ahead with
the functional API (``uses_state``, e.g. greedy) get the states and seats of their
rows. An agent holding several seats gets them in one call (``players`` tells
which). Rows are in game order, so results depend only on the seeds and the agents'
own seeded generators, not on timing.

This is the one loop of the library: tournaments and ``play_games``
(:mod:`mushgym.agents`), random play with checks (:mod:`mushgym.testing`),
``mushgym bench``'s agent row and the Mycology deck simulation all run on it; the
single-agent training envs (:mod:`mushgym.wrappers`) drive the same kernels
(``ep_deal`` / ``ep_step`` on chosen rows) with the opponents batched across envs.

``on_step(tick)`` (optional) is called before every tick is applied, with a
:class:`Tick`: ``tick.states[tick.rows[j]]`` is game ``tick.games[j]`` (its index in
``seeds``) about to take ``tick.actions[j]`` by seat ``tick.players[j]`` (read the
states, do not modify them). ``keep_states=True`` returns the final states too.
``explain=True`` asks the agents why (``explain_moves = True`` on each agent for the
call): ``tick.explanations[j]`` is then the acting agent's ``last_explanations`` entry for
that row, or None (see :mod:`mushgym.replay`, which records them with
:class:`mushgym.replay.ReplayRecorder` as ``on_step``).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .core.batch import PARALLEL_THRESHOLD, new_batch
from .game import MASK_DTYPE, OBS_DTYPE, Game

#: games per block by default (one ``act_batch`` row each per tick)
BATCH_SIZE = 128


class Tick(NamedTuple):
    """One tick of :func:`play`, as ``on_step`` sees it (before the actions are applied)."""

    states: np.ndarray  # the block's states; row ``rows[j]`` is game ``games[j]``
    rows: np.ndarray  # rows of the games still running
    games: np.ndarray  # their indices in ``seeds``
    players: np.ndarray  # the seat to act in each
    actions: np.ndarray  # the action its agent chose
    explanations: list | None = None  # with explain=True: per row, the agent's explanation or None


class EpisodeBatch:
    """A block of games of one :class:`Game` on the compiled row kernels.

    ``deal(rows, seeds)`` starts games; ``step(rows, actions)`` applies one action to
    each listed game; the others are untouched. After either, for a running game
    ``i``: ``players[i]`` is the seat to act, ``obs[i]`` its observation, ``masks[i]``
    its legal actions; for an ended one ``players[i] == -1`` and ``rewards[i]`` holds
    the returns. An ended game is ``terminated[i]`` if its rules ended it, ``truncated[i]``
    if it was cut: by the game itself (its ``is_truncated`` kernel, e.g. Mycology's turn
    limit: a terminal state, see :meth:`cut`) or by the ``max_steps`` safety limit (a
    state that is not terminal, see :meth:`overran`; no returns).
    """

    def __init__(self, game: Game, size: int, max_steps: int = 0, parallel: bool | None = None) -> None:
        self.game = game
        self.size = int(size)
        self.max_steps = int(max_steps or 0)
        b = self.b = new_batch(
            self.size,
            game.state_size,
            tuple(game.observation_shape),
            game.num_actions,
            game.num_players,
            game.work_size,
            OBS_DTYPE,
            MASK_DTYPE,
        )
        self.states, self.obs, self.masks, self.players = b.states, b.obs, b.masks, b.players
        self.rewards, self.terminated, self.truncated, self.lengths = b.rewards, b.terminated, b.truncated, b.ep_len
        self.seeds = b.ep_seeds
        par = self.size >= PARALLEL_THRESHOLD if parallel is None else parallel
        k = game.loops
        self._deal = k.par_ep_deal if par else k.ep_deal
        self._step = k.par_ep_step if par else k.ep_step
        self._cfg = game.config

    def __getstate__(self) -> dict:
        """Pickled with the kernels' names, not the compiled functions (found again from the
        game's generated loops, themselves found from the game); the public arrays alias
        the bundle ``b`` again after unpickling."""
        d = {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("states", "obs", "masks", "players", "rewards", "terminated", "truncated", "lengths", "seeds")
        }
        d["_deal"], d["_step"] = self._deal.__name__, self._step.__name__
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        k, b = self.game.loops, self.b
        self._deal, self._step = getattr(k, d["_deal"]), getattr(k, d["_step"])
        self.states, self.obs, self.masks, self.players = b.states, b.obs, b.masks, b.players
        self.rewards, self.terminated, self.truncated, self.lengths = b.rewards, b.terminated, b.truncated, b.ep_len
        self.seeds = b.ep_seeds

    def deal(self, rows: np.ndarray, seeds: np.ndarray) -> None:
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        if (seeds < 0).any():
            raise ValueError(f"{self.game.env_id}: seeds must be non-negative integers, got {int(seeds.min())}")
        self._deal(self.b, rows, seeds, self._cfg)
        over = rows[self.terminated[rows]]  # over at the deal (rare): the kernel marks it terminated
        for i in over:
            if self.game.is_truncated(self.states[i]):
                self.terminated[i], self.truncated[i] = False, True

    def step(self, rows: np.ndarray, actions: np.ndarray) -> int:
        """Apply ``actions[j]`` to game ``rows[j]``; -1, or the position in ``rows`` of the
        first illegal action (``len(rows) + j`` if game ``rows[j]`` is over); nothing is
        stepped unless every action is legal."""
        return int(self._step(self.b, rows, actions, self._cfg, self.max_steps))

    def observe(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Seat ``seats[j]``'s observation of game ``rows[j]`` (ended games too), fresh rows."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = np.zeros((rows.size, *self.game.observation_shape), dtype=OBS_DTYPE)
        self.game.loops.ep_observe(self.b, rows, np.ascontiguousarray(seats, dtype=np.int64), self._cfg, out)
        return out

    def running(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The games (of ``rows``, default all) still being played."""
        done = self.terminated | self.truncated
        if rows is None:
            return np.flatnonzero(~done)
        return rows[~done[rows]]

    def _truncated_rows(self, rows: np.ndarray | None, terminal: bool) -> np.ndarray:
        rows = np.arange(self.size, dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        rows = rows[self.truncated[rows]]
        if rows.size:
            is_terminal = self.game.kernels.is_terminal
            rows = rows[np.array([bool(is_terminal(self.states[i])) == terminal for i in rows], dtype=bool)]
        return rows

    def cut(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The games (of ``rows``, default all) cut by the game itself (``is_truncated``,
        e.g. a turn limit): over, with returns, reported as a truncation."""
        return self._truncated_rows(rows, True)

    def overran(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The games (of ``rows``, default all) stopped by the ``max_steps`` safety limit
        while still running (not over by the game's rules: a bug, or a limit set too low)."""
        return self._truncated_rows(rows, False)


def decide(agent: Any, game: Game, batch: EpisodeBatch, rows: np.ndarray) -> np.ndarray:
    """``agent``'s actions for the games ``rows`` of ``batch`` (one ``act_batch`` call)."""
    obs, masks = batch.obs[rows], batch.masks[rows]
    if getattr(agent, "uses_state", False):
        acts = agent.act_batch(obs, masks, game=game, states=batch.states[rows], players=batch.players[rows])
    else:
        acts = agent.act_batch(obs, masks)
    acts = np.asarray(acts)
    if acts.shape != (rows.size,) or acts.dtype.kind not in "iu":
        raise ValueError(
            f"{agent!r}.act_batch must return {rows.size} integer actions (one per row); "
            f"got {acts.dtype} of shape {acts.shape}"
        )
    return acts.astype(np.int64, copy=False)


def seat_groups(seat_agents: Sequence[Any]) -> tuple[list[Any], np.ndarray]:
    """The distinct agents (in seat order) and, per seat, the index of its agent."""
    agents: list[Any] = []
    group_of_seat = np.zeros(len(seat_agents), dtype=np.int64)
    for seat, agent in enumerate(seat_agents):
        for g, known in enumerate(agents):
            if known is agent:
                group_of_seat[seat] = g
                break
        else:
            group_of_seat[seat] = len(agents)
            agents.append(agent)
    return agents, group_of_seat


def play(
    game: Game,
    seat_agents: Sequence[Any],
    seeds: Sequence[int],
    batch_size: int = BATCH_SIZE,
    max_steps: int | None = None,
    on_step: Callable | None = None,
    keep_states: bool = False,
    explain: bool = False,
) -> dict:
    """Play one game per seed with ``seat_agents[p]`` in seat ``p`` (see the module docstring).

    Returns ``returns`` (float64 ``[games, players]``), ``lengths`` (decisions per
    game), ``steps`` (their sum), ``truncated`` (bool ``[games]``: the games the game
    itself cut, e.g. at Mycology's turn limit, with the returns its ``turn_limit_end``
    option gives; the others ended by the rules) and, with ``keep_states``, ``states``
    (the final states). A game still running after ``max_steps`` (default: the game's
    proven ``max_game_length``) is a ``RuntimeError``; an illegal action a ``ValueError``
    naming the agent, the seat and the game's seed.
    """
    P = game.num_players
    if len(seat_agents) != P:
        raise ValueError(f"{game.env_id} is played by {P} players; got {len(seat_agents)} agents")
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    seeds = np.asarray(list(seeds), dtype=np.int64).reshape(-1)
    n_games = seeds.size
    limit = int(max_steps or game.spec.max_game_length)
    agents, group_of_seat = seat_groups(seat_agents)
    returns = np.zeros((n_games, P), dtype=np.float64)
    lengths = np.zeros(n_games, dtype=np.int64)
    truncated = np.zeros(n_games, dtype=bool)
    states = np.zeros((n_games, game.state_size), dtype=np.int64) if keep_states else None
    batch = EpisodeBatch(game, min(batch_size, max(n_games, 1)), max_steps=limit)
    if explain:
        explaining = _start_explaining(agents)
    try:
        _play_blocks(
            game,
            seat_agents,
            agents,
            group_of_seat,
            seeds,
            batch,
            limit,
            on_step,
            explain,
            returns,
            lengths,
            truncated,
            states,
        )
    finally:
        if explain:
            for agent, before in explaining:
                agent.explain_moves = before
    out = {"returns": returns, "lengths": lengths, "steps": int(lengths.sum()), "truncated": truncated}
    if states is not None:
        out["states"] = states
    return out


def _start_explaining(agents: list[Any]) -> list[tuple[Any, bool]]:
    """Set ``explain_moves`` on every agent that allows it; the agents and their former setting."""
    changed = []
    for agent in agents:
        before = bool(getattr(agent, "explain_moves", False))
        try:
            agent.explain_moves = True
        except AttributeError:  # an agent object without attributes to set: it explains nothing
            continue
        changed.append((agent, before))
    return changed


def _explanations(agent: Any, n: int) -> list:
    got = getattr(agent, "last_explanations", None)
    return list(got) if got is not None and len(got) == n else [None] * n


def _play_blocks(
    game, seat_agents, agents, group_of_seat, seeds, batch, limit, on_step, explain, returns, lengths, truncated, states
) -> None:
    n_games = seeds.size
    for start in range(0, n_games, batch.size):
        n = min(batch.size, n_games - start)
        rows = np.arange(n, dtype=np.int64)
        batch.deal(rows, seeds[start : start + n])
        active = batch.running(rows)
        while active.size:
            players = batch.players[active]
            groups = group_of_seat[players]
            actions = np.empty(active.size, dtype=np.int64)
            why: list | None = [None] * active.size if explain else None
            for g, agent in enumerate(agents):
                sel = np.flatnonzero(groups == g)
                if sel.size:
                    actions[sel] = decide(agent, game, batch, active[sel])
                    if why is not None:
                        for k, e in zip(sel, _explanations(agent, sel.size)):
                            why[k] = e
            if on_step is not None:
                on_step(Tick(batch.states, active, start + active, players, actions, why))
            bad = batch.step(active, actions)
            if bad >= 0:
                j = bad % active.size
                i = int(active[j])
                raise ValueError(
                    f"{seat_agents[players[j]]!r} chose illegal action {actions[j]} in "
                    f"{game.env_id} (seat {players[j]}, game seed {seeds[start + i]})"
                )
            overran = batch.overran(active)
            if overran.size:
                raise RuntimeError(
                    f"{game.env_id}: game seed {seeds[start + int(overran[0])]} did not end within {limit} steps"
                )
            active = batch.running(active)
        returns[start : start + n] = batch.rewards[:n]
        lengths[start : start + n] = batch.lengths[:n]
        truncated[start : start + n] = batch.truncated[:n]  # no overrun got here: cut by the game
        if states is not None:
            states[start : start + n] = batch.states[:n]
