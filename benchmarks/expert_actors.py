"""Expert-iteration self-play positions/s with 1, 2 and N Ray actors, against the same self-play
in this process (the baseline, measured in the same run).

    python benchmarks/expert_actors.py fungi_v0 --actors 1 2 4 --seconds 30
    python benchmarks/expert_actors.py fungi_v0 --actors 1 2 8 16 --address auto   # a running cluster

Each actor is a :class:`mushgym.agents.selfplay.SelfPlay` with one search thread (MCTS with the
game's rollouts, the expert of a young network) and always one round in flight; the rate counts
the positions of the rounds that finish within ``--seconds`` after a first round (kernels
loaded, games under way). Writes ``benchmarks/results/<date>-expert-actors-<env>.json`` with the
machine (``lscpu``), the commit and the command.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path


def _rate(source, seconds: float) -> float:
    source.collect()
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        n += sum(len(d["returns"]) for d in source.collect())
    return n / (time.perf_counter() - t0)


def _machine() -> dict:
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    except OSError:
        lscpu = ""
    keep = ("Model name", "CPU(s)", "L3 cache", "Thread(s) per core")
    return {
        "lscpu": {
            k.strip(): v.strip()
            for k, v in (line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
            if k.strip() in keep
        },
        "python": platform.python_version(),
    }


def main(argv=None) -> int:
    import mushgym
    from mushgym.agents.expert import check_hyper
    from mushgym.agents.expert_loop import LocalSelfPlay

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("env")
    p.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--address", default=None)
    p.add_argument("--simulations", type=int, default=400)
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)

    from mushgym.agents.expert_ray import RaySelfPlay
    from mushgym.integrations.ray_session import init_ray

    game = mushgym.game(args.env)
    hp = check_hyper({"simulations": args.simulations, "games": args.games, "threads": 1})
    rates = {"in_process_1_thread": _rate(LocalSelfPlay(game, hp, seed=0), args.seconds)}
    print(f"in this process, one search thread: {rates['in_process_1_thread']:,.0f} positions/s", flush=True)
    init_ray(args.address, max(args.actors))
    for n in args.actors:
        source = RaySelfPlay(game, hp, seed=0, actors=n)
        rates[f"ray_{n}_actors"] = _rate(source, args.seconds)
        source.close()
        print(
            f"{n} Ray actors: {rates[f'ray_{n}_actors']:,.0f} positions/s "
            f"({rates[f'ray_{n}_actors'] / rates['in_process_1_thread']:.2f}x in-process)",
            flush=True,
        )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
    ).stdout.strip()
    record = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit,
        "command": "python " + " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
        "machine": _machine(),
        "env": args.env,
        "simulations": args.simulations,
        "games_per_actor": args.games,
        "seconds": args.seconds,
        "positions_per_second": rates,
        "ratio_to_in_process": {k: v / rates["in_process_1_thread"] for k, v in rates.items()},
    }
    out = Path(
        args.out
        or Path(__file__).parent
        / "results"
        / f"{time.strftime('%Y-%m-%d-%H%M', time.gmtime())}-expert-actors-{args.env}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
