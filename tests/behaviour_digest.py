"""A digest of what the games' heuristics and validators decide, to compare two builds.

    python tests/behaviour_digest.py                 # every option set below, 10,000 states each
    python tests/behaviour_digest.py --states 500 --config mycelia_v1
    python tests/behaviour_digest.py --dump out/     # also one line per state, to diff two builds

Each option set plays random games (seeded) and collects ``--states`` positions. At each one it
records the greedy agent's move (``GreedyAgent(seed=i)``: the tie-break is seeded too) and the
validator's verdict on the position and on a copy with one entry changed at random (accepted, or
refused). A refactoring of the heuristics or the validators keeps every digest line: run this
script on the old build and on the new one (each in its own checkout) and compare the output.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

#: option sets checked: the trained targets and every variant of the board games
CONFIGS: dict[str, tuple[str, dict]] = {
    "fungi_v0": ("fungi_v0", {}),
    "mycology_v1": ("mycology_v1", {}),
    "mycology_v1_4p": ("mycology_v1", {"num_players": 4}),
    "mycology_v1_full": ("mycology_v1", {"observation": "full"}),
    "mycelia_v1": ("mycelia_v1", {}),
    "mycelia_v1_solo": ("mycelia_v1", {"num_players": 1}),
    "mycelia_v1_north_america": ("mycelia_v1", {"num_players": 3, "expansion": "north_america"}),
    "mycelium_v2": ("mycelium_v2", {}),
    "mycelium_v2_2p": ("mycelium_v2", {"num_players": 2}),
    "mycelium_v2_variants": (
        "mycelium_v2",
        {"num_players": 4, "team": True, "emsporium": True, "hero_tavern": True, "legends": True},
    ),
}


def collect(game, n_states: int, seed: int):
    """``n_states`` positions of random games (every non-terminal position of each game in turn)."""
    rng = np.random.default_rng(seed)
    states = []
    game_seed = seed
    while len(states) < n_states:
        state = game.new_state(game_seed)
        game_seed += 1
        while not (game.is_terminal(state) or game.is_truncated(state)) and len(states) < n_states:
            states.append(state.copy())
            state = game.step(state, int(rng.choice(game.legal_actions(state))))
    return states


def verdict(game, state) -> str:
    try:
        game.validate(state)
    except ValueError:
        return "refused"
    return "accepted"


def digest(config: str, n_states: int, dump: Path | None) -> str:
    import mushgym
    from mushgym.agents import GreedyAgent

    env_id, options = CONFIGS[config]
    game = mushgym.game(env_id, **options)
    rng = np.random.default_rng(12345)
    lines = []
    for i, state in enumerate(collect(game, n_states, seed=0)):
        player = game.current_player(state)
        move = GreedyAgent(env_id, seed=i).act_state(game, state, player)
        broken = state.copy()
        slot = int(rng.integers(broken.size))
        broken[slot] = int(rng.integers(-3, 64))
        lines.append(f"{i} {player} {move} {verdict(game, state)} {slot} {broken[slot]} {verdict(game, broken)}")
    text = "\n".join(lines) + "\n"
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
        (dump / f"{config}.txt").write_text(text)
    refused = sum(line.endswith("refused") for line in lines)
    sha = hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"{config}: {len(lines)} states, {refused} changed copies refused, sha256 {sha}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--config", action="append", choices=sorted(CONFIGS), help="default: all")
    parser.add_argument("--dump", type=Path, help="a folder for one line per state and option set")
    args = parser.parse_args(argv)
    for config in args.config or CONFIGS:
        print(digest(config, args.states, args.dump), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
