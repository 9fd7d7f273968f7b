"""N games stepped in one compiled call: the vector API.

    import mushgym.vector
    vec = mushgym.vector.make("fungi_v0", num_envs=1024, seed=0)
    obs, masks, player = vec.reset()
    while True:
        actions = vec.sample_random_actions()          # or your policy, using masks
        obs, rewards, terminated, truncated, masks, player, info = vec.step(actions)

The games live in one ``(num_envs, state_size)`` array, int64 or, for a game whose state
layout declares a narrower ``vector_dtype`` (Fungi int16, Mycology int32), that: a quarter
or half of the bytes per step, the same games (``vec.states`` returns them as the functional API's int64 states,
``vec.state(i)`` one of them, ``vec.vector_states`` the raw buffer read-only;
``vec.set_state(i, state)`` puts a checked state into env ``i``);
``step`` applies one action per env and writes the observation of the seat to
act, its legal mask, the player to act and the per-seat rewards into
preallocated arrays, all inside one compiled call (spread over numba's threads
with ``prange`` when the batch is large enough). The returned arrays are those
buffers themselves and are overwritten by the next call: copy what you keep
(or pass ``copy=True``).

Shapes and dtypes (``N = num_envs``, ``P`` players, ``A`` actions)::

    obs               (N, *observation_shape) obs_dtype the view of the seat to act
    masks             (N, A) int8                        its legal actions
    current_player    (N,) int64                         seat to act, -1 if the episode just ended
    rewards           (N, P) float64                     every seat's reward for this step
    terminated        (N,) bool                          the game ended (rules)
    truncated         (N,) bool                          max_episode_steps reached

Rewards are the game's terminal returns (``Game.returns``), given on the step
that ends the game and 0 otherwise.

Observation dtype (``obs_dtype=``): by default the narrowest exact one. For a game whose
observation values are all integers (``Game.obs_integral``, e.g. Fungi: cards, counts and
flags) it is the smallest integer type holding ``obs_low..obs_high`` (``uint8`` for
Fungi); otherwise (Mycology's scaled values) ``float32``. Either way the values equal the
float32 observations of the functional API and the AEC env after conversion
(``obs.astype(np.float32)``). ``obs_dtype=np.float32`` (or any exact wider type) is
available; :func:`exact_obs_dtypes` lists the choices. ``with_obs=False`` writes no
observations at all (``step`` and ``reset`` return ``None`` in their place): for pure data
generation and benchmarks, where only states, masks and rewards matter.
:attr:`MushroomVectorEnv.bytes_per_step` is what each env row moves per step.

Auto-reset (Gymnasium's names, ``autoreset_mode=``):

``"next_step"`` (default, Gymnasium's default)
    The step that ends an episode returns its final observation (the view of the
    seat that moved last), ``terminated``/``truncated`` set, an all-zero mask and
    ``current_player == -1``. The *next* ``step`` ignores that env's action,
    deals its next game and returns that game's first observation with reward 0
    and both flags clear.
``"same_step"``
    The step that ends an episode also deals the next one: obs, mask and player
    are the new game's, the rewards and flags are the ended game's, and the
    final observation is in ``info["final_obs"]`` (rows where
    ``info["_final_obs"]`` is True).

Seeds: ``make(..., seed=s)`` gives env ``i`` its own deterministic stream of
episode seeds (a generator seeded from ``s`` and ``i``); episode ``k`` of env
``i`` is exactly ``game.new_state(seed)`` for the seed found in
``vec.episode_seeds[i]`` while it runs. A second stream per env drives
``sample_random_actions``. ``reset(seed=s)`` restarts both streams;
``reset()`` deals every env its next game.

Threads: batches of :data:`PARALLEL_THRESHOLD` envs or more are spread over
numba's threads (``threads=`` caps them for one vector, ``parallel=`` forces
prange on or off). Install ``tbb`` (``pip install tbb``) so that numba uses its
work-stealing TBB layer: with the default OpenMP layer, a step on a machine
whose cores are busy with other processes waits for the descheduled worker
(measured here: 0.15M instead of 2.2M steps/s at batch 1,024).

:class:`SingleAgentVectorEnv` is a Gymnasium ``VectorEnv`` over the same kernels
for single-agent training: the learner holds one seat and the other seats are
played by uniform random legal moves inside the compiled step.

:func:`make_sb3` is Stable-Baselines3's ``VecEnv`` (the ``train`` extra): the
:class:`mushgym.wrappers.sb3.MaskableVecEnv` over a
:class:`mushgym.wrappers.SingleAgentBatch`, whose opponents (random, greedy, saved
policies, self-play snapshots) are batched across the games; it is what
``train_ppo`` trains on, and sb3-contrib's ``MaskablePPO`` takes it as it is.
(SuperSuit's ``pettingzoo_env_to_vec_env_v1`` refuses turn-based AEC envs: use
these instead.)
"""

from __future__ import annotations

import sys
from typing import Any

import numba
import numpy as np

from . import compiling
from .core.batch import AUTORESET_NEXT_STEP, AUTORESET_SAME_STEP, FLAG_DRAW, FLAG_OBS, PARALLEL_THRESHOLD, new_batch
from .game import MASK_DTYPE, OBS_DTYPE, Game

AUTORESET_MODES = {"next_step": AUTORESET_NEXT_STEP, "same_step": AUTORESET_SAME_STEP}

ACTION_DTYPE = np.int64


#: observation dtypes the vector API can write, narrowest first
OBS_DTYPES = (np.uint8, np.int8, np.int16, np.int32, np.float32, np.float64)


def exact_obs_dtypes(game: Game) -> list[np.dtype]:
    """The observation dtypes that hold every observation of ``game`` exactly, narrowest
    first: integer types holding ``obs_low..obs_high`` if the game declares its observations
    integral (``Game.obs_integral``), then float32 (the functional API's) and float64."""
    out = []
    lo, hi = float(np.min(game.obs_low)), float(np.max(game.obs_high))
    for d in map(np.dtype, OBS_DTYPES):
        if d.kind in "iu":
            info = np.iinfo(d)
            if game.obs_integral and np.isfinite(lo) and np.isfinite(hi) and info.min <= lo and hi <= info.max:
                out.append(d)
        else:
            out.append(d)
    return out


def _obs_dtype(game: Game, obs_dtype: Any) -> np.dtype:
    choices = exact_obs_dtypes(game)
    if obs_dtype is None:
        return choices[0]
    try:
        d = np.dtype(obs_dtype)
    except TypeError:
        d = None
    if d not in choices:
        raise ValueError(
            f"{game.env_id}: obs_dtype {obs_dtype!r} does not hold every observation exactly; "
            f"choose one of {[c.name for c in choices]} (or None: {choices[0].name})"
        )
    return d


def _state_dtype(game: Game, state_dtype: Any) -> np.dtype:
    declared = np.dtype(game.layout.vector_dtype) if game.layout is not None else np.dtype(np.int64)
    if state_dtype is None:
        return declared
    choices = sorted({np.dtype(np.int64), declared}, key=lambda d: d.itemsize)
    try:
        d = np.dtype(state_dtype)
    except TypeError:
        d = None
    if d not in choices:
        raise ValueError(
            f"{game.env_id}: state_dtype must be one of {[c.name for c in choices]} "
            f"(None: {declared.name}, the layout's vector_dtype), got {state_dtype!r}"
        )
    return d


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def _autoreset_code(mode: Any) -> int:
    name = getattr(mode, "name", mode)  # accept gymnasium.vector.AutoresetMode members
    key = str(name).lower()
    if key not in AUTORESET_MODES:
        raise ValueError(f"autoreset_mode must be one of {sorted(AUTORESET_MODES)}, got {mode!r}")
    return AUTORESET_MODES[key]


def _base_seed(seed: Any) -> np.int64:
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer or None, got {type(seed).__name__}")
    if int(seed) < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {int(seed)}")
    # mix the whole seed (any size: SeedSequence) into 48 bits, leaving headroom for the per-env offset
    mixed = int(np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0])
    return np.int64(mixed & (2**48 - 1))


class _VectorBase:
    """Shared buffers and argument checks of the vector classes."""

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int | None,
        autoreset_mode: Any,
        max_episode_steps: int | None,
        threads: int | None,
        copy: bool,
        parallel: bool | None = None,
        obs_dtype: Any = None,
        with_obs: bool = True,
        state_dtype: Any = None,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if max_episode_steps is not None and (
            not isinstance(max_episode_steps, (int, np.integer))
            or isinstance(max_episode_steps, bool)
            or max_episode_steps < 1
        ):
            raise ValueError(f"max_episode_steps must be a positive integer or None, got {max_episode_steps!r}")
        if threads is not None and (
            not isinstance(threads, (int, np.integer))
            or isinstance(threads, bool)
            or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS
        ):
            raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
        self.game = game
        self.loops = game.loops  # the generated batch loops over the game's kernels
        self.env_id = game.env_id
        self.num_envs = n = int(num_envs)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.autoreset_mode = str(getattr(autoreset_mode, "name", autoreset_mode)).lower()
        self._mode = _autoreset_code(autoreset_mode)
        self.max_episode_steps = int(max_episode_steps or 0)
        self.threads = threads
        self.copy = bool(copy)
        self._cfg = game.config
        if not isinstance(with_obs, (bool, np.bool_)):
            raise ValueError(f"with_obs must be True or False, got {with_obs!r}")
        self.with_obs = bool(with_obs)
        self.obs_dtype = _obs_dtype(game, obs_dtype)
        self.state_dtype = _state_dtype(game, state_dtype)
        b = self._b = new_batch(
            n,
            game.state_size,
            tuple(game.observation_shape),
            game.num_actions,
            game.num_players,
            game.work_size,
            self.obs_dtype,
            MASK_DTYPE,
            self.state_dtype,
        )
        # public names of the bundle's arrays (the buffers the kernels write)
        self.obs, self.final_obs, self.has_final = b.obs, b.final_obs, b.has_final
        self.n_legal = b.n_legal
        # the states and masks are handed out read-only: a policy that writes into the mask it
        # was given, or a stray write into a state, cannot let an illegal action through or
        # feed a kernel a state it could index out of bounds with (``set_state`` checks a row)
        self.vector_states, self.masks = _read_only(b.states), _read_only(b.masks)
        self.terminated, self.truncated = b.terminated, b.truncated
        self.episode_lengths, self.episode_seeds = b.ep_len, b.ep_seeds
        self._seed_rngs, self._policy_rngs, self._actions = b.seed_rngs, b.policy_rngs, b.rand_actions
        self._parallel = n >= PARALLEL_THRESHOLD if parallel is None else bool(parallel)
        self._draw = False  # draw random actions inside step/reset (after the first sample call)
        self._draw_capable = False  # whether this class's kernels can
        self._needs_reset = True
        # on a cold cache, a worker process compiles the step loop while this one compiles
        # the seeding and reset loops (vector_ahead)
        self._ahead = vector_ahead(self)
        self._seed(seed)

    @property
    def states(self) -> np.ndarray:
        """Every env's state as the functional API's int64 states, ``(num_envs, state_size)``,
        read-only (a converted copy when the vector stores them narrower: ``vector_states``)."""
        if self.state_dtype == np.int64:
            return self.vector_states
        return _read_only(self.game.layout.from_vector(self._b.states))

    def state(self, i: int) -> np.ndarray:
        """A copy of env ``i``'s state as an int64 state of the functional API."""
        if self.state_dtype == np.int64:
            return self._b.states[i].copy()
        return self.game.layout.from_vector(self._b.states[i])

    def _step_kernel(self):
        """The compiled step loop this env calls (serial or parallel)."""
        serial, parallel = self._STEP
        return getattr(self.loops, parallel if self._parallel else serial)

    def _run_step(self, acts: np.ndarray) -> int:
        if self._ahead is not None:
            compiling.await_ahead(self._ahead)
            self._ahead = None
        bad = self._call(getattr(self.loops, self._STEP[0]), getattr(self.loops, self._STEP[1]), *self._step_args(acts))
        if bad >= 0:
            self._raise_bad(bad, acts)
        return bad

    def _flags(self) -> int:
        return (FLAG_DRAW if self._draw else 0) | (FLAG_OBS if self.with_obs else 0)

    def _obs_out(self, a: np.ndarray) -> np.ndarray | None:
        return self._out(a) if self.with_obs else None

    def _seed(self, seed: Any) -> None:
        self.seed_value = seed
        self.loops.vec_seed(_base_seed(seed), self._seed_rngs, self._policy_rngs)

    # --- threads ------------------------------------------------------------------
    def _call(self, serial, parallel, *args):
        if not self._parallel:
            return serial(*args)
        if self.threads is None:
            return parallel(*args)
        previous = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            return parallel(*args)
        finally:
            numba.set_num_threads(previous)

    # --- actions ------------------------------------------------------------------
    def _as_actions(self, actions: Any) -> np.ndarray:
        if self._needs_reset:
            raise RuntimeError(f"{self.env_id}: call reset() before step()")
        if isinstance(actions, np.ndarray) and actions.dtype == ACTION_DTYPE and actions.shape == (self.num_envs,):
            return actions
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise ValueError(
                f"{self.env_id}: actions must have shape ({self.num_envs},) (one per env), got shape {arr.shape}"
            )
        if arr.dtype.kind not in "iu":
            if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
                pass
            else:
                raise ValueError(f"{self.env_id}: actions must be integers, got dtype {arr.dtype}")
        return arr.astype(ACTION_DTYPE)

    def _raise_bad(self, bad: int, actions: np.ndarray) -> None:
        n = self.num_envs
        if bad >= n:
            i = bad - n
            raise ValueError(f"{self.env_id}: env {i} has finished its episode; reset it before stepping")
        a = int(actions[bad])
        legal = np.flatnonzero(self._b.masks[bad]).tolist()
        if not 0 <= a < self.num_actions:
            what = f"out of range 0..{self.num_actions - 1}"
        else:
            what = "illegal"
        shown = legal[:20]
        more = f", ... ({len(legal)} in all)" if len(legal) > 20 else ""
        raise ValueError(
            f"{self.env_id}: env {bad}: action {a} is {what} for player {self._player_of(bad)}; "
            f"legal actions: {shown}{more}. No env was stepped."
        )

    def _player_of(self, i: int) -> int:
        raise NotImplementedError

    def sample_random_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """One uniformly random legal action per env for the current positions, drawn in
        compiled code from each env's own policy stream (0 for an env whose episode just
        ended; its action is ignored).

        After the first call, the vector draws these actions inside every ``step`` and
        ``reset`` while each env's mask is still in cache, so later calls cost nothing and
        return the same preallocated array (overwritten by the next step). Calling it
        twice without a step returns the same actions. ``out=`` forces a fresh draw
        into ``out``.
        """
        if self._needs_reset:
            raise RuntimeError(f"{self.env_id}: call reset() before sample_random_actions()")
        if out is None and self._draw:
            return self._actions
        target = self._actions if out is None else out
        if not isinstance(target, np.ndarray) or target.dtype != ACTION_DTYPE or target.shape != (self.num_envs,):
            raise ValueError(f"out must be an int64 array of shape ({self.num_envs},)")
        self._call(
            self.loops.vec_sample, self.loops.par_vec_sample, self._b.masks, self.n_legal, self._policy_rngs, target
        )
        if out is None:
            self._draw = self._draw_capable
        return target

    @property
    def state_bytes(self) -> int:
        """Memory of one game state in this vector, in bytes."""
        return int(self._b.states.shape[1] * self._b.states.itemsize)

    @property
    def bytes_per_step_parts(self) -> dict[str, int]:
        """Bytes of each env's row that a step reads or writes: state, observation (0 with
        ``with_obs=False``), mask, the per-seat rewards, and the rest (action in, player,
        legal count, flags, episode length, policy generator, drawn action)."""
        b = self._b
        rest = (
            8
            + b.players.itemsize
            + b.n_legal.itemsize
            + 2
            + b.ep_len.itemsize
            + b.policy_rngs[0].nbytes
            + b.rand_actions.itemsize
        )
        return {
            "state": self.state_bytes,
            "obs": b.obs[0].nbytes if self.with_obs else 0,
            "mask": b.masks[0].nbytes,
            "rewards": b.rewards[0].nbytes,
            "rest": int(rest),
        }

    @property
    def bytes_per_step(self) -> int:
        """Bytes moved per env per step (the sum of :attr:`bytes_per_step_parts`): what decides
        whether a large batch still runs from the cache."""
        return sum(self.bytes_per_step_parts.values())

    @property
    def bytes_per_env(self) -> int:
        """Memory held per env: state, observation (and final observation), mask, bookkeeping."""
        total = sum(
            a.nbytes
            for a in (
                self.states,
                self.obs,
                self.final_obs,
                self.masks,
                self.n_legal,
                self.terminated,
                self.truncated,
                self.episode_lengths,
                self.episode_seeds,
                self._seed_rngs,
                self._policy_rngs,
                self._actions,
            )
        )
        return total // self.num_envs

    def set_state(self, i: int, state: np.ndarray) -> None:
        """Put ``state`` (checked by :meth:`mushgym.Game.validate`) into env ``i`` and refresh its
        mask and player; the env's episode goes on from there. ``vec.states`` itself is read-only;
        the raw buffer the kernels use (``vec._b.states``) is unchecked: writing into it is at
        your own risk."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise ValueError(f"{self.env_id}: env index must be in 0..{self.num_envs - 1}, got {i!r}")
        self.game.validate(state)
        if self.game.kernels.is_terminal(state):
            raise ValueError(f"{self.env_id}: set_state takes a game in progress, not a finished one")
        row = state.copy() if self.state_dtype == np.int64 else self.game.layout.to_vector(state)
        wide = state.copy()
        player = self.game.loops.aec_refresh(wide, self._cfg, self._b.masks[i], self.game.work)
        self._b.states[i] = row
        self._b.n_legal[i] = int(self._b.masks[i].sum())
        self._after_set_state(i, int(player))

    def _after_set_state(self, i: int, player: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    # --- pickling (SB3's SubprocVecEnv, Ray ship envs between processes) ---------------
    def __getstate__(self) -> dict:
        """Everything but the kernel module (found again from the game, itself pickled by its
        options); the public arrays that alias the bundle ``_b`` are re-derived on unpickling, so
        they still share its memory (and stay read-only where they were)."""
        d = self.__dict__.copy()
        d.pop("loops", None)
        aliases = {}
        for name, value in list(d.items()):
            if name == "_b" or not isinstance(value, np.ndarray):
                continue
            for field_name in self._b._fields:
                arr = getattr(self._b, field_name)
                if value is arr or value.base is arr:
                    aliases[name] = (field_name, not value.flags.writeable)
                    del d[name]
                    break
        d["_aliases"] = aliases
        return d

    def __setstate__(self, d: dict) -> None:
        aliases = d.pop("_aliases")
        self.__dict__.update(d)
        self.loops = self.game.loops
        for name, (field_name, read_only) in aliases.items():
            arr = getattr(self._b, field_name)
            setattr(self, name, _read_only(arr) if read_only else arr)


class MushroomVectorEnv(_VectorBase):
    """``num_envs`` games of one env id, every seat's turn exposed (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int | None = 0,
        autoreset_mode: Any = "next_step",
        max_episode_steps: int | None = None,
        threads: int | None = None,
        copy: bool = False,
        parallel: bool | None = None,
        obs_dtype: Any = None,
        with_obs: bool = True,
        state_dtype: Any = None,
    ) -> None:
        super().__init__(
            game,
            num_envs,
            seed,
            autoreset_mode,
            max_episode_steps,
            threads,
            copy,
            parallel,
            obs_dtype,
            with_obs,
            state_dtype,
        )
        self.current_player = self._b.players
        self.rewards = self._b.rewards
        self._draw_capable = True

    def _player_of(self, i: int) -> int:
        return int(self.current_player[i])

    def _after_set_state(self, i: int, player: int) -> None:
        self._b.players[i] = player
        self.terminated[i] = self.truncated[i] = self.has_final[i] = False
        self.rewards[i] = 0.0
        self._b.ep_len[i] = 0
        if self.with_obs:
            self.obs[i] = self.game.observe(self.state(i), player)  # float32 -> obs_dtype: exact

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every env a new game. With ``seed``, restart every env's seed and policy streams.

        Returns ``(obs, masks, current_player)``.
        """
        if seed is not None:
            self._seed(seed)
        self.terminated[:] = False
        self.truncated[:] = False
        self.has_final[:] = False
        self.rewards[:] = 0.0
        self._call(self.loops.vec_reset, self.loops.par_vec_reset, self._b, self._cfg, self._flags())
        self._needs_reset = False
        return self._obs_out(self.obs), self._out(self.masks), self._out(self.current_player)

    def step(self, actions: Any):
        """Apply one action per env. Returns
        ``(obs, rewards, terminated, truncated, masks, current_player, info)``.

        An illegal or out-of-range action raises ``ValueError`` naming the env and the
        action, before any env is stepped.
        """
        self._run_step(self._as_actions(actions))
        info: dict[str, Any] = {}
        if self._mode == AUTORESET_SAME_STEP:
            info["final_obs"] = self._obs_out(self.final_obs)
            info["_final_obs"] = self._out(self.has_final)
        return (
            self._obs_out(self.obs),
            self._out(self.rewards),
            self._out(self.terminated),
            self._out(self.truncated),
            self._out(self.masks),
            self._out(self.current_player),
            info,
        )

    _STEP = ("vec_step", "par_vec_step")

    def _step_args(self, acts: np.ndarray) -> tuple:
        return self._b, acts, self._cfg, self.max_episode_steps, self._mode, self._flags()

    def __repr__(self) -> str:
        return f"MushroomVectorEnv({self.env_id!r}, num_envs={self.num_envs}, autoreset_mode={self.autoreset_mode!r})"


def make(
    env_id: str,
    num_envs: int,
    seed: int | None = 0,
    *,
    autoreset_mode: Any = "next_step",
    max_episode_steps: int | None = None,
    threads: int | None = None,
    copy: bool = False,
    parallel: bool | None = None,
    obs_dtype: Any = None,
    with_obs: bool = True,
    state_dtype: Any = None,
    **options: Any,
) -> MushroomVectorEnv:
    """``num_envs`` games of ``env_id`` (game ``options`` as for ``mushgym.make``), stepped together.

    ``threads`` caps numba's worker threads for this vector's calls (default: all).
    ``parallel``: None (default) uses prange from :data:`PARALLEL_THRESHOLD` envs up,
    True / False force it on / off. ``copy=True`` returns copies instead of the buffers.
    ``obs_dtype``: None (the narrowest exact dtype, see :func:`exact_obs_dtypes`) or one of
    those; ``with_obs=False`` writes no observations. ``state_dtype``: None (the layout's
    ``vector_dtype``) or ``np.int64``.
    """
    from .registry import game as make_game

    return MushroomVectorEnv(
        make_game(env_id, **options),
        num_envs,
        seed,
        autoreset_mode=autoreset_mode,
        max_episode_steps=max_episode_steps,
        threads=threads,
        copy=copy,
        parallel=parallel,
        obs_dtype=obs_dtype,
        with_obs=with_obs,
        state_dtype=state_dtype,
    )


def from_game(game: Game, num_envs: int, seed: int | None = 0, **kwargs: Any) -> MushroomVectorEnv:
    """The vector API over an existing :class:`mushgym.Game` (any registered or test game)."""
    return MushroomVectorEnv(game, num_envs, seed, **kwargs)


# --- Gymnasium VectorEnv, single agent --------------------------------------------------

try:  # gymnasium is a dependency; keep the import local to this class's needs
    import gymnasium
    from gymnasium import spaces as _spaces
    from gymnasium.vector import VectorEnv as _GymVectorEnv
    from gymnasium.vector.utils import batch_space as _batch_space
except ImportError:  # pragma: no cover
    _GymVectorEnv = object


class SingleAgentVectorEnv(_VectorBase, _GymVectorEnv):
    """A Gymnasium ``VectorEnv``: the learner plays one seat of every env, the other seats
    play uniform random legal moves inside the compiled step.

    ``learner_seat`` is a seat index, or ``-1`` to draw the learner's seat at random for
    each episode (from the env's policy stream); ``vec.learner_seats`` holds the current
    seats. Observations are the learner's (``Box``); the learner's legal actions are in
    ``info["action_mask"]`` and ``action_masks()`` (for maskable algorithms). The reward
    is the learner's return at the end of the game. ``copy=True`` (Gymnasium's default)
    returns fresh arrays; ``copy=False`` returns the internal buffers. Observations are
    float32 by default (what training networks take); ``obs_dtype=None`` picks the
    narrowest exact dtype as in :class:`MushroomVectorEnv`.
    """

    metadata = {"autoreset_mode": None, "render_modes": []}

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int | None = 0,
        learner_seat: int = 0,
        opponent: str = "random",
        autoreset_mode: Any = "next_step",
        max_episode_steps: int | None = None,
        threads: int | None = None,
        copy: bool = True,
        parallel: bool | None = None,
        obs_dtype: Any = OBS_DTYPE,
        state_dtype: Any = None,
    ) -> None:
        if opponent != "random":
            raise ValueError(f"opponent must be 'random' (played in compiled code), got {opponent!r}")
        if not isinstance(learner_seat, (int, np.integer)) or not -1 <= learner_seat < game.num_players:
            raise ValueError(
                f"learner_seat must be -1 (random each episode) or a seat in "
                f"0..{game.num_players - 1}, got {learner_seat!r}"
            )
        _VectorBase.__init__(
            self,
            game,
            num_envs,
            seed,
            autoreset_mode,
            max_episode_steps,
            threads,
            copy,
            parallel,
            obs_dtype,
            True,
            state_dtype,
        )
        self.learner_seat = int(learner_seat)
        self.learner_seats = self._b.players
        self.rewards = self._b.learner_rewards
        self.single_observation_space = _spaces.Box(low=game.obs_low, high=game.obs_high, dtype=self.obs_dtype)
        self.single_action_space = _spaces.Discrete(game.num_actions)
        self.observation_space = _batch_space(self.single_observation_space, self.num_envs)
        self.action_space = _batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata)
        self.metadata["autoreset_mode"] = getattr(gymnasium.vector, "AutoresetMode", None) and (
            gymnasium.vector.AutoresetMode.NEXT_STEP
            if self._mode == AUTORESET_NEXT_STEP
            else gymnasium.vector.AutoresetMode.SAME_STEP
        )
        self.render_mode = None
        self.spec = None
        self.closed = False

    def _player_of(self, i: int) -> int:
        return int(self.learner_seats[i])

    def set_state(self, i: int, state: np.ndarray) -> None:
        raise NotImplementedError(
            "SingleAgentVectorEnv.set_state is not supported (the opponents' moves are "
            "part of its step); use MushroomVectorEnv.set_state"
        )

    def _reseed(self, seed: Any) -> None:
        if isinstance(seed, (list, tuple)):
            raise ValueError(
                "SingleAgentVectorEnv.reset takes one integer seed for the whole vector "
                "(env i's streams are derived from it)"
            )
        self._seed(seed)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._reseed(seed)
        if options:
            raise ValueError("reset() takes no options; game options go to the constructor")
        self.terminated[:] = False
        self.truncated[:] = False
        self.has_final[:] = False
        self.rewards[:] = 0.0
        self._call(
            self.loops.sa_reset, self.loops.par_sa_reset, self._b, self._cfg, self.learner_seat, self.num_players
        )
        self._needs_reset = False
        return self._out(self.obs), {"action_mask": self._out(self.masks)}

    def step(self, actions: Any):
        self._run_step(self._as_actions(actions))
        info: dict[str, Any] = {"action_mask": self._out(self.masks)}
        if self._mode == AUTORESET_SAME_STEP:
            info["final_obs"] = self._out(self.final_obs)
            info["_final_obs"] = self._out(self.has_final)
        return (
            self._out(self.obs),
            self._out(self.rewards),
            self._out(self.terminated),
            self._out(self.truncated),
            info,
        )

    _STEP = ("sa_step", "par_sa_step")

    def _step_args(self, acts: np.ndarray) -> tuple:
        return self._b, acts, self._cfg, self.learner_seat, self.max_episode_steps, self._mode, self.num_players

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every env, ``(num_envs, num_actions)`` bool."""
        return self._b.masks.astype(bool)

    def close(self, **kwargs: Any) -> None:
        self.closed = True

    def __repr__(self) -> str:
        return (
            f"SingleAgentVectorEnv({self.env_id!r}, num_envs={self.num_envs}, "
            f"learner_seat={self.learner_seat}, autoreset_mode={self.autoreset_mode!r})"
        )


def make_single_agent(
    env_id: str,
    num_envs: int,
    seed: int | None = 0,
    *,
    learner_seat: int = 0,
    opponent: str = "random",
    autoreset_mode: Any = "next_step",
    max_episode_steps: int | None = None,
    threads: int | None = None,
    copy: bool = True,
    parallel: bool | None = None,
    **options: Any,
) -> SingleAgentVectorEnv:
    """A Gymnasium ``VectorEnv`` of ``env_id``: learner on ``learner_seat``, random opponents."""
    from .registry import game as make_game

    return SingleAgentVectorEnv(
        make_game(env_id, **options),
        num_envs,
        seed,
        learner_seat=learner_seat,
        opponent=opponent,
        autoreset_mode=autoreset_mode,
        max_episode_steps=max_episode_steps,
        threads=threads,
        copy=copy,
        parallel=parallel,
    )


def make_sb3(
    env_id: str,
    num_envs: int,
    opponents: Any = "random",
    *,
    seat: int | None = None,
    encoder: Any = "scaled",
    seed: int | None = 0,
    build_opponent: Any = None,
    **options: Any,
):
    """Stable-Baselines3's ``VecEnv`` of ``env_id``: :func:`mushgym.wrappers.sb3.make_sb3` (which lives
    with the wrappers it is made of), offered here beside the other vector envs.

        from mushgym.agents import make_agent
        vec = mushgym.vector.make_sb3("fungi_v0", 8, opponents=["random", "greedy"], build_opponent=make_agent)
        model = sb3_contrib.MaskablePPO("MlpPolicy", vec)
    """
    from .wrappers.sb3 import make_sb3 as _make_sb3

    return _make_sb3(
        env_id, num_envs, opponents, seat=seat, encoder=encoder, seed=seed, build_opponent=build_opponent, **options
    )


# --- the first vector step, on both cores -------------------------------------------------
# The compile worker of the vector envs (see :mod:`mushgym.compiling`): their ``reset`` and
# ``step`` loops are the two largest compilations a game has (each inlines the whole game),
# and a user needs both. When a vector env is built on a cold cache, :func:`vector_ahead`
# starts one worker (``python -m mushgym.vector ...``) that compiles the step loop (serial or
# parallel, as the env will use) for the env's argument types, while this process compiles the
# seeding and reset loops; the env's first ``step`` waits for the worker
# (:func:`mushgym.compiling.await_ahead`) and loads the loop from the cache.


def vector_ahead(vec) -> str | None:
    """Start the step-loop worker for the vector env ``vec`` if its step loop is not cached;
    returns the key to :func:`mushgym.compiling.await_ahead` on (or None)."""
    if not compiling.compile_workers_enabled():
        return None
    kernel = vec._step_kernel()
    if not compiling._cold(kernel):
        return None
    kind = type(vec).__name__
    key = f"{vec.env_id}:{kind}:{kernel.py_func.__name__}:{vec.obs_dtype.name}:{vec.state_dtype.name}"
    if key in compiling._ahead_started:
        return None
    proc = compiling._start_worker(
        key,
        "mushgym.vector",
        [vec.env_id, kind, "1" if vec._parallel else "0", vec.obs_dtype.name, vec.state_dtype.name],
    )
    return key if proc is not None else None


def vector_step_signature(vec) -> tuple:
    """The numba argument types of ``vec``'s step loop (what :func:`vector_ahead`'s worker compiles)."""
    return tuple(numba.typeof(a) for a in vec._step_args(vec._actions))


def _vector_main(argv: list[str]) -> None:
    """The worker: build a one-env copy of the vector env (default options: the argument types
    do not depend on them) and compile its step loop from the signature, without running it."""
    if len(argv) != 5:
        sys.exit("usage: python -m mushgym.vector ENV_ID KIND PARALLEL OBS_DTYPE STATE_DTYPE")
    from .registry import game as make_game

    env_id, kind, parallel, obs_dtype, state_dtype = argv
    cls = {"MushroomVectorEnv": MushroomVectorEnv, "SingleAgentVectorEnv": SingleAgentVectorEnv}[kind]
    vec = cls(make_game(env_id), 1, seed=0, parallel=parallel == "1", obs_dtype=obs_dtype, state_dtype=state_dtype)
    vec._step_kernel().compile(vector_step_signature(vec))


if __name__ == "__main__":  # the compile worker: python -m mushgym.vector ENV_ID KIND PARALLEL OBS STATE
    from mushgym.vector import _vector_main as _worker  # the module itself, not this __main__ copy

    _worker(sys.argv[1:])
