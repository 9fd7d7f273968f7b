"""One MCTS setting against an opponent on a fixed set of deals: the A/B runs behind the search
defaults (``mushgym/search.py``'s docstring; the docs' Agents page, "How the search defaults were chosen").

    python benchmarks/search_ab.py mycology_v0 --players 2 --deals 40 --sims 1000
    python benchmarks/search_ab.py mycology_v0 --players 4 --deals 32 --sims 1000 --options '{"widen": 0}'
    python benchmarks/search_ab.py fungi_v0 --deals 40 --options '{"widen": 0.25}'
    python benchmarks/search_ab.py mycology_v0 --players 4 --first 32 --deals 16   # deals 32-47

Deal ``i`` is seed ``i``; the seats rotate as in ``mushgym.agents.play_match`` (chunks of 2 deals
with 2 players, 2P with P), so two settings run with the same ``--deals`` meet the same deals in
the same seats. The opponent's generator (greedy's tie-breaks) is reset to ``--seed`` + the
chunk's first deal at every chunk, so a run is reproducible; before the greedy rollout it was seeded from
the OS, and greedy's ties made two runs of one setting differ (30-0-2 and 24-3-5 on
32 four-player deals).
``--options`` is JSON passed to ``MCTSAgent`` (``c``, ``rollout``, ``value``, ``widen``). Prints
the running wins-draws-losses of MCTS after every chunk.
"""

from __future__ import annotations

import argparse
import json
import time

import mushgym
from mushgym.agents import MCTSAgent, make_agent
from mushgym.agents.evaluate import play_match


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument(
        "--first",
        type=int,
        default=0,
        help="first deal (a multiple of the seat rotation's chunk: "
        "2 with 2 players, 2P with P), to add deals to an earlier run",
    )
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--options", default="{}", help="JSON keyword arguments of MCTSAgent")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the opponent's seed (greedy's and random's tie-breaks), reset to SEED + first deal at every chunk",
    )
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    game = mushgym.game(args.env, **({} if args.players is None else {"num_players": args.players}))
    mcts = MCTSAgent(args.env, simulations=args.sims, **options)
    opponent = make_agent(args.opponent, args.env)
    step = 2 if game.num_players == 2 else 2 * game.num_players
    if args.first % step:
        ap.error(f"--first must be a multiple of {step} (the seat rotation's chunk), got {args.first}")
    w = d = losses = 0
    t0 = time.time()
    for start in range(args.first, args.first + args.deals, step):
        if hasattr(opponent, "reset"):
            opponent.reset(seed=args.seed + start)  # a deal's games do not depend on the chunks before it
        r = play_match(game, mcts, opponent, games=min(step, args.first + args.deals - start), seed=start)
        w, d, losses = w + r.wins, d + r.draws, losses + r.losses
        print(
            f"deals {start}-{start + step - 1}: {r.wins}-{r.draws}-{r.losses}, total {w}-{d}-{losses} "
            f"({time.time() - t0:.0f} s)",
            flush=True,
        )
    print(
        f"{args.env} {game.num_players}p mcts:{args.sims} {options} vs {args.opponent}: "
        f"wins-draws-losses {w}-{d}-{losses} of {w + d + losses}"
    )


if __name__ == "__main__":
    main()
