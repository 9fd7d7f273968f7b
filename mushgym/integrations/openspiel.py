"""OpenSpiel adapter: every registered mushgym env as a pyspiel Python game.

    import pyspiel
    from mushgym.integrations import openspiel as mushgym_openspiel

    mushgym_openspiel.register()                      # every env of mushgym.list_envs()
    game = pyspiel.load_game("mushgym_mycology_v1", {"players": 4})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)

OpenSpiel's algorithms (IS-MCTS, outcome-sampling MCCFR, evaluation tools, its RL
environment ``rl_environment.Environment``) then run on our games;
``examples/openspiel_ismcts.py`` pits OpenSpiel's IS-MCTS bot against our greedy agent.
Needs ``pip install open_spiel`` (the ``openspiel`` extra; ``bench`` has it too).

What OpenSpiel sees (``game.get_type()``):

* **game names**: ``mushgym_<env id>`` (``mushgym_fungi_v0``...); the env's options are
  game parameters (``players`` is the player count, OpenSpiel's name for it; an option
  whose choices are not all int, all bool or all str, e.g. ``automata=None/True/False``,
  is a string parameter: ``"None"``, ``"True"``, ``"False"``). Two more parameters:
  ``seed`` (int, default 0: a game object deals its new initial states from seed ``seed``
  on, see below) and ``encoder`` (``"scaled"`` default, ``"flat"`` or
  ``"onehot"``: mushgym's observation encoders, :mod:`mushgym.wrappers.encoders`).
* **chance**: ``SAMPLED_STOCHASTIC``. Shuffles and dice are drawn by the generator
  inside our state (a seed fixes the whole game), so there are no chance nodes; a
  state's ``clone()`` shares its future chance, as in OpenSpiel's other sampled games.
* **information**: imperfect (hidden cards, or the deck's order), sequential, terminal
  rewards; zero-sum when the env's options make it so (``reward="score"`` does not).
* **observation tensor**: the player's observation vector through the encoder; its
  string is a digest of that vector (the player, and a hash; ``str(state)`` is the whole
  table in words, for humans). **Information-state tensor**: the same vector (each
  game's observation holds everything the player may know now, but it is not a log of
  past moves: a fixed-size perfect-recall tensor does not exist for games this long);
  **information-state string**: perfect recall, a digest of every distinct observation
  the player has had since the deal plus its own actions, so two states share it only
  when the player cannot tell them apart by what it saw. Both depend only on what the
  player may know (``tests/integrations/test_openspiel.py`` changes the others' hidden cards and
  checks that neither moves).
* ``resample_from_infostate(player, sampler)`` (used by IS-MCTS): the env's
  ``perturb_hidden`` redeals what ``player`` cannot see, and the in-state generator is
  reseeded from the sampler, so a sampled world does not know the real future dice.
* **truncation**: a game cut by a turn limit ends (OpenSpiel has no truncation) with the
  env's returns for that case (0 for everyone by default in Mycology).
* ``serialize()`` is pyspiel's own for Python games (history and the pickled state array);
  ``game.deserialize_state`` restores it. OpenSpiel cannot serialize a Python game object
  of a sampled-stochastic game (``GetRNGState unimplemented``), so run
  ``pyspiel.random_sim_test`` with ``serialize=False``; the state round trip is tested
  on its own.
* ``new_initial_state()`` deals the next seed of the game object: ``seed``, ``seed + 1``...
  (pyspiel's ``clone()`` makes a new initial state too and so uses one up);
  ``new_initial_state(k)`` deals seed ``k``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "mushgym.integrations.openspiel needs OpenSpiel: pip install open_spiel (or pip install 'mushgym[openspiel]')"
    ) from e

from mushgym import registry
from mushgym.wrappers.encoders import ENCODERS, make_encoder

PREFIX = "mushgym_"
ADAPTER_PARAMS = {"seed": 0, "encoder": "scaled"}


def game_name(env_id: str) -> str:
    """OpenSpiel's name of an env: ``mushgym_<env id>``."""
    return PREFIX + env_id


# --- options <-> OpenSpiel parameters ---------------------------------------------------


def _param_name(option: str) -> str:
    return "players" if option == "num_players" else option


def _kind(choices: tuple) -> type:
    if all(isinstance(c, bool) for c in choices):
        return bool
    if all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
        return int
    if all(isinstance(c, float) for c in choices):
        return float
    return str  # str choices, or mixed ones (None/True/False) named by their str()


def parameter_specification(env_id: str) -> dict[str, Any]:
    """The env's options as OpenSpiel game parameters with their defaults (plus seed, encoder)."""
    cls = registry.env_module(env_id).Game
    spec = {}
    for option, choices in cls.option_choices.items():
        default = cls.default_options[option]
        kind = _kind(tuple(choices))
        spec[_param_name(option)] = default if kind is not str else str(default)
    spec.update(ADAPTER_PARAMS)
    return spec


def _options(env_id: str, params: dict[str, Any]) -> tuple[dict[str, Any], int, str]:
    cls = registry.env_module(env_id).Game
    params = dict(params or {})
    seed = int(params.pop("seed", ADAPTER_PARAMS["seed"]))
    encoder = str(params.pop("encoder", ADAPTER_PARAMS["encoder"]))
    if encoder not in ENCODERS:
        raise ValueError(f"{game_name(env_id)}: unknown encoder {encoder!r}; choose from {sorted(ENCODERS)}")
    names = {_param_name(o): o for o in cls.option_choices}
    unknown = sorted(set(params) - set(names))
    if unknown:
        raise ValueError(
            f"{game_name(env_id)}: unknown parameter(s) {unknown}; valid parameters are "
            f"{sorted(names) + sorted(ADAPTER_PARAMS)}"
        )
    options = {}
    for name, value in params.items():
        option = names[name]
        choices = tuple(cls.option_choices[option])
        if _kind(choices) is str and not all(isinstance(c, str) for c in choices):
            named = {str(c): c for c in choices}
            if str(value) not in named:
                raise ValueError(
                    f"{game_name(env_id)}: invalid value for parameter {name!r}: {value!r}; "
                    f"valid choices are {list(named)}"
                )
            value = named[str(value)]
        options[option] = value
    return options, seed, encoder


# --- the game -------------------------------------------------------------------------------


def _game_type(env_id: str, spec=None) -> "pyspiel.GameType":
    cls = registry.env_module(env_id).Game
    players = tuple(cls.option_choices.get("num_players", (cls.default_options.get("num_players", 2),)))
    zero_sum = spec.zero_sum if spec is not None else True
    chance = spec.chance if spec is not None else True
    perfect = spec.perfect_information if spec is not None else False
    T = pyspiel.GameType
    return T(
        short_name=game_name(env_id),
        long_name=f"mushgym {env_id}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.SAMPLED_STOCHASTIC if chance else T.ChanceMode.DETERMINISTIC,
        information=T.Information.PERFECT_INFORMATION if perfect else T.Information.IMPERFECT_INFORMATION,
        utility=T.Utility.ZERO_SUM if zero_sum else T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(env_id),
    )


class MushgymGame(pyspiel.Game):
    """One mushgym env as a pyspiel game (subclassed per env by :func:`register`)."""

    env_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options, seed, encoder = _options(self.env_id, params or {})
        self.shared = _shared(self.env_id, tuple(sorted(options.items())), encoder)
        self.mushgym_game, self.encoder = self.shared.game, self.shared.encoder
        self.seed, self.options = seed, options
        self._next_game = 0
        g = self.mushgym_game
        spec = g.spec
        low, high = spec.reward_range
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_actions,
            max_chance_outcomes=0,
            num_players=g.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=int(spec.max_game_length),
        )
        full = dict(parameter_specification(self.env_id))
        full.update(dict(params or {}))
        super().__init__(_game_type(self.env_id, spec), info, full)

    def new_initial_state(self, seed: Any = None) -> "MushgymState":
        """A new game, dealt by the next seed of this game object (``seed``, ``seed + 1``, ...;
        pyspiel's ``clone()`` draws one too), or by ``seed`` if given (an int, or its string)."""
        if seed is None:
            seed = self.seed + self._next_game
            self._next_game += 1
        return MushgymState(self, int(seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"{self.env_id}: observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                f"{self.env_id}: only the player's own view (private_info=SINGLE_PLAYER) is "
                f"available; got {iig_obs_type.private_info}"
            )
        return MushgymObserver(self, perfect_recall)


class _Shared:
    """What every state of one game shares: pyspiel copies a state's ``__dict__`` value by value
    (``copy.deepcopy``) when it clones it, and pickles it to serialize it; this stays shared."""

    def __init__(self, env_id: str, options: dict[str, Any], encoder: str) -> None:
        self.env_id, self.options, self.encoder_name = env_id, dict(options), encoder
        self.game = registry.env_module(env_id).Game(**options)
        self.encoder = make_encoder(encoder, self.game)

    def observe(self, state: np.ndarray, player: int) -> np.ndarray:
        g = self.game
        if isinstance(player, bool) or not 0 <= int(player) < g.num_players:
            raise ValueError(f"{self.env_id}: no player {player}; players are 0..{g.num_players - 1}")
        out = np.zeros(g.observation_shape, dtype=np.float32)
        g.kernels.observe(state, int(player), g.config, out, g.work)
        return out

    def __deepcopy__(self, memo) -> "_Shared":
        return self

    def __reduce__(self):
        return (_shared, (self.env_id, tuple(sorted(self.options.items())), self.encoder_name))


_SHARED: dict[tuple, _Shared] = {}


def _shared(env_id: str, options: tuple, encoder: str) -> _Shared:
    key = (env_id, options, encoder)
    if key not in _SHARED:
        _SHARED[key] = _Shared(env_id, dict(options), encoder)
    return _SHARED[key]


class _Trail:
    """The states after each step (never changed once stored) and who took each step: what the
    perfect-recall information state is computed from. A clone copies the lists, not the states."""

    def __init__(self, states: list, actors: list) -> None:
        self.states, self.actors = states, actors

    def __deepcopy__(self, memo) -> "_Trail":
        return _Trail(list(self.states), list(self.actors))


class MushgymState(pyspiel.State):
    """A pyspiel state around one mushgym state array."""

    def __init__(self, game: MushgymGame, seed: int) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._seed = seed
        self._s = self._shared.game.new_state(seed)
        self._trail = _Trail([self._s.copy()], [])
        self._recall: dict[int, tuple[int, bytes, bytes]] = {}

    # --- the pyspiel.State API -------------------------------------------------------
    # The state array is only ever changed by the game's own kernels (``step_inplace`` checks
    # each action), so the queries call the kernels directly, without the functional API's
    # validation of a state handed in from outside.
    def current_player(self) -> int:
        k = self._shared.game.kernels
        if k.is_terminal(self._s):
            return pyspiel.PlayerId.TERMINAL
        return int(k.current_player(self._s))

    def _legal_actions(self, player: int) -> list[int]:
        g = self._shared.game
        k = g.kernels
        if k.is_terminal(self._s) or player != int(k.current_player(self._s)):
            return []
        mask = np.zeros(g.num_actions, dtype=np.int8)
        k.legal_mask(self._s, g.config, mask, g.work)
        return np.flatnonzero(mask).tolist()

    def _apply_action(self, action: int) -> None:
        g = self._shared.game
        k = g.kernels
        if k.is_terminal(self._s):
            raise ValueError(f"{g.env_id}: the game is over; no action can be taken")
        mask = np.zeros(g.num_actions, dtype=np.int8)
        k.legal_mask(self._s, g.config, mask, g.work)
        a = int(action)
        if not (0 <= a < g.num_actions and mask[a]):
            g.check_action(self._s, action, mask)  # raises the error naming the legal actions
        p = int(k.current_player(self._s))
        k.step(self._s, a, g.config, g.work)
        self._trail.actors.append((p, a))
        self._trail.states.append(self._s.copy())

    def _action_to_string(self, player: int, action: int) -> str:
        return self._shared.game.action_to_string(self._s, int(action))

    def is_terminal(self) -> bool:
        return bool(self._shared.game.kernels.is_terminal(self._s))

    def returns(self) -> list[float]:
        return [float(x) for x in self._shared.game.returns(self._s)]

    def __str__(self) -> str:
        return self._shared.game.state_to_string(self._s)

    def resample_from_infostate(self, player: int, probability_sampler) -> "MushgymState":
        """A state ``player`` cannot tell from this one: the env's ``perturb_hidden`` redeals what it
        cannot see and the in-state generator is reseeded (the future chance is unknown too)."""
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        rng = np.random.default_rng(seed)
        new = self.clone()
        g = self._shared.game
        new._s = g.perturb_hidden(self._s, int(player), rng)
        reseed(g, new._s, int(rng.integers(2**31)))
        return new

    # --- what a player knows -----------------------------------------------------------
    @property
    def array(self) -> np.ndarray:
        """The mushgym state array (the functional API's state; do not change it in place)."""
        return self._s

    def observation_vector(self, player: int) -> np.ndarray:
        """What ``player`` observes (the env's observation vector, before the encoder)."""
        return self._shared.observe(self._s, player)

    def recall_digest(self, player: int) -> str:
        """A digest of every distinct observation ``player`` had since the deal and its own actions."""
        trail = self._trail
        upto, h, last = self._recall.get(player, (0, b"", b""))
        for k in range(upto, len(trail.states)):
            if k > 0 and trail.actors[k - 1][0] == player:
                h = hashlib.sha1(h + b"a%d" % trail.actors[k - 1][1]).digest()
            obs = self._shared.observe(trail.states[k], player).tobytes()
            if obs != last:
                h = hashlib.sha1(h + obs).digest()
                last = obs
        self._recall[player] = (len(trail.states), h, last)
        return h.hex()


def reseed(game, state: np.ndarray, seed: int) -> None:
    """Reseed the generator words of ``state`` (the layout's ``rng`` field), if it has one."""
    layout = getattr(type(game), "layout", None)
    if layout is None or "rng" not in getattr(layout, "fields", {}):
        return
    from mushgym.core.rng import rng_seed

    rng_seed(state, layout.fields["rng"].offset, np.int64(seed))


class MushgymObserver:
    """pyspiel's Python observer: the encoded observation vector, and a digest string."""

    def __init__(self, game: MushgymGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.space.shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MushgymState, player: int) -> None:
        self.tensor[:] = self.game.encoder(state.observation_vector(player))

    def string_from(self, state: MushgymState, player: int) -> str:
        if self.perfect_recall:
            return f"player {player} recall {state.recall_digest(player)}"
        obs = state.observation_vector(player).tobytes()
        return f"player {player} observation {hashlib.sha1(obs).hexdigest()}"


# --- registration ------------------------------------------------------------------------

_registered: dict[str, type] = {}


def game_class(env_id: str) -> type:
    """The :class:`MushgymGame` subclass of ``env_id`` (made once)."""
    if env_id not in _registered:
        registry.env_module(env_id)  # a clear error for an unknown env id
        _registered[env_id] = type(f"Mushgym_{env_id}", (MushgymGame,), {"env_id": env_id})
    return _registered[env_id]


def register(env_ids: list[str] | None = None) -> list[str]:
    """Register ``env_ids`` (default: every env of ``mushgym.list_envs()``) with pyspiel; returns
    the OpenSpiel game names. Registering twice is harmless."""
    names = []
    known = set(pyspiel.registered_names())
    for env_id in registry.list_envs() if env_ids is None else env_ids:
        cls = game_class(env_id)
        name = game_name(env_id)
        if name not in known:
            pyspiel.register_game(_game_type(env_id), cls)
        names.append(name)
    return names


def load_game(env_id: str, **params: Any) -> MushgymGame:
    """``pyspiel.load_game("mushgym_<env_id>", params)`` after registering the env."""
    register([env_id])
    return pyspiel.load_game(game_name(env_id), params)
