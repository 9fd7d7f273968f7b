"""Expert iteration: a policy/value network distilled from search, on one machine or on Ray.

    from mushgym.agents.expert import train_expert
    run = train_expert("fungi_v0", minutes=60, seed=0)        # runs/expert_fungi_v0_s0_<date-time>/
    mushgym train fungi_v0 --algo expert --minutes 60
    mushgym train fungi_v0 --algo expert --minutes 60 --actors 2          # self-play on a local Ray
    mushgym train fungi_v0 --algo expert --address ray://head:10001 --actors 16

Expert iteration (Anthony, Tian and Barber 2017; AlphaZero, Silver et al. 2018) on a CPU:
self-play games are played by a search (:mod:`mushgym.agents.selfplay`), and the network is
trained on the search's choices: the cross-entropy of its masked policy against the root's
visit distribution, and the squared error of its value against the mover's return. On these
games the compiled search is cheap (Fungi: about 100 decisions/s at 400 simulations with the
game's greedy rollouts on one core) while a PPO sample teaches one sampled move: each position
here teaches the whole distribution of a search.

The expert (``expert=``):

* ``"mcts"``: information-set MCTS with the game's compiled rollouts (``mcts:SIMS``).
* ``"puct"``: PUCT with the latest network snapshot as prior and leaf value, from the start.
* ``"auto"`` (default): MCTS while the network is young, then PUCT with its snapshots once the
  network alone wins ``puct_from`` (default 0.75) of a learning-curve point's games against
  greedy. Every ``snapshot_every`` updates the expert's network is replaced by the learner's.

``imitation_samples=N`` first fits the network to N decisions of a teacher's games
(``imitation_teacher``, default greedy; ``imitation_epochs`` passes over them, default 4;
:mod:`mushgym.agents.imitation`), within the time
budget: a warm start for the games whose rollouts are too long for MCTS to be a cheap expert.
``imitation_mix=F`` keeps those decisions: a share F of every later batch is drawn from them.

``init_model=PATH`` starts the network from a saved model of the same game, options, encoder
and layer sizes (a PPO model of ``mushgym train``, or an earlier run's ``final.pt``) instead
of from random weights; its first learning-curve point is played before any update.

``opponent="greedy"`` (any agent name) gives half of each self-play game's seats to that
fixed agent; only the expert's moves become samples. ``policy_target="best"`` trains the
policy on the most visited move instead of the visit distribution.

Hidden information stays hidden: every search redraws what its player cannot see (the game's
determinizer), and the network is fed the mover's observation only.

A run writes to a fresh folder (default ``runs/expert_<env>_s<seed>_<date-time>``):
``train.json`` (the settings), TensorBoard logs (``tb/``), ``checkpoints/`` (weights only: the
network, the optimizer and the replay buffer, every ``checkpoint_minutes``), ``progress.json``,
the learning curve (``learning_curve.csv`` / ``.png``: the network alone against greedy and
against ``mcts:1000``), ``final.pt`` with ``final.json`` (loads as any weights-only model:
``mushgym eval``, ``puct:SIMS:final.pt``, ``make_agent``), ``timing.json`` (positions/s, updates/s
and the shares of time in search, network, learner and evaluation) and ``eval.csv``.
``resume=RUN_DIR`` continues a cut run from its last checkpoint (nothing is unpickled).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

try:  # the train extra
    import torch
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mushgym.agents.expert needs the train extra: pip install 'mushgym[train]' (missing: {e.name})"
    ) from e

from .runs import new_run_dir

EXPERTS = ("auto", "mcts", "puct")
POLICY_TARGETS = ("visits", "best")
LR_SCHEDULES = ("constant", "cosine")
DEFAULTS: dict[str, Any] = dict(
    expert="auto",
    simulations=400,  # per move, MCTS with the game's rollouts
    puct_simulations=200,  # per move, PUCT with the network
    puct_from=0.75,  # auto: PUCT once the network alone wins this share against greedy
    games=64,  # self-play games in lockstep (per actor)
    threads=2,  # search threads of the local self-play (root-parallel trees)
    explore_moves=10,  # decisions per game drawn from the visit distribution
    opponent="",  # "": every seat is the expert's; an agent name (e.g. "greedy"): it plays half the seats
    policy_target="visits",  # what the policy learns: the root's visit distribution, or "best": its most visited move
    batch=8,  # PUCT leaves per tree per network call
    net_arch=(256, 256),
    encoder="scaled",
    learning_rate=1e-3,
    lr_schedule="cosine",  # over the run's wall-clock budget: from learning_rate down to final_learning_rate
    final_learning_rate=1e-4,
    batch_size=256,
    reuse=4.0,  # gradient samples per self-play position
    value_weight=1.0,
    buffer_size=200_000,
    chunk=1024,  # positions per self-play round (per actor)
    snapshot_every=200,  # updates between network snapshots handed to the expert
    checkpoint_minutes=5.0,
    imitation_samples=0,  # decisions of the teacher's games to imitate before self-play (0: none)
    imitation_epochs=4,  # passes over the teacher's decisions
    imitation_teacher="greedy",
    imitation_learning_rate=0.0,  # the warm start's learning rate (0: learning_rate)
    imitation_mix=0.0,  # share of every self-play batch drawn from the warm start's decisions (0 <= mix < 1)
    init_model="",  # a saved model (weights-only .pt with its .json) to start from, e.g. a PPO model
    curve_points=6,
    curve_games=100,  # network alone vs greedy per curve point
    curve_mcts_games=20,  # network alone vs mcts:1000 per curve point (0: none)
    torch_threads=1,
)


def check_hyper(hyper: dict) -> dict:
    """The defaults updated with ``hyper``; an unknown name is a TypeError, a bad value a ValueError."""
    unknown = set(hyper) - set(DEFAULTS)
    if unknown:
        raise TypeError(f"train_expert: unknown hyper-parameter(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    hp = dict(DEFAULTS)
    hp.update(hyper)
    if hp["expert"] not in EXPERTS:
        raise ValueError(f"train_expert: unknown expert {hp['expert']!r}; choices: {list(EXPERTS)}")
    for name in (
        "simulations",
        "puct_simulations",
        "games",
        "threads",
        "batch",
        "batch_size",
        "buffer_size",
        "chunk",
        "snapshot_every",
        "imitation_epochs",
    ):
        v = hp[name]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"train_expert: {name} must be a positive integer, got {v!r}")
    for name in ("explore_moves", "curve_points", "curve_games", "curve_mcts_games", "imitation_samples"):
        v = hp[name]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"train_expert: {name} must be an integer >= 0, got {v!r}")
    if hp["policy_target"] not in POLICY_TARGETS:
        raise ValueError(
            f"train_expert: unknown policy_target {hp['policy_target']!r}; choices: {list(POLICY_TARGETS)}"
        )
    if not isinstance(hp["init_model"], str):
        raise ValueError(
            f"train_expert: init_model must be the path of a saved model (or '' for none), got {hp['init_model']!r}"
        )
    if hp["init_model"] and not Path(hp["init_model"]).exists():
        raise ValueError(f"train_expert: init_model {hp['init_model']!r}: no such file")
    if not isinstance(hp["opponent"], str):
        raise ValueError(
            f"train_expert: opponent must be an agent name such as 'greedy' (or '' for none), got {hp['opponent']!r}"
        )
    mix = hp["imitation_mix"]
    if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 <= mix < 1.0:
        raise ValueError(f"train_expert: imitation_mix must be a number in [0, 1), got {mix!r}")
    if mix > 0 and not hp["imitation_samples"]:
        raise ValueError("train_expert: imitation_mix needs a warm start to mix in (imitation_samples > 0)")
    ilr = hp["imitation_learning_rate"]
    if isinstance(ilr, bool) or not isinstance(ilr, (int, float)) or not np.isfinite(ilr) or ilr < 0:
        raise ValueError(f"train_expert: imitation_learning_rate must be a number >= 0 (0: learning_rate), got {ilr!r}")
    if hp["lr_schedule"] not in LR_SCHEDULES:
        raise ValueError(f"train_expert: unknown lr_schedule {hp['lr_schedule']!r}; choices: {list(LR_SCHEDULES)}")
    for name in ("learning_rate", "final_learning_rate", "reuse", "checkpoint_minutes"):
        v = hp[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v <= 0:
            raise ValueError(f"train_expert: {name} must be a positive number, got {v!r}")
    if not (0.0 <= float(hp["puct_from"]) <= 1.0) or not (0.0 <= float(hp["value_weight"])):
        raise ValueError(
            f"train_expert: puct_from must be in [0, 1] and value_weight >= 0, "
            f"got {hp['puct_from']!r} and {hp['value_weight']!r}"
        )
    hp["net_arch"] = tuple(int(n) for n in hp["net_arch"])
    return hp


def train_expert(
    env_id: str,
    minutes: float = 60.0,
    seed: int = 0,
    options: dict | None = None,
    run_dir: str | Path | None = None,
    actors: int = 0,
    address: str | None = None,
    progress_bar: bool = True,
    tensorboard: bool = True,
    resume: str | Path | None = None,
    **hyper: Any,
) -> dict:
    """Train a network by expert iteration on ``env_id`` for ``minutes`` of wall clock (module
    docstring). ``actors`` > 0: self-play in that many Ray actors (on a local Ray, or the cluster
    at ``address``), the learner here. Returns the run's summary (``run_dir``, ``final``, timing)."""
    import mushgym

    from .expert_loop import ExpertRun

    if resume is not None:
        run_dir = Path(resume)
        settings = _read_settings(run_dir, env_id)
        minutes, seed, options, actors, hyper = (
            settings["minutes"],
            settings["seed"],
            settings["options"],
            settings["actors"],
            settings["hyper"],
        )
        address = address or settings.get("address")
    if env_id not in mushgym.list_envs():
        raise ValueError(f"unknown env {env_id!r}; registered envs: {', '.join(mushgym.list_envs())}")
    if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not minutes > 0:
        raise ValueError(f"train_expert: minutes must be a positive number, got {minutes!r}")
    if isinstance(actors, bool) or not isinstance(actors, int) or actors < 0:
        raise ValueError(f"train_expert: actors must be an integer >= 0 (0: self-play in this process), got {actors!r}")
    hp = check_hyper(hyper)
    game = mushgym.game(env_id, **(options or {}))
    if resume is None:
        run_dir = new_run_dir("expert", f"{env_id}_s{seed}", run_dir)
        settings = {
            "env_id": env_id,
            "minutes": float(minutes),
            "seed": int(seed),
            "options": dict(options or {}),
            "actors": int(actors),
            "address": address,
            "hyper": {k: (list(v) if isinstance(v, tuple) else v) for k, v in hp.items()},
        }
        (Path(run_dir) / "train.json").write_text(json.dumps(settings, indent=2))
    torch.set_num_threads(int(hp["torch_threads"]))
    run = ExpertRun(
        game,
        Path(run_dir),
        hp,
        float(minutes),
        int(seed),
        actors=actors,
        address=address,
        progress_bar=progress_bar,
        tensorboard=tensorboard,
        resume=resume is not None,
    )
    return run.train()


def _read_settings(run_dir: Path, env_id: str) -> dict:
    path = run_dir / "train.json"
    if not path.exists():
        raise ValueError(f"cannot resume {run_dir}: no train.json (not an expert-iteration run folder)")
    try:
        settings = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"cannot resume {run_dir}: train.json is not JSON ({err})") from None
    if not isinstance(settings, dict) or settings.get("env_id") != env_id:
        raise ValueError(f"cannot resume {run_dir} on {env_id}: it trains {settings.get('env_id')!r}")
    return settings


def build_expert_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mushgym train ENV --algo expert",
        description="Expert iteration: a network trained on the search's moves and outcomes.",
    )
    p.add_argument("env", help="env id, e.g. fungi_v0")
    p.add_argument("--minutes", type=float, default=60.0, help="wall-clock budget (default 60)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--run-dir",
        default=None,
        help="output folder, new or empty (default: a new runs/expert_<env>_s<seed>_<date-time>)",
    )
    p.add_argument(
        "--expert",
        choices=EXPERTS,
        default=None,
        help="auto (MCTS with the game's rollouts, then PUCT with the network once it beats greedy; "
        "default), mcts, or puct",
    )
    p.add_argument(
        "--simulations", type=int, default=None, help=f"MCTS simulations per move (default {DEFAULTS['simulations']})"
    )
    p.add_argument(
        "--puct-simulations",
        type=int,
        default=None,
        help=f"PUCT simulations per move (default {DEFAULTS['puct_simulations']})",
    )
    p.add_argument(
        "--actors",
        type=int,
        default=0,
        help="self-play in N Ray actors (a local Ray unless --address or RAY_ADDRESS); 0: in this process (default)",
    )
    p.add_argument("--address", default=None, help="a running Ray cluster to use (e.g. auto, or ray://HOST:10001)")
    p.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a hyper-parameter (repeatable); names: " + ", ".join(sorted(DEFAULTS)),
    )
    p.add_argument(
        "--option", "--opt", action="append", default=[], metavar="NAME=VALUE", help="game option (repeatable)"
    )
    p.add_argument(
        "--resume", default=None, metavar="RUN_DIR", help="continue the cut run in RUN_DIR with its settings"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--eval-games",
        type=int,
        default=200,
        help="after training, games per pair in a round robin of the network, random and greedy (0: none)",
    )
    return p


def parse_hyper(item: str) -> tuple[str, Any]:
    """``NAME=VALUE`` -> (name, value) for ``--hyper``, typed like ``DEFAULTS[name]`` (:mod:`.hyper`)."""
    from .hyper import parse_hyper as parse

    return parse(item, DEFAULTS, "mushgym train --algo expert")


def expert_main(argv: Sequence[str] | None = None) -> int:
    """``mushgym train ENV --algo expert [--minutes M] [--actors N] [--address A] ...``."""
    from mushgym.options import parse_options

    from .evaluate import tournament

    args = build_expert_parser().parse_args(argv)
    hyper = dict(parse_hyper(item) for item in args.hyper)
    for name in ("expert", "simulations", "puct_simulations"):
        if getattr(args, name) is not None:
            hyper[name] = getattr(args, name)
    try:
        summary = train_expert(
            args.env,
            minutes=args.minutes,
            seed=args.seed,
            options=parse_options(args.option),
            run_dir=args.run_dir,
            actors=args.actors,
            address=args.address,
            progress_bar=not args.no_progress,
            resume=args.resume,
            **hyper,
        )
    except (FileExistsError, TypeError, ValueError) as err:
        raise SystemExit(f"mushgym train --algo expert: {err}") from err
    t = summary["timing"]
    print(
        f"saved {summary['final']}  ({t['positions']:,} positions, {t['updates']:,} updates in "
        f"{t['wall_seconds']:.0f}s: {t['positions_per_second']:,.0f} positions/s, "
        f"{t['updates_per_second']:,.1f} updates/s; search {t['share_search']:.0%} (network {t['share_network']:.0%}), "
        f"learner {t['share_learner']:.0%}, evaluation {t['share_evaluation']:.0%})"
    )
    print(f"tensorboard --logdir {summary['run_dir'] / 'tb'}")
    if args.eval_games:
        options = json.loads(Path(summary["final"]).with_suffix(".json").read_text())["options"]
        result = tournament(
            args.env,
            {"random": "random", "greedy": "greedy", "expert": str(summary["final"])},
            games=args.eval_games,
            seed=args.seed + 10_000,
            options=options,
            csv_path=summary["run_dir"] / "eval.csv",
        )
        (summary["run_dir"] / "eval_table.txt").write_text(result.table())
    return 0


if __name__ == "__main__":
    raise SystemExit(expert_main())
