"""The learning curve of a training run: win rates against random and greedy as it learns.

:class:`LearningCurve` (an SB3 callback) pauses training at evenly spaced points (in
learner steps, or in wall-clock seconds under a time budget), plays ``games`` games of
the current policy (greedy argmax over the legal actions) against each baseline with
the seats rotated, and appends a row to ``learning_curve.csv``; the last point is taken
when training stops, and ``learning_curve.png`` is drawn then. The time spent
evaluating counts towards a time budget.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any

try:
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError as e:  # pragma: no cover - the train extra
    raise ImportError("mushgym.agents.curve needs the train extra: pip install 'mushgym[train]'") from e

from .evaluate import play_match, wilson_interval
from .factory import make_agent

OPPONENTS = ("random", "greedy")


class LearningCurve(BaseCallback):
    def __init__(
        self,
        game,
        encoder,
        path: Path,
        games: int = 100,
        every_steps: int | None = None,
        every_seconds: float | None = None,
        seed: int = 0,
    ) -> None:
        super().__init__()
        self.game = game
        self.encoder = encoder
        self.path = Path(path)
        self.games = int(games)
        self.every_steps = every_steps
        self.every_seconds = every_seconds
        self.seed = seed
        self.rows: list[dict[str, Any]] = []
        self._t0 = 0.0
        self._next_steps = every_steps or 0
        self._next_time = every_seconds or 0.0
        self._opponents = {
            name: make_agent(name, env_id=game.env_id, seed=seed + i) for i, name in enumerate(OPPONENTS)
        }

    def _on_training_start(self) -> None:
        self._t0 = time.perf_counter()

    def _due(self) -> bool:
        if self.every_steps and self.num_timesteps >= self._next_steps:
            self._next_steps += self.every_steps
            return True
        if self.every_seconds and time.perf_counter() - self._t0 >= self._next_time:
            self._next_time += self.every_seconds
            return True
        return False

    def _on_step(self) -> bool:
        if self.games > 0 and self._due():
            self.evaluate()
        return True

    def _on_training_end(self) -> None:
        if self.games > 0 and (not self.rows or self.rows[-1]["steps"] != self.num_timesteps):
            self.evaluate()
        if self.rows:
            plot_learning_curve(self.rows, self.path.with_suffix(".png"), self.game.env_id, self.games)

    def evaluate(self) -> dict[str, Any]:
        from .ppo_policy import PolicyAgent

        policy = self.model.policy
        was_training = policy.training
        agent = PolicyAgent(policy, self.encoder, deterministic=True, name="ppo")
        row: dict[str, Any] = {
            "steps": int(self.num_timesteps),
            "minutes": round((time.perf_counter() - self._t0) / 60, 2),
        }
        buf = getattr(self.model, "ep_info_buffer", None)
        row["train_mean_reward"] = round(sum(e["r"] for e in buf) / len(buf), 4) if buf else ""
        for name, opp in self._opponents.items():
            m = play_match(self.game, agent, opp, self.games, seed=self.seed + 7919 * len(self.rows))
            lo, hi = wilson_interval(m.wins, m.games)
            row.update(
                {
                    f"win_vs_{name}": round(m.wins / m.games, 4),
                    f"win_vs_{name}_lo": round(lo, 4),
                    f"win_vs_{name}_hi": round(hi, 4),
                    f"loss_vs_{name}": round(m.losses / m.games, 4),
                }
            )
        policy.set_training_mode(was_training)
        self.rows.append(row)
        new = not self.path.exists()
        with self.path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
        for name in OPPONENTS:
            self.logger.record(f"curve/win_vs_{name}", row[f"win_vs_{name}"])
        return row


def plot_learning_curve(
    rows: list[dict[str, Any]],
    path: Path,
    env_id: str,
    games: int | dict[str, int],
    opponents=OPPONENTS,
    xlabel: str = "learner environment steps",
    title: str | None = None,
) -> Path | None:
    """Win rates (with 95% intervals) against each of ``opponents`` versus ``rows[i]["steps"]``, as
    a PNG (an opponent whose rows hold no win rate is left out). ``games``: the games per point,
    one number for every opponent or one per opponent's name."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is in the train extra
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [r["steps"] for r in rows]
    colours = ("tab:blue", "tab:orange", "tab:green", "tab:red")
    for name, colour in zip(opponents, colours):
        if any(r.get(f"win_vs_{name}", "") == "" for r in rows):
            continue
        per_point = games.get(name) if isinstance(games, dict) else games
        ax.plot(
            x,
            [r[f"win_vs_{name}"] for r in rows],
            marker="o",
            color=colour,
            label=f"vs {name} ({per_point} games per point)",
        )
        ax.fill_between(
            x, [r[f"win_vs_{name}_lo"] for r in rows], [r[f"win_vs_{name}_hi"] for r in rows], color=colour, alpha=0.2
        )
    ax.axhline(0.5, color="grey", ls=":", lw=1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate (seats rotated, 95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title(title or f"MaskablePPO on {env_id}: {rows[-1]['minutes']:.1f} minutes")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
