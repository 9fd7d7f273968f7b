"""Ray RLlib adapter: every registered env as a multi-agent RLlib env, self-play PPO with a league,
from one laptop to a Ray cluster.

    from mushgym.integrations import rllib as mushgym_rllib

    run = mushgym_rllib.train("fungi_v0", iterations=50, env_runners=2)     # local Ray instance
    run = mushgym_rllib.train("mycology_v1", options={"num_players": 3}, address="auto")  # a running cluster

or from the shell ``mushgym train fungi_v0 --backend rllib --env-runners 2 [--address ADDR]``.
Needs the ``rllib`` extra (``pip install 'mushgym[rllib]'``: Ray and RLlib's own
dependencies at the tested versions; see ``pyproject.toml`` for why gymnasium is not
pinned by ``ray[rllib]``).

What it builds (RLlib's new API stack: ``RLModule``, ``EnvRunner``, ``Learner``):

* :class:`MushgymMultiAgentEnv`: a ``MultiAgentEnv`` over the functional game API.
  Agents are ``player_0``... (PettingZoo's names, one per seat). Turn-based: each step
  returns the observation of the player to act only; its observation is
  ``{"observations": encoder(obs), "action_mask": 0/1 float32}`` (the action-masking layout
  of RLlib's examples). At the end every seat that has acted gets its final observation and
  its game return as reward (``game.returns``: the seat's own entry), a game cut by the game
  itself (Mycology's turn limit) is a truncation, one ended by the rules a termination; the
  info of each seat at the end holds ``seat`` and ``returns`` (every seat's). An action the
  mask forbids is a ``ValueError`` (so a masking bug stops training instead of being
  ignored).
* :class:`MaskedMLPModule`: a ``TorchRLModule`` with the ``ValueFunctionAPI`` (PPO):
  actor and critic MLPs on ``observations``; the actor's logits of illegal actions are the
  float32 minimum (``mask_logits``), in exploration, inference and training alike.
* :class:`SeatMapping`: the agent -> module mapping. ``policies="shared"`` (default): one
  learning module ``main``; with a league (``league=K > 0``, default 4) one seat per game,
  drawn from the episode id, is ``main`` and each other seat one of ``K`` frozen modules
  ``league_0..league_{K-1}``; with ``league=0`` ``main`` plays every seat (pure self-play).
  ``policies="per_seat"``: a learning module ``seat_i`` per seat, no league.
* The league: its modules start as freshly initialised networks (near-uniform over the legal
  moves, so the first opponents play about like random); every ``snapshot_every``
  iterations the current ``main`` is copied into the next slot (round robin: the oldest
  snapshot leaves first). Frozen modules are never trained (``policies_to_train``).
* :func:`train`: the loop. A run folder (default ``runs/rllib_<env>_s<seed>_<date-time>``)
  gets ``progress.csv`` (one row per iteration: env steps, steps/s, returns, losses),
  TensorBoard logs (``tb/``), RLlib checkpoints (``checkpoints/iter_NNNNNN/``, each also
  holding ``policy.pt``/``policy.json``), ``final.pt``/``final.json`` and, when asked,
  ``learning_curve.csv``/``.png`` (the main policy's win rate against random play).

``policy.pt`` / ``final.pt`` hold the actor's weights only (``torch.load(weights_only=True)``,
:mod:`mushgym.integrations.rllib_policy`): ``mushgym eval`` and ``mushgym play`` load them,
or a checkpoint folder, like an SB3 model, without Ray and without unpickling. RLlib's own
checkpoint files are pickles: resume from them only if you trust them
(``Algorithm.from_checkpoint``).

Ray: ``address=None`` and no ``RAY_ADDRESS`` start a local instance (no dashboard);
``address="auto"`` or ``"ray://host:10001"``... join a running cluster, whose nodes must
have mushgym installed (the same version). Ray is shut down at the end of :func:`train`
if :func:`train` started it.
"""

from __future__ import annotations

import csv
import json
import time
import zlib
from pathlib import Path
from typing import Any, Sequence

import numpy as np

try:  # the rllib extra
    import gymnasium as gym
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.tune.registry import register_env
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mushgym.integrations.rllib needs the rllib extra: pip install 'mushgym[rllib]' (missing: {e.name})"
    ) from e

import mushgym
from mushgym.integrations.ray_session import init_ray
from mushgym.integrations.rllib_policy import build_mlp, mask_logits, save_export

MAIN = "main"
POLICY_MODES = ("shared", "per_seat")
ENV_PREFIX = "mushgym_"

# Defaults for a 2-core machine; the CI test and the benchmark shrink them further.
DEFAULTS: dict[str, Any] = dict(
    hidden=[128, 128],
    activation="tanh",
    encoder="scaled",
    train_batch_size=4000,
    minibatch_size=500,
    num_epochs=4,
    lr=3e-4,
    gamma=0.995,
    lambda_=0.95,
    entropy_coeff=0.01,
    rollout_fragment_length="auto",
    sample_timeout_s=900.0,
)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent_id: str) -> int:
    return int(str(agent_id).rsplit("_", 1)[1])


# --------------------------------------------------------------------------- the env


class MushgymMultiAgentEnv(MultiAgentEnv):
    """A registered mushgym env as an RLlib ``MultiAgentEnv`` (see the module docstring).

    ``config``: ``env_id`` (required), ``options`` (dict of game options), ``encoder``
    (``"scaled"`` default, ``"flat"``, ``"onehot"``), ``seed`` (deals when ``reset`` gets
    none). A ``reset(seed=s)`` deals the game of seed ``s``; later resets without a seed
    continue from a generator seeded by ``s``.
    """

    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        env_id = config.get("env_id")
        if env_id not in mushgym.list_envs():
            raise ValueError(
                f"MushgymMultiAgentEnv: unknown env_id {env_id!r}; registered envs: {', '.join(mushgym.list_envs())}"
            )
        from mushgym.wrappers import make_encoder

        self.game = mushgym.game(env_id, **dict(config.get("options") or {}))
        self.encoder = make_encoder(config.get("encoder", "scaled"), self.game)
        n = self.game.num_players
        self.possible_agents = [agent_name(i) for i in range(n)]
        self.agents = list(self.possible_agents)
        obs_space = observation_space(self.game, self.encoder)
        act_space = gym.spaces.Discrete(self.game.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        worker = int(getattr(config, "worker_index", 0)) * 1000 + int(getattr(config, "vector_index", 0))
        self._rng = np.random.default_rng([int(config.get("seed", 0)), worker])
        self.state: np.ndarray | None = None
        self._acted: set[int] = set()

    def _obs(self, seat: int) -> dict:
        return {
            "observations": self.encoder(self.game.observe(self.state, seat)),
            "action_mask": self.game.legal_mask(self.state).astype(np.float32),
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(int(self._rng.integers(2**31 - 1)))
        self._acted = set()
        self.agents = list(self.possible_agents)
        player = self.game.current_player(self.state)
        return {agent_name(player): self._obs(player)}, {}

    def step(self, action_dict: dict):
        if self.state is None:
            raise RuntimeError("MushgymMultiAgentEnv.step before reset")
        player = self.game.current_player(self.state)
        name = agent_name(player)
        if set(action_dict) != {name}:
            raise ValueError(f"{self.game.env_id}: it is {name}'s turn; got actions for {sorted(action_dict)}")
        action = int(action_dict[name])
        mask = self.game.legal_mask(self.state)
        if not (0 <= action < mask.size) or not mask[action]:
            raise ValueError(
                f"{self.game.env_id}: {name} chose action {action}, which its action mask forbids "
                f"(legal: {np.flatnonzero(mask).tolist()[:20]}...)"
            )
        self.game.step_inplace(self.state, action, check=False)
        self._acted.add(player)
        if self.game.is_terminal(self.state):
            returns = self.game.returns(self.state)
            cut = self.game.is_truncated(self.state)
            seats = sorted(self._acted)
            obs = {agent_name(s): self._obs(s) for s in seats}
            rewards = {agent_name(s): float(returns[s]) for s in seats}
            infos = {agent_name(s): {"seat": s, "returns": returns.tolist()} for s in seats}
            return obs, rewards, {"__all__": not cut}, {"__all__": cut}, infos
        nxt = self.game.current_player(self.state)
        return {agent_name(nxt): self._obs(nxt)}, {name: 0.0}, {"__all__": False}, {"__all__": False}, {}


def observation_space(game, encoder) -> gym.spaces.Dict:
    return gym.spaces.Dict(
        {"observations": encoder.space, "action_mask": gym.spaces.Box(0.0, 1.0, (game.num_actions,), np.float32)}
    )


def env_name(env_id: str) -> str:
    return ENV_PREFIX + env_id


def register(env_ids: Sequence[str] | None = None) -> list[str]:
    """Register ``mushgym_<env id>`` with RLlib's env registry (every env by default);
    the env's config is the :class:`MushgymMultiAgentEnv` config less ``env_id``."""
    names = []
    for env_id in env_ids or mushgym.list_envs():
        register_env(env_name(env_id), _EnvCreator(env_id))
        names.append(env_name(env_id))
    return names


class _EnvCreator:
    def __init__(self, env_id: str) -> None:
        self.env_id = env_id

    def __call__(self, config):
        if hasattr(config, "worker_index"):  # an EnvContext: keep worker/vector index for the seeds
            config = type(config)(
                {**config, "env_id": self.env_id},
                worker_index=config.worker_index,
                vector_index=config.vector_index,
                remote=config.remote,
                num_workers=config.num_workers,
            )
        else:
            config = {**(config or {}), "env_id": self.env_id}
        return MushgymMultiAgentEnv(config)


# --------------------------------------------------------------------------- the module


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """Actor and critic MLPs on ``obs["observations"]``; illegal actions' logits masked.

    ``model_config``: ``hidden`` (layer sizes, default ``[128, 128]``), ``activation``
    (``"tanh"`` default or ``"relu"``). The critic is built in inference-only copies too
    (it is small), so every copy has the same weights' layout.
    """

    def setup(self) -> None:
        space = self.observation_space
        if not isinstance(space, gym.spaces.Dict) or set(space.spaces) != {"observations", "action_mask"}:
            raise ValueError(
                "MaskedMLPModule needs a Dict observation space with 'observations' and "
                f"'action_mask' (MushgymMultiAgentEnv's); got {space}"
            )
        cfg = self.model_config or {}
        hidden = list(cfg.get("hidden", DEFAULTS["hidden"]))
        activation = cfg.get("activation", DEFAULTS["activation"])
        n_in = int(np.prod(space["observations"].shape))
        self.pi = build_mlp(n_in, hidden, int(self.action_space.n), activation)
        self.vf = build_mlp(n_in, hidden, 1, activation)

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        logits = self.pi(obs["observations"])
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, obs["action_mask"])}

    def compute_values(self, batch: dict, embeddings: Any = None):
        return self.vf(batch[Columns.OBS]["observations"]).squeeze(-1)


# --------------------------------------------------------------------------- the mapping


class SeatMapping:
    """``(agent_id, episode) -> module id`` for self-play (see the module docstring).

    Which seat ``main`` holds and which league slot each other seat gets come from a hash
    (crc32) of the episode id, so they are fixed for a game, spread evenly over games, and
    the same in every process."""

    def __init__(self, num_players: int, policies: str = "shared", league: int = 4) -> None:
        if policies not in POLICY_MODES:
            raise ValueError(f"policies must be one of {POLICY_MODES}, got {policies!r}")
        if league < 0:
            raise ValueError(f"league must be 0 (no frozen opponents) or positive, got {league}")
        if policies == "per_seat" and league:
            raise ValueError("policies='per_seat' trains one module per seat and has no league: pass league=0")
        self.num_players = num_players
        self.policies = policies
        self.league = league

    @property
    def module_ids(self) -> list[str]:
        if self.policies == "per_seat":
            return [f"seat_{i}" for i in range(self.num_players)]
        return [MAIN] + [f"league_{k}" for k in range(self.league)]

    @property
    def trained(self) -> list[str]:
        return [m for m in self.module_ids if not m.startswith("league_")]

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        seat = seat_of(agent_id)
        if self.policies == "per_seat":
            return f"seat_{seat}"
        if not self.league:
            return MAIN
        key = str(getattr(episode, "id_", episode)).encode()
        if zlib.crc32(key) % self.num_players == seat:
            return MAIN
        return f"league_{zlib.crc32(key + b'/%d' % seat) % self.league}"


# --------------------------------------------------------------------------- config and training


def build_config(
    env_id: str,
    options: dict | None = None,
    *,
    env_runners: int = 2,
    policies: str = "shared",
    league: int = 4,
    seed: int = 0,
    **hyper: Any,
) -> tuple[PPOConfig, SeatMapping]:
    """A PPO config (new API stack) for ``env_id``: env, masked modules, mapping, sizes.

    ``hyper`` overrides :data:`DEFAULTS` (``hidden``, ``activation``, ``encoder``,
    ``train_batch_size``, ``minibatch_size``, ``num_epochs``, ``lr``, ``gamma``, ``lambda_``,
    ``entropy_coeff``, ``rollout_fragment_length``, ``sample_timeout_s``); an unknown name is a
    ``ValueError``."""
    unknown = set(hyper) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown hyperparameters {sorted(unknown)}; valid: {sorted(DEFAULTS)}")
    if env_id not in mushgym.list_envs():
        raise ValueError(f"unknown env {env_id!r}; registered envs: {', '.join(mushgym.list_envs())}")
    if env_runners < 0:
        raise ValueError(f"env_runners must be 0 (sample in the driver) or more, got {env_runners}")
    hp = {**DEFAULTS, **hyper}
    options = dict(options or {})
    game = mushgym.game(env_id, **options)
    from mushgym.wrappers import make_encoder

    encoder = make_encoder(hp["encoder"], game)
    mapping = SeatMapping(game.num_players, policies, league)
    obs_space = observation_space(game, encoder)
    act_space = gym.spaces.Discrete(game.num_actions)
    model_config = {"hidden": list(hp["hidden"]), "activation": hp["activation"]}
    specs = {
        m: RLModuleSpec(
            module_class=MaskedMLPModule, observation_space=obs_space, action_space=act_space, model_config=model_config
        )
        for m in mapping.module_ids
    }
    register([env_id])
    config = (
        PPOConfig()
        .environment(
            env_name(env_id),
            env_config={"options": options, "encoder": hp["encoder"], "seed": seed},
            disable_env_checking=True,
        )
        .framework("torch")
        .env_runners(
            num_env_runners=env_runners,
            num_envs_per_env_runner=1,
            rollout_fragment_length=hp["rollout_fragment_length"],
            num_cpus_per_env_runner=1,
            # RLlib's default (60 s) returns an empty iteration when the runners are slow to start
            # (numba kernels load, a busy machine): wait for the samples instead
            sample_timeout_s=hp["sample_timeout_s"],
        )
        .learners(num_learners=0)
        .multi_agent(policies=set(mapping.module_ids), policy_mapping_fn=mapping, policies_to_train=mapping.trained)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=hp["train_batch_size"],
            minibatch_size=hp["minibatch_size"],
            num_epochs=hp["num_epochs"],
            lr=hp["lr"],
            gamma=hp["gamma"],
            lambda_=hp["lambda_"],
            entropy_coeff=hp["entropy_coeff"],
        )
        .debugging(seed=seed, log_level="ERROR")
    )
    config.mushgym = {
        "env_id": env_id,
        "options": options,
        "hyper": hp,
        "policies": policies,
        "league": league,
        "seed": seed,
    }
    return config, mapping


def snapshot_into_league(algo, slot: int, source: str = MAIN) -> None:
    """Copy ``source``'s current weights into the frozen module ``league_<slot>`` (learner and
    every env runner)."""
    target = f"league_{slot}"
    weights = algo.learner_group.get_weights(module_ids=[source])[source]
    algo.learner_group.set_weights({target: weights})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[target], inference_only=True
    )


def actor_weights(algo, module_id: str = MAIN) -> dict:
    """The actor part (``pi.*``) of a module's weights, as numpy arrays."""
    weights = algo.learner_group.get_weights(module_ids=[module_id])[module_id]
    return {k[len("pi.") :]: np.asarray(v) for k, v in weights.items() if k.startswith("pi.")}


def export_policy(
    algo, path: str | Path, env_id: str, options: dict, hyper: dict, module_id: str = MAIN, extra: dict | None = None
) -> Path:
    """Write ``module_id``'s actor as a weights-only ``.pt`` and its ``.json`` (see
    :mod:`mushgym.integrations.rllib_policy`)."""
    meta = {
        "env_id": env_id,
        "options": options,
        "encoder": hyper["encoder"],
        "hidden": list(hyper["hidden"]),
        "activation": hyper["activation"],
        "algo": "rllib-ppo",
        "module": module_id,
        **(extra or {}),
    }
    return save_export(actor_weights(algo, module_id), path, meta)


def _scalars(result: dict, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for k, v in result.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_scalars(v, name + "/"))
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            out[name] = float(v)
    return out


def _pick(flat: dict, *names: str, default: float = float("nan")) -> float:
    for n in names:
        if n in flat:
            return flat[n]
    return default


def win_rate_vs_random(policy, game, games: int, seed: int) -> float:
    """Share of games the policy wins (best return alone; a shared best counts half) in each seat
    in turn, every other seat playing uniformly random legal moves."""
    from mushgym.episodes import play
    from mushgym.policies import UniformRandomPolicy

    score = 0.0
    P = game.num_players
    for seat in range(P):
        agents = [policy if p == seat else UniformRandomPolicy(seed + 7 * p + 1) for p in range(P)]
        n = max(1, games // P)
        ret = play(game, agents, [seed + seat * 100_003 + i for i in range(n)])["returns"]
        best = ret.max(axis=1)
        mine = ret[:, seat] == best
        ties = (ret == best[:, None]).sum(axis=1)
        score += float(np.where(mine, 1.0 / ties, 0.0).mean()) / P
    return score


def audit_episodes(episodes) -> list[dict]:
    """For each finished ``MultiAgentEpisode``: ``actions`` (taken), ``masked`` (how many of them
    the mask they were chosen under forbade), and per seat ``(return, the game's returns, module)``.
    Used by the tests on samples taken inside the env runners."""
    out = []
    for ep in episodes:
        actions = masked = 0
        seats = {}
        for agent, sa in ep.agent_episodes.items():
            acts = np.asarray(sa.get_actions(), dtype=np.int64)
            obs = sa.get_observations()  # a dict of arrays once the episode is numpy-ized, else a list
            masks = (
                np.asarray(obs["action_mask"]) if isinstance(obs, dict) else np.stack([o["action_mask"] for o in obs])
            )[: len(acts)]
            actions += len(acts)
            masked += int((masks[np.arange(len(acts)), acts] == 0).sum())
            last = sa.get_infos(-1) if len(sa.get_infos()) else {}
            seats[seat_of(agent)] = (float(sa.get_return()), last.get("returns"), ep.module_for(agent))
        out.append({"actions": actions, "masked": masked, "seats": seats, "done": bool(ep.is_done)})
    return out


def audit_runner(runner, num_episodes: int = 1) -> list[dict]:
    """Sample ``num_episodes`` episodes on an env runner and :func:`audit_episodes` them
    (``algo.env_runner_group.foreach_env_runner(audit_runner)``)."""
    return audit_episodes(runner.sample(num_episodes=num_episodes, explore=True))


def sample_steps(runner, num_timesteps: int) -> int:
    """Sample at least ``num_timesteps`` env steps on an env runner; the env steps taken (for
    throughput: ``algo.env_runner_group.foreach_env_runner(partial(sample_steps, num_timesteps=T))``)."""
    return int(sum(ep.env_steps() for ep in runner.sample(num_timesteps=num_timesteps, explore=True)))


def _default_run_dir(env_id: str, seed: int) -> Path:
    return Path("runs") / f"rllib_{env_id}_s{seed}_{time.strftime('%Y%m%d-%H%M%S')}"


def train(
    env_id: str,
    iterations: int = 20,
    *,
    options: dict | None = None,
    env_runners: int = 2,
    address: str | None = None,
    policies: str = "shared",
    league: int = 4,
    snapshot_every: int = 5,
    seed: int = 0,
    run_dir: str | Path | None = None,
    checkpoint_every: int = 10,
    curve_every: int = 0,
    curve_games: int = 100,
    max_minutes: float | None = None,
    progress: bool = True,
    num_cpus: int | None = None,
    on_iteration=None,
    **hyper: Any,
) -> dict:
    """Train PPO with RLlib on ``env_id`` and write a run folder (see the module docstring).

    Returns ``{"run_dir", "final", "checkpoint", "iterations", "env_steps", "wall_seconds",
    "env_steps_per_second", "rows"}`` (``rows``: the per-iteration metrics of ``progress.csv``).
    ``curve_every=k`` measures the win rate of ``main`` against random every ``k`` iterations
    (``curve_games`` games) into ``learning_curve.csv``/``.png``. ``on_iteration(algo, iteration,
    result)``, if given, is called after each iteration (tests inspect the env runners there)."""
    if iterations < 1:
        raise ValueError(f"iterations must be positive, got {iterations}")
    if snapshot_every < 1:
        raise ValueError(f"snapshot_every must be positive, got {snapshot_every}")
    config, mapping = build_config(
        env_id, options, env_runners=env_runners, policies=policies, league=league, seed=seed, **hyper
    )
    info = config.mushgym
    run_dir = Path(run_dir) if run_dir is not None else _default_run_dir(env_id, seed)
    if run_dir.exists() and any(run_dir.iterdir()):
        raise FileExistsError(f"run folder {run_dir} is not empty: give a new or empty one")
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(
        json.dumps(
            {
                **info,
                "env_runners": env_runners,
                "iterations": iterations,
                "snapshot_every": snapshot_every,
                "ray": ray.__version__,
            },
            indent=2,
            default=str,
        )
    )
    started = init_ray(address, num_cpus)
    try:
        return _train_loop(
            config,
            mapping,
            info,
            run_dir,
            iterations,
            snapshot_every,
            checkpoint_every,
            curve_every,
            curve_games,
            max_minutes,
            progress,
            on_iteration,
        )
    finally:
        if started:
            ray.shutdown()


def _train_loop(
    config,
    mapping,
    info,
    run_dir: Path,
    iterations: int,
    snapshot_every: int,
    checkpoint_every: int,
    curve_every: int,
    curve_games: int,
    max_minutes: float | None,
    progress: bool,
    on_iteration=None,
) -> dict:
    from tensorboardX import SummaryWriter

    from mushgym.integrations.rllib_policy import MaskedMLPPolicy

    env_id, options, hp = info["env_id"], info["options"], info["hyper"]
    game = mushgym.game(env_id, **options)
    learner = mapping.trained[0]
    algo = config.build_algo()
    writer = SummaryWriter(str(run_dir / "tb"))
    rows: list[dict] = []
    curve: list[dict] = []
    snapshots = 0
    t0 = time.perf_counter()
    steps_before = 0.0
    last_checkpoint = None

    def checkpoint(it: int) -> Path:
        path = (run_dir / "checkpoints" / f"iter_{it:06d}").absolute()
        algo.save_to_path(str(path))
        export_policy(algo, path / "policy.pt", env_id, options, hp, learner, extra={"iteration": it})
        return path

    def curve_point(it: int, steps: float) -> None:
        pt = export_policy(algo, run_dir / "curve_policy.pt", env_id, options, hp, learner)
        rate = win_rate_vs_random(MaskedMLPPolicy(pt), game, curve_games, seed=info["seed"] + 55_555)
        curve.append(
            {
                "iteration": it,
                "env_steps": int(steps),
                "seconds": round(time.perf_counter() - t0, 1),
                "win_rate_vs_random": round(rate, 4),
            }
        )
        writer.add_scalar("mushgym/win_rate_vs_random", rate, int(steps))

    try:
        if curve_every:
            curve_point(0, 0)
        for it in range(1, iterations + 1):
            t_it = time.perf_counter()
            result = algo.train()
            dt = time.perf_counter() - t_it
            flat = _scalars(result)
            steps = _pick(flat, "num_env_steps_sampled_lifetime", "env_runners/num_env_steps_sampled_lifetime")
            row = {
                "iteration": it,
                "env_steps": int(steps),
                "env_steps_per_second": round((steps - steps_before) / dt, 1),
                "seconds": round(time.perf_counter() - t0, 1),
                "episodes": int(_pick(flat, "env_runners/num_episodes_lifetime", default=0)),
                "episode_len_mean": round(_pick(flat, "env_runners/episode_len_mean"), 2),
                f"{learner}_return_mean": round(_pick(flat, f"env_runners/module_episode_returns_mean/{learner}"), 4),
                "policy_loss": round(_pick(flat, f"learners/{learner}/policy_loss"), 5),
                "vf_loss": round(_pick(flat, f"learners/{learner}/vf_loss"), 5),
                "entropy": round(_pick(flat, f"learners/{learner}/entropy"), 4),
            }
            steps_before = steps
            rows.append(row)
            for k, v in flat.items():
                if np.isfinite(v):
                    writer.add_scalar(k, v, int(steps))
            if on_iteration is not None:
                on_iteration(algo, it, result)
            if mapping.league and it % snapshot_every == 0:
                snapshot_into_league(algo, snapshots % mapping.league)
                snapshots += 1
            if checkpoint_every and it % checkpoint_every == 0:
                last_checkpoint = checkpoint(it)
            if curve_every and it % curve_every == 0:
                curve_point(it, steps)
            if progress:
                extra = (
                    f" win-vs-random {curve[-1]['win_rate_vs_random']:.2f}"
                    if curve and curve[-1]["iteration"] == it
                    else ""
                )
                print(
                    f"[rllib {env_id}] iter {it}/{iterations}  env steps {row['env_steps']:,}  "
                    f"{row['env_steps_per_second']:,.0f} steps/s  {learner} return {row[f'{learner}_return_mean']}  "
                    f"entropy {row['entropy']}{extra}",
                    flush=True,
                )
            if max_minutes is not None and time.perf_counter() - t0 > 60 * max_minutes:
                break
        it = rows[-1]["iteration"]
        if last_checkpoint is None or not last_checkpoint.name.endswith(f"{it:06d}"):
            last_checkpoint = checkpoint(it)
        final = export_policy(
            algo,
            run_dir / "final.pt",
            env_id,
            options,
            hp,
            learner,
            extra={"iteration": it, "env_steps": rows[-1]["env_steps"]},
        )
    finally:
        writer.close()
        algo.stop()
    _write_csv(run_dir / "progress.csv", rows)
    if curve:
        _write_csv(run_dir / "learning_curve.csv", curve)
        plot_curve(
            curve,
            run_dir / "learning_curve.png",
            f"{env_id}: RLlib self-play PPO vs random",
            chance=1.0 / game.num_players,
        )
        (run_dir / "curve_policy.pt").unlink(missing_ok=True)
        (run_dir / "curve_policy.json").unlink(missing_ok=True)
    wall = time.perf_counter() - t0
    return {
        "run_dir": run_dir,
        "final": final,
        "checkpoint": last_checkpoint,
        "iterations": len(rows),
        "env_steps": rows[-1]["env_steps"],
        "wall_seconds": wall,
        "env_steps_per_second": rows[-1]["env_steps"] / wall,
        "rows": rows,
        "curve": curve,
    }


def _write_csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot_curve(curve: list[dict], path: Path, title: str, chance: float = 0.5) -> None:
    """The win rate against random over env steps (matplotlib; skipped without it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c["env_steps"] for c in curve], [c["win_rate_vs_random"] for c in curve], marker="o")
    ax.axhline(chance, color="grey", lw=0.8, ls="--", label="random vs random")
    ax.set_xlabel("env steps (all seats)")
    ax.set_ylabel("win rate vs random")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --------------------------------------------------------------------------- command line


def build_parser(parser=None):
    import argparse

    p = parser or argparse.ArgumentParser(
        prog="mushgym train ENV --backend rllib", description="Self-play PPO with Ray RLlib on a mushgym env."
    )
    p.add_argument("env", help="env id, e.g. fungi_v0")
    p.add_argument("--backend", choices=["rllib"], default="rllib")
    p.add_argument("--iterations", type=int, default=20, help="training iterations (default 20)")
    p.add_argument("--env-runners", type=int, default=2, help="Ray env runners sampling in parallel (default 2)")
    p.add_argument(
        "--address",
        default=None,
        help="Ray cluster to join (e.g. auto, or ray://HEAD:10001); default: RAY_ADDRESS, else a local Ray",
    )
    p.add_argument(
        "--policies",
        choices=POLICY_MODES,
        default="shared",
        help="shared: one learning policy (self-play, default); per_seat: one per seat",
    )
    p.add_argument("--league", type=int, default=4, help="frozen past policies as opponents (default 4; 0: none)")
    p.add_argument("--snapshot-every", type=int, default=5, help="iterations between league snapshots (default 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--run-dir", default=None, help="output folder, new or empty (default runs/rllib_<env>_s<seed>_<time>)"
    )
    p.add_argument("--checkpoint-every", type=int, default=10, help="iterations between checkpoints (default 10)")
    p.add_argument(
        "--curve-every",
        type=int,
        default=0,
        help="iterations between win-rate-vs-random points of the learning curve (default 0: none)",
    )
    p.add_argument("--curve-games", type=int, default=100)
    p.add_argument("--minutes", type=float, default=None, help="stop after this many minutes")
    p.add_argument("--train-batch-size", type=int, default=None)
    p.add_argument("--minibatch-size", type=int, default=None)
    p.add_argument("--num-epochs", type=int, default=None)
    p.add_argument("--hidden", type=int, nargs="+", default=None, help="layer sizes (default 128 128)")
    p.add_argument(
        "--option", "--opt", action="append", default=[], metavar="NAME=VALUE", help="game option (repeatable)"
    )
    p.add_argument("--no-progress", action="store_true")
    return p


def train_main(argv: Sequence[str] | None = None) -> int:
    """``mushgym train ENV --backend rllib [--address ADDR] [--env-runners N] ...``."""
    from mushgym.options import parse_options

    args = build_parser().parse_args(argv)
    if args.env not in mushgym.list_envs():
        raise SystemExit(f"mushgym train: unknown env {args.env!r}; registered envs: {', '.join(mushgym.list_envs())}")
    hyper = {
        k: v
        for k, v in (
            ("train_batch_size", args.train_batch_size),
            ("minibatch_size", args.minibatch_size),
            ("num_epochs", args.num_epochs),
            ("hidden", args.hidden),
        )
        if v is not None
    }
    try:
        run = train(
            args.env,
            args.iterations,
            options=parse_options(args.option),
            env_runners=args.env_runners,
            address=args.address,
            policies=args.policies,
            league=args.league,
            snapshot_every=args.snapshot_every,
            seed=args.seed,
            run_dir=args.run_dir,
            checkpoint_every=args.checkpoint_every,
            curve_every=args.curve_every,
            curve_games=args.curve_games,
            max_minutes=args.minutes,
            progress=not args.no_progress,
            **hyper,
        )
    except (FileExistsError, ValueError) as err:
        raise SystemExit(f"mushgym train: {err}") from err
    print(
        f"saved {run['final']} (weights only: mushgym eval/play load it) and the RLlib checkpoint "
        f"{run['checkpoint']}; {run['env_steps']:,} env steps in {run['wall_seconds']:.0f} s "
        f"({run['env_steps_per_second']:,.0f}/s)"
    )
    print(f"metrics: {run['run_dir'] / 'progress.csv'}; tensorboard --logdir {run['run_dir'] / 'tb'}")
    return 0
