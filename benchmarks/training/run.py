"""Reproduce the training benchmark: MaskablePPO on an env with train_ppo's defaults.

    python benchmarks/training/run.py                        # fungi_v0, 30 minutes, then evaluate
    python benchmarks/training/run.py --run-dir runs/X --skip-train --trust-run   # evaluate an existing run of yours
    python benchmarks/training/run.py --env mycology_v0 --option num_players=2 --curve-games 100 --games 200
    python benchmarks/training/run.py --env mycelia_v0 --option num_players=2 --minutes 60 --opponent greedy \
        --hyper imitation_samples=60000                            # settings of the shipped board-game models
    python benchmarks/training/run.py --env mycelia_v0 --option num_players=2 --resume runs/X --trust-run   # a cut \
        run goes on

A game option (``--option NAME=VALUE``, as ``mushgym train``) names the files after it:
``mycology_v0_2p_*`` for ``num_players=2`` (Mycology's observation length depends on the
player count, so each count has its own model).

Writes to ``benchmarks/training/`` (``--out``):

* ``<stem>_learning_curve.csv`` / ``.png``: win rate of each checkpoint against random
  and greedy (``--curve-games`` games each, seats rotated, 95% Wilson intervals)
  versus the learner's environment steps;
* ``<stem>_eval.csv`` and ``<stem>_eval_elo.csv``: the final round robin of random,
  greedy and the final model (``--games`` games per pair);
* ``<stem>_timing.json``: steps per second and the share of wall time spent in the
  game, in the opponents, in the network during rollouts, and in PPO updates.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


UNTRUSTED = (
    "{run}: its SB3 checkpoints are pickles, which can run code when loaded; this script unpickles "
    "them only from a run it trained itself or with --trust-run (the folder is yours)"
)


def learning_curve(
    run_dir: Path,
    env_id: str,
    games: int,
    seed: int,
    out: Path,
    options: dict | None = None,
    stem: str | None = None,
    trust: bool = False,
) -> list[dict]:
    import mushgym
    from mushgym.agents import load_policy, make_agent, play_match, wilson_interval

    game = mushgym.game(env_id, **(options or {}))
    stem = stem or env_id
    ckpts = sorted(
        (run_dir / "checkpoints").glob("ppo_*_steps.zip"),
        key=lambda p: int(re.search(r"_(\d+)_steps", p.name).group(1)),
    )
    rows = []
    opponents = {"random": make_agent("random", seed=seed), "greedy": make_agent("greedy", env_id=env_id, seed=seed)}
    final_zip = run_dir / "final.zip"
    if not trust and (ckpts or final_zip.exists()):
        raise SystemExit(UNTRUSTED.format(run=run_dir))
    for ck in ckpts + ([final_zip] if final_zip.exists() else []):
        agent = load_policy(ck, trust=True)  # a run this script trained, or one its owner trusts
        if ck.name == "final.zip":
            steps = json.loads((run_dir / "final.json").read_text()).get("steps")
        else:
            steps = int(re.search(r"_(\d+)_steps", ck.name).group(1))
        row = {"steps": steps, "checkpoint": ck.name}
        for name, opp in opponents.items():
            m = play_match(game, agent, opp, games, seed=seed)
            lo, hi = wilson_interval(m.wins, m.games)
            row.update(
                {
                    f"win_vs_{name}": round(m.wins / m.games, 4),
                    f"win_vs_{name}_lo": round(lo, 4),
                    f"win_vs_{name}_hi": round(hi, 4),
                    f"loss_vs_{name}": round(m.losses / m.games, 4),
                }
            )
        rows.append(row)
        print(
            f"  {ck.name:>28}: vs random {row['win_vs_random']:.1%}  vs greedy {row['win_vs_greedy']:.1%}", flush=True
        )
    if len(rows) > 1 and rows[-1]["steps"] == rows[-2]["steps"]:
        rows.pop(-2)
    path = out / f"{stem}_learning_curve.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        x = [r["steps"] for r in rows]
        for name, colour in (("random", "tab:blue"), ("greedy", "tab:orange")):
            y = [r[f"win_vs_{name}"] for r in rows]
            ax.plot(x, y, marker="o", color=colour, label=f"win rate vs {name}")
            ax.fill_between(
                x,
                [r[f"win_vs_{name}_lo"] for r in rows],
                [r[f"win_vs_{name}_hi"] for r in rows],
                color=colour,
                alpha=0.2,
            )
        ax.axhline(0.9, color="tab:blue", ls=":", lw=1)
        ax.axhline(0.5, color="grey", ls=":", lw=1)
        ax.set_xlabel("learner environment steps")
        ax.set_ylabel(f"win rate ({games} games, seats rotated, 95% CI)")
        ax.set_ylim(0, 1)
        ax.set_title(f"MaskablePPO on {stem}")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(out / f"{stem}_learning_curve.png", dpi=110)
    except ImportError:
        print("matplotlib missing: no plot")
    return rows


def shipped_model(run_dir: Path, out: Path, stem: str, trust: bool = False) -> Path:
    """The run's weights-only policy copied to ``out/<stem>_ppo.pt`` (+ ``.json``): ``final.pt``, or for
    a run cut before its end the latest checkpoint, exported (our own run's pickle)."""
    source = run_dir / "final.pt"
    if not source.exists():
        ckpts = sorted(
            (run_dir / "checkpoints").glob("ppo_*_steps.zip"),
            key=lambda c: int(re.search(r"_(\d+)_steps", c.name).group(1)),
        )
        if not ckpts:
            raise SystemExit(f"{run_dir}: no final.pt and no checkpoint to evaluate")
        if not trust:
            raise SystemExit(UNTRUSTED.format(run=run_dir))
        from mushgym.agents.ppo import export_policy

        source = export_policy(ckpts[-1], run_dir / f"cut_{ckpts[-1].stem}.pt", trust=True)
        print(f"{run_dir} has no final model (cut): evaluating its latest checkpoint {ckpts[-1].name}")
    target = out / f"{stem}_ppo.pt"
    if source.resolve() != target.resolve():
        shutil.copy(source, target)
        shutil.copy(source.with_suffix(".json"), target.with_suffix(".json"))
    return target


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--env", default="fungi_v0")
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--steps", type=int, default=100_000_000, help="step cap (the time limit usually ends first)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--run-dir", default=None)
    p.add_argument("--skip-train", action="store_true")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--curve-games", type=int, default=200)
    p.add_argument("--out", default=str(HERE))
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option (repeatable), e.g. num_players=4; num_players names the files <env>_<n>p_*",
    )
    p.add_argument("--opponent", default="self", help="train_ppo's opponent (default self: self-play)")
    p.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a train_ppo hyper-parameter (repeatable, as mushgym train --hyper), e.g. imitation_samples=60000",
    )
    p.add_argument(
        "--resume",
        default=None,
        metavar="RUN_DIR",
        help="continue the cut training run in RUN_DIR (its saved settings), then evaluate it",
    )
    p.add_argument(
        "--trust-run",
        action="store_true",
        help="with --resume or --skip-train: the run folder is yours (its SB3 checkpoints are unpickled)",
    )
    p.add_argument(
        "--no-baseline-pair",
        action="store_true",
        help="evaluate the model against greedy and against random only (not greedy against random)",
    )
    args = p.parse_args(argv)
    options = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            raise SystemExit(f"--option wants NAME=VALUE, got {item!r}")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    stem = args.env + (f"_{options['num_players']}p" if "num_players" in options else "")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.skip_train and not args.run_dir:
        raise SystemExit("--skip-train needs --run-dir (the run to evaluate)")
    run_dir = Path(args.run_dir) if args.run_dir else None
    if args.resume and run_dir is not None:
        raise SystemExit("--resume RUN_DIR names the run already; leave out --run-dir")
    if not args.skip_train:
        from mushgym.agents import train_ppo
        from mushgym.agents.ppo import parse_hyper

        hyper = dict(parse_hyper(item) for item in args.hyper)
        t0 = time.time()
        # a fresh run folder (train_ppo's default); the curve is computed below from the checkpoints
        model = train_ppo(
            args.env,
            steps=args.steps,
            seed=args.seed,
            run_dir=run_dir,
            max_minutes=args.minutes,
            options=options or None,
            opponent=args.opponent,
            resume=args.resume,
            trust_resume=args.trust_run,
            progress_bar=sys.stderr.isatty(),
            curve_points=0,
            **hyper,
        )
        run_dir = model.mushgym_run_dir
        print(f"trained in {time.time() - t0:.0f}s -> {run_dir}")
    if (run_dir / "timing.json").exists():
        shutil.copy(run_dir / "timing.json", out / f"{stem}_timing.json")
    trust = args.trust_run or not args.skip_train  # a run trained here, or one its owner vouches for
    model_path = shipped_model(run_dir, out, stem, trust)
    if args.curve_games:
        print("learning curve:")
        learning_curve(run_dir, args.env, args.curve_games, args.seed + 1, out, options, stem, trust)
    from mushgym.agents import tournament

    if args.no_baseline_pair:
        tournament(
            args.env,
            {"greedy": "greedy", "ppo": str(model_path)},
            games=args.games,
            seed=args.seed + 2,
            options=options or None,
            csv_path=out / f"{stem}_eval.csv",
        )
        tournament(
            args.env,
            {"random": "random", "ppo": str(model_path)},
            games=args.games,
            seed=args.seed + 3,
            options=options or None,
            csv_path=out / f"{stem}_eval_random.csv",
            anchor="random",
        )
    else:
        tournament(
            args.env,
            {"random": "random", "greedy": "greedy", "ppo": str(model_path)},
            games=args.games,
            seed=args.seed + 2,
            options=options or None,
            csv_path=out / f"{stem}_eval.csv",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
