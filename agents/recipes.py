"""The default training recipe of each game: what ``mushgym train ENV`` does without ``--opponent``
or ``--hyper``.

    from mushgym.agents.recipes import recipe
    recipe("mycelium_v2", {"num_players": 4})
    # {'opponent': 'greedy', 'hyper': {'imitation_samples': 500000, 'imitation_epochs': 8,
    #  'learning_rate': 0.0001, 'clip_range': 0.1, 'ent_coef': 0.001}, 'game': 'mycelium', ...}

Each recipe is the one that trained the game's best PPO network (``docs/guides/training.md``
tells each run: its command, steps, curve and evaluation):

* **Fungi**: self-play from scratch (random, greedy and the learner's frozen snapshots in the
  pool) with :data:`mushgym.agents.ppo.DEFAULTS`; it passes greedy after about 400k learner steps.
* **Mycology, Mycelia, Mycelium**: PPO from scratch loses to greedy within an hour on 2 cores;
  what beat greedy was a warm start, the network fitted to greedy's own decisions
  (``imitation_samples``, :mod:`mushgym.agents.imitation`), then MaskablePPO against greedy.
  For Mycelium, PPO's default step sizes undid the imitated policy: a smaller learning rate
  (1e-4), clip range (0.1) and entropy bonus (0.001) let PPO refine it instead.

A recipe is chosen by the game's name (the env id without its version: ``mycelium`` for
``mycelium_v2``), so a new version of a game trains with its game's recipe; the player count may
adjust it (``players``). Anything given explicitly (``opponent=``, a hyper-parameter) wins over
the recipe.
"""

from __future__ import annotations

from typing import Any

#: game name -> {"opponent", "hyper", "players": {player count: more hyper}, "note"}
RECIPES: dict[str, dict[str, Any]] = {
    "fungi": {
        "opponent": "self",
        "hyper": {},
        "note": "self-play PPO from scratch (the pool: random, greedy, snapshots of the learner)",
    },
    "mycology": {
        "opponent": "greedy",
        "hyper": {"imitation_samples": 30_000, "imitation_epochs": 10},
        "players": {4: {"imitation_samples": 150_000}},
        "note": "imitation of greedy's decisions, then PPO against greedy",
    },
    "mycelia": {
        "opponent": "greedy",
        "hyper": {"imitation_samples": 300_000, "imitation_epochs": 10},
        "note": "imitation of greedy's decisions, then PPO against greedy",
    },
    "mycelium": {
        "opponent": "greedy",
        "hyper": {
            "imitation_samples": 500_000,
            "imitation_epochs": 8,
            "learning_rate": 1e-4,
            "clip_range": 0.1,
            "ent_coef": 0.001,
        },
        "note": "imitation of greedy's decisions, then PPO against greedy with small steps (lr 1e-4, clip 0.1, "
        "entropy 0.001)",
    },
}
#: a game with no recipe of its own trains as Fungi did: self-play from scratch
FALLBACK = {"opponent": "self", "hyper": {}, "note": "self-play PPO from scratch (no recipe for this game yet)"}


def game_name(env_id: str) -> str:
    """``"mycelium_v2"`` -> ``"mycelium"``."""
    return env_id.rsplit("_v", 1)[0]


def recipe(env_id: str, options: dict[str, Any] | None = None, num_players: int | None = None) -> dict[str, Any]:
    """The default ``opponent`` and ``hyper`` (hyper-parameters over :data:`DEFAULTS`) of ``env_id``
    with game ``options``; ``num_players`` is the game's player count (default: from ``options``)."""
    name = game_name(env_id)
    base = RECIPES.get(name, FALLBACK)
    players = num_players if num_players is not None else (options or {}).get("num_players")
    hyper = dict(base["hyper"])
    hyper.update(base.get("players", {}).get(players, {}))
    return {
        "game": name if name in RECIPES else None,
        "opponent": base["opponent"],
        "hyper": hyper,
        "note": base["note"],
    }
