"""The ``mushgym`` command line: list, play, bench, train, eval, golden."""

from __future__ import annotations

import argparse
import ast
import sys
from typing import Any


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["num_players=4", "reward=score"]`` -> ``{"num_players": 4, "reward": "score"}``.

    Values are Python literals where they parse as one (``4``, ``0.5``, ``True``;
    also ``true``/``false``), else strings. Validation is the game's job.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SystemExit(f"mushgym: option {pair!r} is not of the form NAME=VALUE")
        key, value = pair.split("=", 1)
        if value in ("true", "false"):
            options[key] = value == "true"
            continue
        try:
            options[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[key] = value
    return options


def cmd_list(args: argparse.Namespace) -> int:
    from . import registry

    for env_id in registry.list_envs():
        game_class = registry.env_module(env_id).Game
        summary = (registry.env_module(env_id).__doc__ or "").strip().splitlines()
        choices = ", ".join(f"{k}={list(v)}" for k, v in game_class.option_choices.items() if not k.endswith("_path"))
        print(f"{env_id:14s} {summary[0] if summary else ''}")
        print(f"{'':14s} options: {choices}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import numpy as np

    from . import registry

    game = registry.game(args.env, **parse_options(args.opt))
    seat = args.seat
    if not 0 <= seat < game.num_players:
        raise SystemExit(f"mushgym: --seat must be in 0..{game.num_players - 1}")
    rng = np.random.default_rng(args.seed)
    state = game.new_state(args.seed if args.seed is not None else int(rng.integers(2**31)))
    print(f"{game.env_id}: you are player {seat}; the others play uniformly at random. Type an action number, q to quit.")
    while not game.is_terminal(state):
        player = game.current_player(state)
        legal = game.legal_actions(state)
        if player != seat:
            action = int(legal[rng.integers(legal.size)])
            print(f"player {player}: {game.action_to_string(state, action)}")
            state = game.step(state, action)
            continue
        print()
        print(game.render_text(state, seat))
        print("\nyour actions:")
        for a in legal:
            print(f"  {a:4d}  {game.action_to_string(state, int(a))}")
        while True:
            try:
                text = input("> ").strip()
            except EOFError:
                print()
                return 1
            if text in ("q", "quit", "exit"):
                return 1
            try:
                action = int(text)
            except ValueError:
                print(f"type one of the numbers listed ({legal[0]}..{legal[-1]}) or q")
                continue
            if action not in set(legal.tolist()):
                print(f"{action} is not a legal action now; choose one of the numbers listed")
                continue
            break
        state = game.step(state, action)
    print()
    print(game.render_text(state, None))
    returns = game.returns(state)
    print(f"game over: returns {returns.tolist()} (you are player {seat})")
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    from .testing import regenerate_golden

    for path in regenerate_golden():
        print(f"wrote {path}")
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    """Delete numba's compiled-kernel cache of every game (the next use recompiles)."""
    from pathlib import Path

    from .core.cache import clear_all_caches
    from .registry import game_folders

    removed = clear_all_caches([Path(f) for f in game_folders()])
    print(f"removed {removed} numba cache files")
    return 0


def _delegate(module: str, func: str, argv: list[str]) -> int:
    import importlib

    try:
        main = getattr(importlib.import_module(module), func)
    except ImportError as err:
        hint = " (install the training extra: pip install 'mushgym[train]')" if "agents" in module else ""
        raise SystemExit(f"mushgym: this command could not be loaded: {err}{hint}") from err
    return int(main(argv) or 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mushgym", description="Mushroom game RL environments.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="list the registered envs and their options")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("play", help="play an env in the terminal against random agents")
    p.add_argument("env")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--option", "--opt", dest="opt", action="append", default=[], metavar="NAME=VALUE",
                   help="game option, repeatable (e.g. --option num_players=4)")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("cache-clear", help="delete the compiled-kernel cache (numba) of every game")
    p.set_defaults(func=cmd_cache)
    p = sub.add_parser("golden", help="regenerate the golden playthrough files in tests/golden")
    p.set_defaults(func=cmd_golden)
    for name, module, func, text in (
        ("bench", "mushgym.bench", "main", "throughput of every API (see `mushgym bench -h`)"),
        ("train", "mushgym.agents.cli", "train_main", "train MaskablePPO (see `mushgym train -h`)"),
        ("eval", "mushgym.agents.cli", "eval_main", "round-robin tournament with Elo (see `mushgym eval -h`)"),
    ):
        p = sub.add_parser(name, help=text, add_help=False)
        p.set_defaults(func=None, delegate=(module, func))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if getattr(args, "delegate", None):
        module, func = args.delegate
        return _delegate(module, func, rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
