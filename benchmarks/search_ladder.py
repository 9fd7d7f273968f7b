"""Elo ladder of search against learning and baselines: random, greedy, the PPO model (if the
repository has one for the env), information-set MCTS at 100 and 1,000 simulations (10,000 with
--big). Round robin with seats rotated (mushgym.agents.tournament), Bradley-Terry Elo with 95%
intervals, greedy rated 0. Writes <env>_<n>p.csv, <env>_<n>p_elo.csv, <env>_<n>p.txt and a plot
<env>_<n>p.png into benchmarks/search_ladder/.

    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 60
    python benchmarks/search_ladder.py mycology_v0 --players 2 --games 16 --skip random,mcts:100 --skip random,mcts:1000
    python benchmarks/search_ladder.py mycology_v0 --players 4 --games 12 --skip random,mcts:100 --skip random,mcts:1000
    python benchmarks/search_ladder.py fungi_v0 --players 2 --games 60 --agents greedy ppo mcts:400 puct:400:ppo --tag _puct

(``ppo`` in --agents, alone or as the PATH of ``puct:SIMS:PATH``, is the env's shipped PPO model.)

(random's Mycology games last ~500 decisions, so MCTS against random is the slowest pair and
the least informative: skipped there; random is rated through greedy.)
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import mushgym
from mushgym.agents import make_agent, play_match
from mushgym.agents.evaluate import MatchResult, TournamentResult, bradley_terry_elo

HERE = Path(__file__).resolve().parent
OUT = HERE / "search_ladder"
MODELS = {"fungi_v0": HERE / "training" / "fungi_v0_ppo.pt"}


def label(name: str) -> str:
    """A short label: a model path by its file stem (``puct:400:<path>`` as ``puct:400:<stem>``)."""
    if name.startswith("puct:") and "/" in name:
        head, _, path = name.partition(":")[2].partition(":")
        return f"puct:{head}:{Path(path).stem}"
    return Path(name).stem if "/" in name else name


def plot(result, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(result.names, key=lambda n: result.elo[n])
    elo = [result.elo[n] for n in names]
    lo = [result.elo[n] - result.elo_interval(n)[0] for n in names]
    hi = [result.elo_interval(n)[1] - result.elo[n] for n in names]
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(names)))
    ax.errorbar(elo, range(len(names)), xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), [label(n) for n in names])
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel(f"Elo ({result.scale}), 95% interval")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=60, help="games per pair (seats rotated)")
    ap.add_argument("--big", action="store_true", help="also MCTS at 10,000 simulations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agents", nargs="+", default=None,
                    help="the agents (default: random, greedy, the PPO model if any, mcts:100, mcts:1000)")
    ap.add_argument("--tag", default="", help="suffix of the output files")
    ap.add_argument("--skip", action="append", default=[], metavar="A,B",
                    help="do not play this pair (repeatable); the ratings still connect through the others")
    args = ap.parse_args(argv)
    agents = ["random", "greedy"]
    model = MODELS.get(args.env)
    if model is not None and model.exists():
        model = model.relative_to(Path.cwd()) if model.is_relative_to(Path.cwd()) else model
        agents.append(str(model))
    agents += ["mcts:100", "mcts:1000"] + (["mcts:10000"] if args.big else [])
    if args.agents:
        agents = [str(model) if a == "ppo" and model is not None else a for a in args.agents]
        agents = [a[:-len("ppo")] + str(model) if a.startswith("puct:") and a.endswith(":ppo") and model is not None
                  else a for a in agents]
    game = mushgym.game(args.env)
    options = {"num_players": args.players} if "num_players" in game.option_choices else {}
    OUT.mkdir(exist_ok=True)
    stem = f"{args.env}_{args.players}p{args.tag}"
    game = mushgym.game(args.env, **options)
    skip = {frozenset(p.split(",")) for p in args.skip}
    built = {n: make_agent(n, env_id=args.env, seed=args.seed + 1000 * i) for i, n in enumerate(agents)}
    if any(type(a).__name__ == "PolicyAgent" or getattr(a, "network", None) is not None for a in built.values()):
        from mushgym.wrappers import set_torch_threads

        set_torch_threads(1)   # as mushgym eval does: torch's threads fight the search's
    matches = []
    for a, b in itertools.combinations(agents, 2):
        if frozenset((a, b)) in skip:
            continue
        m = play_match(game, built[a], built[b], args.games, seed=args.seed, name_a=a, name_b=b, batch_size=64)
        matches.append(m)
        print(f"  {a} vs {b}: {m.wins}-{m.draws}-{m.losses} in {m.seconds:.1f}s", flush=True)
    elo, se = bradley_terry_elo(agents, matches, anchor="greedy")
    matches = [m if elo[m.a] >= elo[m.b] else MatchResult(m.b, m.a, m.games, m.losses, m.draws, m.wins, m.steps,
                                                          m.seconds) for m in matches]
    result = TournamentResult(game.env_id, agents, matches, elo, se, "greedy")
    result.print()
    result.to_csv(OUT / f"{stem}.csv")
    command = (f"python benchmarks/search_ladder.py {args.env} --players {args.players} --games {args.games}"
               f"{' --big' if args.big else ''} --seed {args.seed}" + "".join(f" --skip {p}" for p in args.skip)
               + (f" --agents {' '.join(args.agents)}" if args.agents else "") + (f" --tag {args.tag}" if args.tag else ""))
    (OUT / f"{stem}.txt").write_text(command + "\n\n" + result.table())
    plot(result, OUT / f"{stem}.png", f"{args.env}, {args.players} players, {args.games} games per pair")
    print("wrote", OUT / f"{stem}.png")


if __name__ == "__main__":
    main()
