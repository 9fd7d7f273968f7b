"""The README's pictures of the games (``docs/pictures/<env id>.png``), drawn by each game's
``render.py`` through ``mushgym.render`` from a seeded game in play.

    python docs/pictures.py [ENV ...]      # default: every env of PICTURES

The env pages of the docs site draw their own SVG at build time (``mushgym.docsite``); these
PNGs are the ones the README shows on GitHub, where nothing is built.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mushgym
from mushgym.docsite import picture_state
from mushgym.render import draw_state

HERE = Path(__file__).resolve().parent
# env id -> (options, seat that sees the table (None: everything face up), seed, random decisions played)
PICTURES = {
    "fungi_v0": ({}, 0, 0, 12),
    "mycology_v1": ({"num_players": 3}, 0, 0, 12),
    "mycelia_v1": ({"num_players": 2, "automata": True}, None, 0, 40),
    "mycelium_v2": ({"num_players": 4}, 0, 0, 12),
}


def draw(env_id: str) -> Path:
    options, seat, seed, steps = PICTURES[env_id]
    game = mushgym.game(env_id, **options)
    path = HERE / "pictures" / f"{env_id}.png"
    draw_state(game, picture_state(game, seed, steps), seat).save(path)
    return path


if __name__ == "__main__":
    for env_id in sys.argv[1:] or list(PICTURES):
        if env_id not in PICTURES:
            raise SystemExit(f"no picture is defined for {env_id!r}; defined: {', '.join(PICTURES)}")
        print(f"wrote {draw(env_id)}")
