"""MaskablePPO training on any mushgym env and self-play (saved models as agents:
:mod:`mushgym.agents.ppo_policy`, whose names this module also offers).

    from mushgym.agents import train_ppo, tournament
    model = train_ppo("fungi_v0", steps=2_000_000, opponent="self", seed=0)   # runs/ppo_fungi_v0_self_s0/
    tournament("fungi_v0", ["random", "greedy", "runs/ppo_fungi_v0_self_s0/final.zip"], games=1000)

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard, tqdm, rich):
this module imports them; :mod:`mushgym.agents` itself does not.

The learner plays one seat of each game of a :class:`mushgym.wrappers.SingleAgentBatch`
(a random seat each episode) against opponents drawn from a pool, whose decisions
are batched across the games (one ``act_batch`` call per opponent per round):

* ``opponent="random"`` or ``"greedy"``: that baseline only;
* ``opponent="self"``: random and greedy at first, joined every
  ``snapshot_every`` steps by a frozen copy of the learner (at most
  ``max_snapshots``, the oldest leave first), so the learner ends up mostly
  playing its past selves;
* a list of names/agents (e.g. ``["random", "greedy"]``): a fixed mix.

A run writes to a fresh folder ``run_dir`` (default
``runs/ppo_<env>_<opponent>_s<seed>_<date-time>``; a given folder must be new or
empty): TensorBoard logs (``tb/``), checkpoints (``checkpoints/``, the last one
written when training stops, however short the run), ``final.zip`` with its
``final.json`` (env id, options, observation encoder: what :func:`load_policy`
needs), ``final.pt`` (the policy's weights alone, for playing: loads without unpickling), the learning curve
(``learning_curve.csv`` / ``.png``: win rates against random and greedy at
``curve_points`` points of the run) and ``timing.json`` (environment steps per
second and the split of wall time between the game, the opponents, the learner's
network during rollouts, and the PPO updates).

A run folder also holds ``train.json`` (the settings) and ``progress.json`` (the wall clock at
each checkpoint): ``train_ppo(env, resume=RUN_DIR)`` / ``mushgym train ENV --resume RUN_DIR``
continues a cut run from its latest checkpoint. ``imitation_samples=N`` starts the policy
from a teacher's games (:mod:`mushgym.agents.imitation`) before PPO.

torch runs on one thread (``torch_threads=1``): several times faster for these small
networks than torch's default of one thread per core. Under a time budget
(``max_minutes``) the progress bar fills on wall-clock time.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .factory import make_agent
from .ppo_policy import (  # noqa: F401 (saved policies: the public names of this module before they moved)
    ACTIVATIONS,
    POLICY_FORMAT,
    TRUST_HINT,
    PolicyAgent,
    export_policy,
    load_policy,
    load_trusted_policy,
    numpy_actor,
    numpy_critic,
    save_model,
    save_policy_weights,
)
from .runs import new_run_dir

try:  # the train extra
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList
    from stable_baselines3.common.vec_env import VecMonitor
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mushgym.agents.ppo needs the train extra: pip install 'mushgym[train]' (missing: {e.name})"
    ) from e

from mushgym.wrappers import OpponentPool, SingleAgentBatch
from mushgym.wrappers.sb3 import MaskableVecEnv

# Defaults settled on fungi_v0 (docs/guides/training.md says how); each game's recipe
# (mushgym.agents.recipes) changes some of them.
#: learner steps of a run that names none
DEFAULT_STEPS = 1_000_000
DEFAULTS: dict[str, Any] = dict(
    n_envs=8,
    n_steps=256,
    batch_size=512,
    n_epochs=4,
    learning_rate=3e-4,
    gamma=0.995,
    gae_lambda=0.95,
    clip_range=0.2,
    ent_coef=0.01,
    vf_coef=0.5,
    net_arch=(256, 256),
    encoder="scaled",
    snapshot_every=100_000,
    max_snapshots=10,
    checkpoint_every=100_000,
    torch_threads=1,
    imitation_samples=0,
    imitation_epochs=4,
    imitation_teacher="greedy",
)


def frozen_copy(model, name: str, seed: int = 0) -> PolicyAgent:
    """A frozen snapshot of ``model``'s current policy (sampling, not argmax)."""
    policy = copy.deepcopy(model.policy)
    policy.optimizer = None
    for p in policy.parameters():
        p.requires_grad_(False)
    return PolicyAgent(policy, model._mushgym_encoder, deterministic=False, name=name, seed=seed, frozen=True)


class _Training(BaseCallback):
    """Self-play snapshots, the wall-clock limit, and the time split between env and network."""

    def __init__(
        self,
        pool: OpponentPool | None,
        snapshot_every: int,
        envs: list[SingleAgentBatch],
        max_seconds: float | None,
        seed: int,
        checkpoint_every: int = 0,
        run_dir: Path | None = None,
        start_steps: int = 0,
        prior_seconds: float = 0.0,
        snapshots: int = 0,
    ) -> None:
        super().__init__()
        self.pool = pool
        self.snapshot_every = snapshot_every
        self.envs = envs
        self.max_seconds = max_seconds
        self.seed = seed
        self.snapshots = snapshots
        self.next_snapshot = _next_multiple(start_steps, snapshot_every)
        self.checkpoint_every = checkpoint_every
        self.next_checkpoint = _next_multiple(start_steps, checkpoint_every)
        self.run_dir = run_dir
        self.prior_seconds = prior_seconds  # wall clock of the run before a resume
        self.t_rollout = 0.0
        self.t_train = 0.0
        self._t0 = None
        self._mark = None

    def _on_training_start(self) -> None:
        self._t0 = time.perf_counter()
        self._mark = self._t0
        # time spent before training (the first deal, which may compile kernels) is not counted
        self._env0 = sum(e.timers["env"] for e in self.envs)
        self._opp0 = sum(e.timers["opponents"] for e in self.envs)

    def _game_times(self) -> tuple[float, float]:
        """Seconds in the game and in the opponents since training started."""
        return (
            sum(e.timers["env"] for e in self.envs) - getattr(self, "_env0", 0.0),
            sum(e.timers["opponents"] for e in self.envs) - getattr(self, "_opp0", 0.0),
        )

    def _on_rollout_start(self) -> None:
        now = time.perf_counter()
        if self._mark is not None and self.num_timesteps > 0:
            self.t_train += now - self._mark
        self._mark = now

    def _on_rollout_end(self) -> None:
        now = time.perf_counter()
        self.t_rollout += now - self._mark
        self._mark = now
        env_t, opp_t = self._game_times()
        total = now - self._t0
        self.logger.record("time/env_share", env_t / max(total, 1e-9))
        self.logger.record("time/opponents_share", opp_t / max(total, 1e-9))
        self.logger.record("time/steps_per_second", self.num_timesteps / max(total, 1e-9))
        if self.pool is not None:
            self.logger.record("selfplay/snapshots", self.snapshots)

    def _on_step(self) -> bool:
        if self.pool is not None and self.snapshot_every and self.num_timesteps >= self.next_snapshot:
            self.snapshots += 1
            self.pool.add(
                frozen_copy(
                    self.model, f"snapshot{self.snapshots}@{self.num_timesteps}", seed=self.seed + self.snapshots
                )
            )
            self.next_snapshot += self.snapshot_every
        if self.checkpoint_every and self.num_timesteps >= self.next_checkpoint:
            self.checkpoint()
            self.next_checkpoint += self.checkpoint_every
        if self.max_seconds is not None and time.perf_counter() - self._t0 > self.max_seconds:
            return False
        return True

    def checkpoint(self) -> Path:
        """Save ``checkpoints/ppo_<steps>_steps.zip`` and record in ``progress.json`` the run's
        wall clock at that point (what a resumed run's time budget continues from)."""
        return save_checkpoint(
            self.model, self.run_dir, self.prior_seconds + time.perf_counter() - self._t0, self.snapshots
        )

    def summary(self) -> dict[str, float]:
        total = time.perf_counter() - self._t0
        env_t, opp_t = self._game_times()
        learner_steps = sum(e.counts["learner_steps"] for e in self.envs)
        opp_steps = sum(e.counts["opponent_steps"] for e in self.envs)
        net_rollout = max(self.t_rollout - env_t - opp_t, 0.0)
        return {
            "wall_seconds": total,
            "wall_seconds_before": self.prior_seconds,  # the imitation warm start, or the run before a resume
            "learner_steps": learner_steps,
            "opponent_steps": opp_steps,
            "episodes": sum(e.counts["episodes"] for e in self.envs),
            "learner_steps_per_second": learner_steps / total,
            "game_steps_per_second": (learner_steps + opp_steps) / total,
            "seconds_env": env_t,
            "seconds_opponents": opp_t,
            "seconds_rollout_network_and_sb3": net_rollout,
            "seconds_ppo_update": self.t_train,
            "share_env": env_t / total,
            "share_opponents": opp_t / total,
            "share_rollout_network_and_sb3": net_rollout / total,
            "share_ppo_update": self.t_train / total,
        }


def save_checkpoint(model, run_dir: Path, seconds: float, snapshots: int = 0) -> Path:
    """``run_dir/checkpoints/ppo_<steps>_steps.zip``, and its wall clock (``seconds`` into the run)
    and self-play snapshot count in ``run_dir/progress.json`` (what ``resume`` reads)."""
    steps = int(model.num_timesteps)
    path = run_dir / "checkpoints" / f"ppo_{steps}_steps.zip"
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    progress_path = run_dir / "progress.json"
    progress = json.loads(progress_path.read_text()) if progress_path.exists() else {"checkpoints": {}}
    progress["checkpoints"][str(steps)] = {"seconds": seconds, "snapshots": snapshots}
    tmp = progress_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(progress, indent=2))
    tmp.replace(progress_path)  # whole or not at all, even if the run is cut here
    return path


def _next_multiple(n: int, every: int) -> int:
    """The first multiple of ``every`` above ``n`` (``every`` 0: never)."""
    return (n // every + 1) * every if every else 0


def _opponent_pool(
    opponent: Any, env_id: str, seed: int, max_snapshots: int, trust_models: bool = False, options: dict | None = None
) -> tuple[OpponentPool, bool]:
    import functools

    build = functools.partial(make_agent, options=options)  # "pretrained" is the network of these options
    if isinstance(opponent, OpponentPool):
        return opponent, False
    if opponent == "self":
        return OpponentPool(["random", "greedy"], env_id=env_id, max_size=max_snapshots, build=build), True
    specs = opponent.split("+") if isinstance(opponent, str) else list(opponent)
    if trust_models:  # model paths loaded here, trusted (SB3 archives are unpickled)
        specs = [
            build(s, env_id=env_id, trust=True) if isinstance(s, str) and s not in ("random", "greedy") else s
            for s in specs
        ]
    return OpponentPool(specs, env_id=env_id, build=build), False


def train_ppo(
    env_id: str,
    steps: int | None = None,
    opponent: Any = None,
    seed: int = 0,
    run_dir: str | Path | None = None,
    options: dict[str, Any] | None = None,
    max_minutes: float | None = None,
    progress_bar: bool = True,
    tensorboard: bool = True,
    verbose: int = 0,
    seat: int | None = None,
    curve_points: int = 10,
    curve_games: int = 100,
    trust_models: bool = False,
    resume: str | Path | None = None,
    trust_resume: bool = False,
    **hyper: Any,
):
    """Train sb3-contrib's MaskablePPO on ``env_id`` against ``opponent`` and return the model.

    ``opponent`` and the hyper-parameters not given come from the game's recipe
    (:func:`mushgym.agents.recipes.recipe`: self-play for Fungi; a warm start from greedy's
    decisions, then PPO against greedy, for the board games), over ``DEFAULTS``.
    ``steps`` counts the learner's decisions (environment steps as SB3 counts them);
    ``max_minutes`` stops earlier on the wall clock. Hyper-parameters (see
    ``DEFAULTS``): ``n_envs, n_steps, batch_size, n_epochs, learning_rate, gamma,
    gae_lambda, clip_range, ent_coef, vf_coef, net_arch, encoder, snapshot_every,
    max_snapshots, checkpoint_every, torch_threads, imitation_samples, imitation_epochs,
    imitation_teacher``. The final model is saved as
    ``run_dir/final.zip``; ``model.mushgym_run_dir`` and ``model.mushgym_timing``
    tell where and how fast. ``curve_points`` evaluations of ``curve_games`` games
    against each of random and greedy make the learning curve (0: none).

    ``resume=RUN_DIR`` continues a run that was cut (or stopped by its budget) from its
    latest checkpoint, with the settings saved in ``RUN_DIR/train.json`` (the arguments
    given here, but for ``env_id``, which must match, ``progress_bar``, and ``steps`` and
    ``max_minutes`` when given, which raise or lower the run's budget, are ignored):
    the step count and the wall clock go on from the checkpoint (``progress.json``), so
    ``steps`` and ``max_minutes`` stay totals of the whole run, and self-play's pool is
    refilled with the snapshots the run had (the checkpoints at multiples of
    ``snapshot_every``). The in-training learning curve is not continued
    (``mushgym.agents.curve`` can draw one from the checkpoints).
    """
    resumed = _load_resumed(resume, trust_resume, env_id)
    budget_changed = False
    if resumed is not None:
        saved = resumed["settings"]
        # the budget may be raised on a resume (steps and minutes are the whole run's totals)
        budget_changed = (steps is not None and steps != saved["steps"]) or (
            max_minutes is not None and max_minutes != saved["max_minutes"]
        )
        steps = saved["steps"] if steps is None else steps
        max_minutes = saved["max_minutes"] if max_minutes is None else max_minutes
        opponent, seed, options = saved["opponent"], saved["seed"], saved["options"]
        seat, trust_models, hyper = saved["seat"], saved["trust_models"], saved["hyper"]
        curve_points = 0
    steps = DEFAULT_STEPS if steps is None else steps
    _check_arguments(steps, max_minutes, hyper)
    import mushgym

    game = mushgym.game(env_id, **(options or {}))
    hp = dict(DEFAULTS)
    if resumed is None:  # a resumed run has every setting saved
        from .recipes import recipe

        chosen = recipe(game.env_id, options, game.num_players)
        opponent = chosen["opponent"] if opponent is None else opponent
        hp.update(chosen["hyper"])
    hp.update(hyper)
    opp_name = opponent if isinstance(opponent, str) else "pool"
    if resumed is None:
        run_dir = new_run_dir("ppo", f"{env_id}_{opp_name.replace('+', '-')}_s{seed}", run_dir)
        _write_settings(run_dir, env_id, steps, opponent, seed, options, max_minutes, seat, trust_models, hp)
    else:
        run_dir = Path(resume)
        if budget_changed:  # a later resume keeps the new totals
            _write_settings(run_dir, env_id, steps, opponent, seed, options, max_minutes, seat, trust_models, hyper)
    start_steps = resumed["steps"] if resumed else 0
    prior_seconds = resumed["seconds"] if resumed else 0.0
    torch.set_num_threads(int(hp["torch_threads"]))
    torch.manual_seed(seed + start_steps)
    pool, selfplay = _opponent_pool(opponent, game.env_id, seed, hp["max_snapshots"], trust_models, game.options)
    envs, vec = _training_envs(game, hp, pool, seat, seed + start_steps)
    model = _make_model(vec, hp, seed, verbose, str(run_dir / "tb") if tensorboard else None, resumed)
    model._mushgym_encoder = envs[0].encoder
    if resumed is None and hp["imitation_samples"]:
        prior_seconds = _imitate(model, game, hp, seed, run_dir, max_minutes)
    snapshots = 0
    if resumed is not None and selfplay:
        snapshots = _refill_snapshots(pool, run_dir, start_steps, hp, seed, model._mushgym_encoder)
    max_seconds = None if max_minutes is None else max(60.0 * max_minutes - prior_seconds, 0.0)
    training = _Training(
        pool if selfplay else None,
        hp["snapshot_every"],
        envs,
        max_seconds,
        seed,
        checkpoint_every=hp["checkpoint_every"],
        run_dir=run_dir,
        start_steps=start_steps,
        prior_seconds=prior_seconds,
        snapshots=snapshots,
    )
    callbacks, sb3_bar = _callbacks(
        training,
        game,
        envs[0].encoder,
        run_dir,
        steps,
        seed,
        max_minutes,
        max_seconds,
        curve_points,
        curve_games,
        progress_bar,
    )
    meta = {"env_id": game.env_id, "encoder": hp["encoder"], "options": dict(options or {})}
    (run_dir / "final.json").write_text(json.dumps(meta, indent=2))  # lets checkpoints load too
    model.learn(
        total_timesteps=max(int(steps) - start_steps, 0),
        callback=CallbackList(callbacks),
        progress_bar=sb3_bar,
        tb_log_name="ppo",
        reset_num_timesteps=resumed is None,
    )
    timing = _save_final(model, training, run_dir, game, hp, options, opp_name, seed, prior_seconds)
    model.mushgym_run_dir = run_dir
    model.mushgym_timing = timing
    return model


def _load_resumed(resume: str | Path | None, trust_resume: bool, env_id: str) -> dict | None:
    """The run to continue (:func:`_resume_state`), None without ``resume``; refused unless
    ``trust_resume`` (its checkpoints are unpickled)."""
    if resume is not None and not trust_resume:
        raise ValueError(
            f"resume={str(resume)!r}: a run's checkpoints are SB3 archives, unpickled when loaded "
            "(unpickling runs any code the file holds); pass trust_resume=True (mushgym train "
            "--resume RUN_DIR --trust-run) for a run folder you made yourself"
        )
    return _resume_state(resume, env_id) if resume is not None else None


def _check_arguments(steps: Any, max_minutes: Any, hyper: dict) -> None:
    """Raise on an unknown hyper-parameter (TypeError), a step count that is not a positive
    integer or a time budget that is not a positive number or None (ValueError)."""
    unknown = set(hyper) - set(DEFAULTS)
    if unknown:
        raise TypeError(f"train_ppo: unknown hyper-parameter(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"train_ppo: steps must be a positive integer, got {steps!r}")
    if max_minutes is not None and not (isinstance(max_minutes, (int, float)) and max_minutes > 0):
        raise ValueError(f"train_ppo: max_minutes must be a positive number or None, got {max_minutes!r}")


def _training_envs(
    game, hp: dict, pool: OpponentPool, seat: int | None, seed: int
) -> tuple[list[SingleAgentBatch], VecMonitor]:
    """The learner's games, all ``n_envs`` in one batch (the opponents answer with one
    ``act_batch`` call per round), and the monitored vector env SB3 trains on, both dealt
    from ``seed`` (a resumed run deals new games: the seed moves on with the step count)."""
    games = SingleAgentBatch(game, hp["n_envs"], opponents=pool, seat=seat, encoder=hp["encoder"], seed=seed)
    vec = VecMonitor(MaskableVecEnv(games))
    vec.seed(seed)
    return [games], vec


def _make_model(vec: VecMonitor, hp: dict, seed: int, verbose: int, tb_log: str | None, resumed: dict | None):
    """A new MaskablePPO on ``vec`` with the hyper-parameters ``hp``, or the one of the resumed
    run's checkpoint: a pickle, which :func:`_load_resumed` lets through only with
    ``trust_resume=True``."""
    if resumed is None:
        return MaskablePPO(
            "MlpPolicy",
            vec,
            n_steps=hp["n_steps"],
            batch_size=hp["batch_size"],
            n_epochs=hp["n_epochs"],
            learning_rate=hp["learning_rate"],
            gamma=hp["gamma"],
            gae_lambda=hp["gae_lambda"],
            clip_range=hp["clip_range"],
            ent_coef=hp["ent_coef"],
            vf_coef=hp["vf_coef"],
            policy_kwargs={"net_arch": list(hp["net_arch"])},
            seed=seed,
            device="cpu",
            verbose=verbose,
            tensorboard_log=tb_log,
        )
    return MaskablePPO.load(resumed["checkpoint"], env=vec, device="cpu", tensorboard_log=tb_log)


def _callbacks(
    training: _Training,
    game,
    encoder,
    run_dir: Path,
    steps: int,
    seed: int,
    max_minutes: float | None,
    max_seconds: float | None,
    curve_points: int,
    curve_games: int,
    progress_bar: bool,
) -> tuple[list[BaseCallback], bool]:
    """The callbacks of ``model.learn`` (``training``, the learning curve, a wall-clock progress
    bar under a time budget) and whether SB3 shows its own step-count progress bar."""
    callbacks = [training]
    if curve_points and curve_games:
        from .curve import LearningCurve

        # evenly spaced in time under a time budget, else in steps (the last point comes at the end)
        callbacks.append(
            LearningCurve(
                game,
                encoder,
                run_dir / "learning_curve.csv",
                games=curve_games,
                every_steps=None if max_minutes else max(int(steps) // curve_points, 1),
                every_seconds=60.0 * max_minutes / curve_points if max_minutes else None,
                seed=seed + 100_000,
            )
        )
    sb3_bar = progress_bar
    if progress_bar and max_seconds is not None:
        from .progress import TimeProgressBar

        callbacks.append(TimeProgressBar(max_seconds))
        sb3_bar = False
    return callbacks, sb3_bar


def _save_final(
    model, training: _Training, run_dir: Path, game, hp: dict, options, opp_name: str, seed: int, prior_seconds: float
) -> dict[str, float]:
    """``final.zip`` (with ``final.json``), the last checkpoint, ``final.pt`` and ``timing.json``
    of a finished run; returns the timing."""
    timing = training.summary()
    timing["steps_trained"] = int(model.num_timesteps)
    hp_out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in hp.items()}
    final = save_model(
        model,
        run_dir / "final.zip",
        game.env_id,
        hp["encoder"],
        options,
        extra={
            "opponent": opp_name,
            "seed": seed,
            "steps": int(model.num_timesteps),
            "hyper": hp_out,
            "wall_seconds": prior_seconds + timing["wall_seconds"],
        },
    )
    if hp["checkpoint_every"]:  # the last checkpoint, also on runs shorter than checkpoint_every
        if not (run_dir / "checkpoints" / f"ppo_{int(model.num_timesteps)}_steps.zip").exists():
            training.checkpoint()
    # the policy alone, weights only (safe to load); final.json gains its architecture and serves both files
    save_policy_weights(
        model.policy, run_dir / "final.pt", json.loads(final.with_suffix(".json").read_text()), hp["encoder"]
    )
    (run_dir / "timing.json").write_text(json.dumps(timing, indent=2))
    return timing


def _imitate(model, game, hp: dict, seed: int, run_dir: Path, max_minutes: float | None) -> float:
    """The imitation warm start (``imitation_samples`` > 0): the teacher's games, the policy and
    value fitted to them (:mod:`mushgym.agents.imitation`), ``imitation.json`` and a checkpoint
    at step 0. At most half of a time budget goes to the teacher's games. Returns its seconds."""
    from .imitation import collect_teacher_games, pretrain

    t0 = time.perf_counter()
    teacher = make_agent(hp["imitation_teacher"], env_id=game.env_id, seed=seed, options=game.options)
    budget = None if max_minutes is None else 30.0 * max_minutes
    data = collect_teacher_games(
        game, teacher, model._mushgym_encoder, int(hp["imitation_samples"]), seed=seed + 7_000_000, max_seconds=budget
    )
    collect_seconds = time.perf_counter() - t0
    if len(data["actions"]) < 10:  # no teacher game finished within the time allowed: PPO alone
        import warnings

        warnings.warn(
            f"imitation skipped: {int(data['games'])} of the teacher's games finished in {collect_seconds:.0f}s",
            stacklevel=2,
        )
        (run_dir / "imitation.json").write_text(
            json.dumps({"skipped": True, "games": int(data["games"]), "collect_seconds": collect_seconds}, indent=2)
        )
        return collect_seconds
    report = pretrain(
        model.policy,
        data,
        epochs=int(hp["imitation_epochs"]),
        seed=seed,
        max_seconds=None if budget is None else max(budget - collect_seconds, 1.0),
    )
    report.update(teacher=str(hp["imitation_teacher"]), games=int(data["games"]), collect_seconds=collect_seconds)
    (run_dir / "imitation.json").write_text(json.dumps(report, indent=2))
    seconds = time.perf_counter() - t0
    save_checkpoint(model, run_dir, seconds)
    return seconds


def _write_settings(
    run_dir: Path,
    env_id: str,
    steps: int,
    opponent: Any,
    seed: int,
    options,
    max_minutes,
    seat,
    trust_models: bool,
    hp: dict,
) -> None:
    """``train.json``: what :func:`train_ppo` needs to resume the run (when the settings are plain data)."""
    settings = {
        "env_id": env_id,
        "steps": int(steps),
        "opponent": opponent,
        "seed": seed,
        "options": dict(options or {}),
        "max_minutes": max_minutes,
        "seat": seat,
        "trust_models": trust_models,
        "hyper": {k: (list(v) if isinstance(v, tuple) else v) for k, v in hp.items()},
    }
    try:
        text = json.dumps(settings, indent=2)
    except TypeError:  # an opponent pool of agent objects or an encoder object: not resumable
        return
    (run_dir / "train.json").write_text(text)


def _resume_state(resume: str | Path, env_id: str) -> dict:
    """The settings, latest checkpoint, its step count and wall clock of the run in ``resume``."""
    import re

    run_dir = Path(resume)
    settings_path = run_dir / "train.json"
    if not settings_path.exists():
        raise ValueError(
            f"cannot resume {run_dir}: no train.json (not a train_ppo run folder, or its "
            f"opponents/encoder were objects, which are not saved)"
        )
    settings = json.loads(settings_path.read_text())
    if settings["env_id"] != env_id:
        raise ValueError(f"cannot resume {run_dir} on {env_id}: it trains {settings['env_id']}")
    progress_path = run_dir / "progress.json"
    done = json.loads(progress_path.read_text())["checkpoints"] if progress_path.exists() else {}
    ckpts = {
        int(m.group(1)): p
        for p in (run_dir / "checkpoints").glob("ppo_*_steps.zip")
        if (m := re.fullmatch(r"ppo_(\d+)_steps\.zip", p.name)) and m.group(1) in done
    }
    if not ckpts:
        raise ValueError(f"cannot resume {run_dir}: no checkpoint recorded in its progress.json")
    steps = max(ckpts)
    return {
        "settings": settings,
        "checkpoint": ckpts[steps],
        "steps": steps,
        "seconds": float(done[str(steps)]["seconds"]),
        "snapshots": int(done[str(steps)]["snapshots"]),
    }


def _refill_snapshots(pool: OpponentPool, run_dir: Path, steps: int, hp: dict, seed: int, encoder) -> int:
    """Put back into ``pool`` the self-play snapshots a run had at ``steps`` (from its checkpoints at
    multiples of ``snapshot_every``; the last ``max_snapshots``); returns how many snapshots it had taken."""
    every = hp["snapshot_every"]
    if not every:
        return 0
    taken = steps // every
    for k in range(max(taken - hp["max_snapshots"], 0) + 1, taken + 1):
        ckpt = run_dir / "checkpoints" / f"ppo_{k * every}_steps.zip"
        if ckpt.exists():
            policy = load_trusted_policy(ckpt)
            for prm in policy.parameters():
                prm.requires_grad_(False)
            pool.add(
                PolicyAgent(
                    policy, encoder, deterministic=False, name=f"snapshot{k}@{k * every}", seed=seed + k, frozen=True
                )
            )
    return taken


def build_train_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = parser or argparse.ArgumentParser(prog="mushgym train", description="Train MaskablePPO on a mushgym env.")
    p.add_argument("env", help="env id, e.g. fungi_v0")
    p.add_argument(
        "--backend",
        choices=["sb3", "rllib"],
        default="sb3",
        help="sb3: MaskablePPO in this process (default; these options); rllib: self-play PPO on Ray "
        "RLlib, local or on a cluster (`mushgym train ENV --backend rllib -h` lists its options)",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=None,
        help="learner steps (default 1,000,000; with --resume: the run's new total, default its own)",
    )
    p.add_argument(
        "--opponent",
        default=None,
        help="random, greedy, pretrained, self (self-play with random and greedy in the pool), or a "
        "mix such as random+greedy (default: the game's recipe: self for Fungi, greedy after a warm start "
        "from greedy's decisions for the board games; docs/guides/training.md)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--run-dir",
        default=None,
        help="output folder, new or empty (default: a new runs/ppo_<env>_<opponent>_s<seed>_<date-time>)",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop after this many minutes of wall clock (the progress bar then counts time)",
    )
    p.add_argument("--n-envs", type=int, default=None)
    p.add_argument("--encoder", choices=["flat", "scaled", "onehot"], default=None)
    p.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a train_ppo hyper-parameter (repeatable; over the game's recipe), e.g. ent_coef=0.02, "
        "n_steps=512, net_arch=512,512; names: " + ", ".join(sorted(DEFAULTS)),
    )
    p.add_argument(
        "--trust-run",
        action="store_true",
        help="with --resume: the run folder is yours (its SB3 checkpoints are unpickled)",
    )
    p.add_argument(
        "--resume",
        default=None,
        metavar="RUN_DIR",
        help="continue the cut run in RUN_DIR from its latest checkpoint, with its saved settings "
        "(its train.json; the other training options are ignored but --steps and --minutes, the "
        "whole run's totals, which may raise its budget)",
    )
    p.add_argument(
        "--option", "--opt", action="append", default=[], metavar="NAME=VALUE", help="game option (repeatable)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--trust-model",
        action="store_true",
        help="allow opponents given as SB3 .zip archives: they are unpickled, which runs any code "
        "inside them (weights-only .pt files load safely without this)",
    )
    p.add_argument(
        "--eval-games",
        type=int,
        default=200,
        help="after training, games per pair in a round robin of the model, random and greedy (default 200; 0: none)",
    )
    p.add_argument("--curve-points", type=int, default=10, help="points on the learning curve (default 10; 0: none)")
    p.add_argument(
        "--curve-games",
        type=int,
        default=100,
        help="games against each of random and greedy per learning-curve point (default 100)",
    )
    return p


def parse_hyper(item: str) -> tuple[str, Any]:
    """``NAME=VALUE`` -> (name, value) for ``--hyper``, typed like ``DEFAULTS[name]`` (:mod:`.hyper`)."""
    from .hyper import parse_hyper as parse

    return parse(item, DEFAULTS, "mushgym train")


def train_main(argv: Sequence[str] | None = None) -> int:
    """``mushgym train ENV --steps N [--opponent random|greedy|self] [--seed S] ...``."""
    from mushgym.options import parse_options

    from .evaluate import tournament

    args = build_train_parser().parse_args(argv)
    hyper = {}
    if args.n_envs is not None:
        hyper["n_envs"] = args.n_envs
    if args.encoder is not None:
        hyper["encoder"] = args.encoder
    for item in args.hyper:
        name, value = parse_hyper(item)
        hyper[name] = value
    options = parse_options(args.option)
    import mushgym

    if args.env not in mushgym.list_envs():
        raise SystemExit(f"mushgym train: unknown env {args.env!r}; registered envs: {', '.join(mushgym.list_envs())}")
    if args.resume is None:
        from .recipes import recipe

        chosen = recipe(args.env, options)
        print(
            f"mushgym train {args.env}: {chosen['note']}; opponent {args.opponent or chosen['opponent']}; "
            f"hyper-parameters {dict(chosen['hyper'], **hyper) or 'the defaults'}",
            flush=True,
        )
    try:
        model = train_ppo(
            args.env,
            steps=args.steps,
            opponent=args.opponent,
            seed=args.seed,
            run_dir=args.run_dir,
            options=options,
            max_minutes=args.minutes,
            progress_bar=not args.no_progress,
            curve_points=args.curve_points,
            curve_games=args.curve_games,
            trust_models=args.trust_model,
            resume=args.resume,
            trust_resume=args.trust_run,
            **hyper,
        )
    except (FileExistsError, ValueError) as err:
        raise SystemExit(f"mushgym train: {err}") from err
    final = model.mushgym_run_dir / "final.zip"
    options = json.loads(final.with_suffix(".json").read_text())["options"]  # a resumed run's own
    t = model.mushgym_timing
    print(
        f"saved {final}  ({t['steps_trained']:,} steps in {t['wall_seconds']:.0f}s, "
        f"{t['learner_steps_per_second']:,.0f} learner steps/s; env {t['share_env']:.0%}, "
        f"opponents {t['share_opponents']:.0%}, network+sb3 in rollouts {t['share_rollout_network_and_sb3']:.0%}, "
        f"PPO updates {t['share_ppo_update']:.0%})"
    )
    print(f"tensorboard --logdir {model.mushgym_run_dir / 'tb'}")
    curve = model.mushgym_run_dir / "learning_curve.png"
    if curve.exists():
        print(f"learning curve: {curve} (and .csv)")
    if args.eval_games:
        result = tournament(
            args.env,
            {"random": "random", "greedy": "greedy", "ppo": str(final.with_suffix(".pt"))},
            games=args.eval_games,
            seed=args.seed + 10_000,
            options=options,
            csv_path=model.mushgym_run_dir / "eval.csv",
        )
        (model.mushgym_run_dir / "eval_table.txt").write_text(result.table())
    return 0


if __name__ == "__main__":
    raise SystemExit(train_main())
