"""The functional API: one game's static spec plus pure functions over state arrays.

Like Pgx and OpenSpiel, a :class:`Game` is static (rules, options, sizes) and a
state is data: a 1-D ``int64`` numpy array. ``clone`` is ``copy``; ``step``
returns a new array and never touches its input (``step_inplace`` is the fast
path for rollouts and search).

A game subclass sets ``env_id``, ``kernels`` (its numba kernel module, see
:mod:`mushgym.core.batch` for the contract), ``option_choices`` and
``default_options``, and implements ``build_config``, ``make_spec`` and the text
helpers. Everything else here is generic.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .core.header import HEADER_WORDS, header_mismatch, make_header
from .core.layout import STATE_DTYPE
from .core.rng import seed_key

if TYPE_CHECKING:
    from .results import RolloutResult

OBS_DTYPE = np.float32
MASK_DTYPE = np.int8


@dataclass(frozen=True)
class GameSpec:
    """What an algorithm needs to know about a game before it plays it."""

    env_id: str
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    state_size: int
    max_game_length: int  # upper bound on the number of steps (decisions) in one game
    reward_range: tuple[float, float]
    perfect_information: bool
    chance: bool  # shuffles or dice inside the state
    zero_sum: bool
    options: dict[str, Any] = field(default_factory=dict)


def validate_options(
    env_id: str, choices: dict[str, tuple], defaults: dict[str, Any], given: dict[str, Any]
) -> dict[str, Any]:
    """Merge ``given`` over ``defaults``; reject unknown names and values not in ``choices``."""
    unknown = sorted(set(given) - set(choices))
    if unknown:
        raise ValueError(
            f"{env_id}: unknown option(s) {unknown}; valid options are "
            + ", ".join(f"{k}={list(v)}" for k, v in choices.items())
        )
    options = dict(defaults)
    options.update(given)
    for name, value in options.items():
        valid = choices[name]
        if isinstance(value, np.integer) and not isinstance(value, np.bool_):
            value = options[name] = int(value)  # numpy integers are integers
        if not any(_same_choice(value, c) for c in valid):
            what = "player count" if name == "num_players" else f"value for option {name!r}"
            raise ValueError(f"{env_id}: invalid {what}: {value!r}; valid choices are {list(valid)}")
    return options


def action_index(action: Any) -> int | None:
    """``action`` as a Python int if it is an integer (Python, numpy, or a one-element integer
    array); None for anything else, booleans and floats included."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item() if action.dtype.kind in "iu" else None
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


def _is_int(x: Any) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _same_choice(value: Any, choice: Any) -> bool:
    """``value`` is ``choice`` with the same type: 3.0 is not 3 and True is not 1."""
    return type(value) is type(choice) and value == choice


class Game:
    """Base class of every mushgym game (the functional API)."""

    env_id: ClassVar[str] = ""
    kernels: ClassVar[ModuleType]
    option_choices: ClassVar[dict[str, tuple]] = {}
    default_options: ClassVar[dict[str, Any]] = {}
    #: option values the game accepts only together with another option (e.g. Mycelia's fifth
    #: player needs its expansion): generic code that plays one option at a time leaves them out
    #: (:meth:`player_counts`, ``testing.option_sets``); ``combinable_options`` reaches them
    needs_other_options: ClassVar[dict[str, tuple]] = {}
    actions: ClassVar[Any] = None  # the game's mushgym.core.ActionSpace, if it declares one
    layout: ClassVar[Any] = None  # the state's mushgym.core.Layout (its low/high bounds are checked)
    #: every observation value is an integer (then the vector API writes observations in the
    #: narrowest integer dtype holding ``obs_low..obs_high``; see ``mushgym.vector``)
    obs_integral: ClassVar[bool] = False
    state_dtype: ClassVar[Any] = STATE_DTYPE  # the integer dtype of a state array
    state_version: ClassVar[int] = 1  # bump when slots change meaning without a layout change

    def __init__(self, **options: Any) -> None:
        self.options = validate_options(self.env_id, self.option_choices, self.default_options, options)
        body = np.ascontiguousarray(self.build_config(self.options), dtype=np.int64)
        spec = self.make_spec(self.options)
        # the state header (mushgym.core.header): kept at the end of the config table, from where
        # every deal copies it to the end of the state; neither moves any offset the kernels use
        self.header = make_header(self.env_id, self.options, body, self.layout, spec.state_size, self.state_version)
        self.config = np.concatenate([body, self.header])
        self.spec = replace(spec, state_size=spec.state_size + HEADER_WORDS)
        self.num_players = self.spec.num_players
        self.num_actions = self.spec.num_actions
        self.observation_shape = self.spec.observation_shape
        self.state_size = self.spec.state_size
        self.obs_low, self.obs_high = self.observation_bounds()
        self.work_size = int(getattr(self.kernels, "WORK_SIZE", 1))
        self.work = np.zeros(max(1, self.work_size), dtype=STATE_DTYPE)  # the kernels' scratch area
        bounds = self.layout.state_bounds() if self.layout is not None else None
        if self.layout is not None:
            self.layout.check_vector_dtype()
        if bounds is None:  # unbounded body: the full range of the dtype
            info = np.iinfo(self.state_dtype)
            bounds = (np.full(spec.state_size, info.min, np.int64), np.full(spec.state_size, info.max, np.int64))
        # the header's bounds are its exact words: one compiled pass checks both
        self._state_low = np.concatenate([bounds[0][: spec.state_size], self.header])
        self._state_high = np.concatenate([bounds[1][: spec.state_size], self.header])
        self._body_size = spec.state_size

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """The ``num_players`` choices playable with every other option at its default."""
        counts = cls.option_choices.get("num_players", (cls.default_options.get("num_players", 2),))
        return tuple(n for n in counts if n not in cls.needs_other_options.get("num_players", ()))

    # --- to implement per game -------------------------------------------------
    def build_config(self, options: dict[str, Any]) -> np.ndarray:
        """The int64 array of options and card tables passed to every kernel."""
        raise NotImplementedError

    def make_spec(self, options: dict[str, Any]) -> GameSpec:
        raise NotImplementedError

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-element low and high of the observation vector."""
        raise NotImplementedError

    def action_to_string(self, state: np.ndarray, action: int) -> str:
        raise NotImplementedError

    def state_to_string(self, state: np.ndarray) -> str:
        """Full (omniscient) text of the state, for logs and golden files."""
        raise NotImplementedError

    def encode_action(self, name: str, *args: int) -> int:
        """The action id of ``name(*args)`` (e.g. ``encode_action("cook", 1, 0, 3)``)."""
        return self._action_space().encode(name, *args)

    def decode_action(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(name, args)`` of an action id."""
        return self._action_space().decode(int(action))

    def _action_space(self):
        if self.actions is None:
            raise NotImplementedError(f"{self.env_id} declares no ActionSpace")
        return self.actions

    def render_text(self, state: np.ndarray, player: int | None = None) -> str:
        """What ``player`` sees (or the whole table if None), for the terminal."""
        return self.state_to_string(state)

    def check_invariants(self, state: np.ndarray) -> None:
        """Raise ``AssertionError`` naming the broken invariant: the verdict of :meth:`validate`,
        whose game kernel ``validate`` is the game's one set of invariants, each with its message
        (``ValueError`` for an array that is no state of this game at all)."""
        self._check_state(state)
        try:
            self.validate(state)
        except ValueError as err:
            raise AssertionError(str(err)) from None

    def perturb_hidden(self, state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
        """A state that differs from ``state`` only in what ``player`` cannot see."""
        raise NotImplementedError

    @property
    def loops(self) -> ModuleType:
        """The batch loops generated over this game's kernels (``generated/<kernels>_loops.py``:
        the AEC step, rollouts, the vector, episode and single-agent loops)."""
        from .core.batch import loops_module

        return loops_module(self.kernels)

    def compiled(self, name: str):
        """The compiled function ``name``: a kernel of the game's module, else one of its loops."""
        fn = getattr(self.kernels, name, None)
        return fn if fn is not None else getattr(self.loops, name)

    # --- the functional API ----------------------------------------------------
    def new_state(self, seed: int) -> np.ndarray:
        """The game dealt from ``seed`` (any non-negative integer, Python or numpy: the whole
        seed counts, see :func:`mushgym.core.rng.seed_key`), header stamped."""
        try:
            key = seed_key(seed)
        except (TypeError, ValueError) as err:
            raise type(err)(f"{self.env_id}: {err}") from None
        state = np.zeros(self.state_size, dtype=self.state_dtype)
        self.kernels.init(state, np.int64(key), self.config, self.work)
        self.stamp_header(state)  # (as the generated loops' ``init`` does after the game's deal)
        return state

    def stamp_header(self, state: np.ndarray) -> np.ndarray:
        """Write this game's header into the last words of ``state`` (for states built by hand,
        e.g. scenario positions) and return it."""
        state[self._body_size :] = self.header
        return state

    def _check_state(self, state: np.ndarray) -> None:
        if not isinstance(state, np.ndarray) or state.dtype != self.state_dtype or state.shape != (self.state_size,):
            hint = ""
            if (
                isinstance(state, np.ndarray)
                and state.ndim == 1
                and state.dtype.kind == "i"
                and state.shape[0] >= HEADER_WORDS
                and state.shape != (self.state_size,)
            ):
                why = header_mismatch(self, state[-HEADER_WORDS:], _env_ids())
                hint = f" ({why})" if why else ""
            raise ValueError(
                f"{self.env_id}: a state is a 1-D {np.dtype(self.state_dtype).name} array of length "
                f"{self.state_size}; got {getattr(state, 'dtype', type(state).__name__)} "
                f"{getattr(state, 'shape', '')}{hint}"
            )

    def validation_error(self, code: int) -> str:
        """What the game's ``validate`` kernel's non-zero ``code`` means (override to name it)."""
        return f"the game's consistency check failed (code {code})"

    def validate(self, state: Any) -> None:
        """Raise ``ValueError`` unless ``state`` is a state this game's kernels can run on safely.

        Checks the type, dtype and length, every slot against the bounds declared in the
        state layout (compiled: one pass), then the game's own ``validate`` kernel if its
        kernel module defines one (``validate(state, cfg, work) -> int``, 0 = fine). The
        functional API runs it on every state it is given; the documented fast paths
        (``step_inplace(check=False)``, the batch kernels) do not.
        """
        self._check_state(state)
        from .core.validate import first_out_of_bounds, slot_name

        i = int(first_out_of_bounds(state, self._state_low, self._state_high))
        if i >= 0:
            if i >= self._body_size:
                raise ValueError(
                    f"{self.env_id}: invalid state: "
                    f"{header_mismatch(self, state[self._body_size :], _env_ids()) or 'bad header'}"
                )
            raise ValueError(
                f"{self.env_id}: invalid state: {slot_name(self.layout, i)} = {int(state[i])} is outside "
                f"{int(self._state_low[i])}..{int(self._state_high[i])} (a corrupted or foreign state array?)"
            )
        check = getattr(self.kernels, "validate", None)
        if check is not None:
            code = int(check(state, self.config, self.work))
            if code != 0:
                raise ValueError(f"{self.env_id}: invalid state: {self.validation_error(code)}")
        # every game: a position before the end has a move (the harness's invariant), so a
        # state whose player to act has none is not one the game can be in
        if not self.kernels.is_terminal(state):
            mask = np.zeros(self.num_actions, np.int8)
            if int(self.kernels.legal_mask(state, self.config, mask, self.work)) <= 0:
                raise ValueError(
                    f"{self.env_id}: invalid state: the game is not over but player "
                    f"{int(self.kernels.current_player(state))} has no legal action "
                    "(a corrupted decision or phase?)"
                )

    def legal_mask(self, state: np.ndarray) -> np.ndarray:
        self.validate(state)
        mask = np.zeros(self.num_actions, dtype=MASK_DTYPE)
        if not self.kernels.is_terminal(state):
            self.kernels.legal_mask(state, self.config, mask, self.work)
        return mask

    def legal_actions(self, state: np.ndarray) -> np.ndarray:
        return np.flatnonzero(self.legal_mask(state))

    def check_action(self, state: np.ndarray, action: Any, mask: np.ndarray | None = None) -> int:
        """The action as an int if it is legal in ``state``; otherwise a ValueError naming the legal ones."""
        if self.kernels.is_terminal(state):
            raise ValueError(f"{self.env_id}: the game is over; no action can be taken")
        if mask is None:
            mask = self.legal_mask(state)
        a = action_index(action)
        ok = a is not None and 0 <= a < self.num_actions
        if not ok or not mask[a]:
            legal = np.flatnonzero(mask).tolist()
            shown = ", ".join(f"{x} ({self.action_to_string(state, x)})" for x in legal[:40])
            more = f", ... ({len(legal)} in all)" if len(legal) > 40 else ""
            raise ValueError(
                f"{self.env_id}: illegal action {action!r} for player {self.current_player(state)}; "
                f"legal actions: {shown}{more}"
            )
        return a

    def step_inplace(self, state: np.ndarray, action: int, check: bool = True) -> None:
        if check:
            self.validate(state)
            action = self.check_action(state, action)
        self.kernels.step(state, action, self.config, self.work)

    def step(self, state: np.ndarray, action: int) -> np.ndarray:
        """The state after ``action``; ``state`` itself is left unchanged."""
        new = state.copy()
        self.step_inplace(new, action)
        return new

    def observe(self, state: np.ndarray, player: int) -> np.ndarray:
        self.validate(state)
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self.num_players:
            raise ValueError(f"{self.env_id}: no player {player}; players are 0..{self.num_players - 1}")
        out = np.zeros(self.observation_shape, dtype=OBS_DTYPE)
        self.kernels.observe(state, int(player), self.config, out, self.work)
        return out

    def current_player(self, state: np.ndarray) -> int:
        self.validate(state)
        return int(self.kernels.current_player(state))

    def is_terminal(self, state: np.ndarray) -> bool:
        self.validate(state)
        return bool(self.kernels.is_terminal(state))

    def is_truncated(self, state: np.ndarray) -> bool:
        """The game is over because it was cut (e.g. a turn limit), not by its rules:
        PettingZoo and Gymnasium report a truncation, not a termination."""
        self.validate(state)
        return bool(self.kernels.is_terminal(state) and self.loops.is_truncated(state, self.config))

    def returns(self, state: np.ndarray) -> np.ndarray:
        self.validate(state)
        out = np.zeros(self.num_players, dtype=np.float64)
        if self.kernels.is_terminal(state):
            self.kernels.returns(state, self.config, out)
        return out

    @staticmethod
    def clone(state: np.ndarray) -> np.ndarray:
        return state.copy()

    # --- bulk ------------------------------------------------------------------
    def random_rollouts(self, n_games: int, seed: int = 0, threads: int | None = None) -> RolloutResult:
        """Play ``n_games`` whole games with uniform random legal actions inside compiled code.

        Every step computes the legal mask, as a real agent needs. ``threads``
        limits numba's worker threads (default: all). Returns a
        :class:`mushgym.results.RolloutResult` (a dict with a one-line repr): steps,
        games and return statistics.
        """
        import numba

        from .results import RolloutResult

        if not _is_int(n_games) or n_games < 1:
            raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
        if not _is_int(seed) or not 0 <= seed <= 2**63 - 1 - n_games:
            raise ValueError(
                f"seed must be an integer in 0..2**63 - 1 - n_games (game i is dealt from seed + i), got {seed!r}"
            )
        if threads is not None and (not _is_int(threads) or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS):
            raise ValueError(f"threads must be an integer in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads!r}")
        previous = numba.get_num_threads()
        if threads is not None:
            numba.set_num_threads(int(threads))
        try:
            steps, rets = self.loops.random_rollouts(
                int(n_games),
                int(seed),
                self.config,
                self.state_size,
                self.num_actions,
                self.num_players,
                self.spec.max_game_length,
            )
        finally:
            numba.set_num_threads(previous)
        if (steps < 0).any():
            bad = int(np.flatnonzero(steps < 0)[0])
            raise RuntimeError(
                f"{self.env_id}: game with seed {seed + bad} did not end within "
                f"{self.spec.max_game_length} steps or had no legal action"
            )
        return RolloutResult(
            {
                "games": int(n_games),
                "steps": int(steps.sum()),
                "mean_length": float(steps.mean()),
                "max_length": int(steps.max()),
                "mean_returns": rets.mean(axis=0),
                "wins": (rets > 0).sum(axis=0),
                "lengths": steps,
                "returns": rets,
            }
        )

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"

    def __reduce__(self):
        return (_rebuild_game, (type(self), self.options))


def _env_ids() -> tuple[str, ...]:
    """The registered env ids (to name the game a foreign state belongs to)."""
    from .registry import list_envs

    return tuple(list_envs())


def _rebuild_game(cls, options):
    return cls(**options)
