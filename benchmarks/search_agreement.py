"""How often a search agrees with itself and with greedy: the label noise of an expert.

    python benchmarks/search_agreement.py mycelium_v0 --players 4 --sims 100 --positions 200
    python benchmarks/search_agreement.py fungi_v0 --sims 400 1000

Positions are sampled from greedy's games (decisions with more than one legal move, each kept
with probability ``--keep``). Every position is searched twice by ``mcts:SIMS`` (its searcher,
``MCTSAgent.searcher``) with two different seeds, and each search's move is the one the agent
plays (``Searcher.choose``); the record gives the share of positions where the two moves are
the same, where each is greedy's move, and the same per action group. Expert iteration trains on such moves
(``policy_target="best"``) or
visit distributions: a search that agrees with itself half the time is a noisy teacher, its
strength in the few positions where it is consistent.

Writes ``benchmarks/results/<date>-search-agreement-<env>.json`` (date, machine, commit, command).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from search_ladder import record_fields

import mushgym
from mushgym.agents import MCTSAgent, make_agent
from mushgym.episodes import EpisodeBatch, decide
from mushgym.search import Searcher

HERE = Path(__file__).resolve().parent


def sample_positions(game, positions: int, keep: float, seed: int):
    """``positions`` states of greedy's games with a real choice, the mover, its legal actions and greedy's move."""
    greedy = make_agent("greedy", env_id=game.env_id, seed=seed)
    rng = np.random.default_rng(seed)
    b = EpisodeBatch(game, 8, max_steps=game.spec.max_game_length)
    rows = np.arange(8, dtype=np.int64)
    b.deal(rows, rng.integers(0, 2**62, size=8))
    states, players, masks, moves = [], [], [], []
    while len(states) < positions:
        live = b.running()
        acts = decide(greedy, game, b, live)
        for j, i in enumerate(live):
            if (b.masks[i] != 0).sum() > 1 and rng.random() < keep and len(states) < positions:
                states.append(b.states[i].copy())
                players.append(int(b.players[i]))
                masks.append(b.masks[i].copy())
                moves.append(int(acts[j]))
        b.step(live, acts)
        over = live[b.players[live] < 0]
        if over.size:
            b.deal(over, rng.integers(0, 2**62, size=over.size))
    return np.array(states), np.array(players, dtype=np.int64), np.array(masks), np.array(moves)


def agreement(game, states, players, masks, greedy_moves, sims: int, seed: int) -> dict:
    """The two searches' moves compared with each other and with greedy's."""
    best = []
    t0 = time.perf_counter()
    for k in range(2):
        visits, values = MCTSAgent(simulations=sims, seed=seed + 1 + k).searcher(game).search_many(states, players)
        best.append(np.array([Searcher.choose(v, w, m) for v, w, m in zip(visits, values, masks)]))
    seconds = time.perf_counter() - t0
    a, b = best
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for x, y, g in zip(a, b, greedy_moves):
        row = groups[game.decode_action(int(g))[0]]
        row[0] += 1
        row[1] += int(x == y)
        row[2] += int(x == g)
    return {
        "simulations": sims,
        "positions": int(len(a)),
        "seconds_two_searches": round(seconds, 2),
        "self_agreement": round(float((a == b).mean()), 4),
        "greedy_agreement": round(float(((a == greedy_moves).mean() + (b == greedy_moves).mean()) / 2), 4),
        "by_greedy_move": {
            k: {"positions": v[0], "self_agreement": round(v[1] / v[0], 3), "greedy_agreement": round(v[2] / v[0], 3)}
            for k, v in sorted(groups.items(), key=lambda kv: -kv[1][0])
        },
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--sims", type=int, nargs="+", default=[100])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--keep", type=float, default=0.05, help="share of greedy's real choices kept (spreads the sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--out", default=None, help="output JSON (default benchmarks/results/<date>-search-agreement-<env>.json)"
    )
    args = ap.parse_args(argv)
    if not 0 < args.keep <= 1:
        ap.error(f"--keep must be in (0, 1], got {args.keep}")
    game = mushgym.game(args.env, **({} if args.players is None else {"num_players": args.players}))
    states, players, masks, moves = sample_positions(game, args.positions, args.keep, args.seed)
    rows = [agreement(game, states, players, masks, moves, s, args.seed) for s in args.sims]
    for r in rows:
        print(
            f"{args.env} {game.num_players}p mcts:{r['simulations']}: agrees with itself "
            f"{r['self_agreement']:.1%}, with greedy {r['greedy_agreement']:.1%} "
            f"({r['positions']} positions)",
            flush=True,
        )
    record = {
        **record_fields(),
        "command": "python " + " ".join(sys.argv),
        "env": args.env,
        "players": game.num_players,
        "rows": rows,
    }
    out = (
        Path(args.out)
        if args.out
        else HERE / "results" / (time.strftime("%Y-%m-%d-%H%M", time.gmtime()) + f"-search-agreement-{args.env}.json")
    )
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
