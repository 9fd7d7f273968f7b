"""The loop of an expert-iteration run (:func:`mushgym.agents.expert.train_expert`): self-play
rounds, learner updates, snapshots for the expert, the learning curve, checkpoints and the
final files. One :class:`ExpertRun` per run folder."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .evaluate import play_match, wilson_interval
from .expert_learner import Learner, ReplayBuffer, one_hot, scheduled_learning_rate
from .factory import make_agent
from .ppo_policy import PolicyAgent, save_policy_weights
from .selfplay import SelfPlay

CURVE_OPPONENTS = ("greedy", "mcts:1000")


class LocalSelfPlay:
    """Self-play in this process: one :class:`SelfPlay` whose searches use ``threads`` cores."""

    def __init__(self, game, hp: dict, seed: int) -> None:
        self.worker = SelfPlay.from_hyper(game.env_id, game.options, hp, seed, threads=hp["threads"])
        self.chunk = int(hp["chunk"])
        self.actors = 0

    def collect(self) -> list[dict]:
        return [self.worker.play(self.chunk)]

    def set_network(self, net_arch, weights, encoder: str, version: int) -> None:
        self.worker.set_network(net_arch, weights, encoder, version=version)

    def stats(self) -> list[dict]:
        return [self.worker.stats()]

    def close(self) -> None:
        self.worker.close()


def _source(game, hp: dict, seed: int, actors: int, address: str | None):
    if actors:
        from .expert_ray import RaySelfPlay

        return RaySelfPlay(game, hp, seed, actors, address)
    return LocalSelfPlay(game, hp, seed)


class ExpertRun:
    def __init__(
        self,
        game,
        run_dir: Path,
        hp: dict,
        minutes: float,
        seed: int,
        actors: int = 0,
        address: str | None = None,
        progress_bar: bool = True,
        tensorboard: bool = True,
        resume: bool = False,
    ) -> None:
        self.game, self.run_dir, self.hp, self.seed = game, run_dir, hp, seed
        self.budget = 60.0 * minutes
        self.learner = Learner(game, hp, seed)
        self.buffer = ReplayBuffer(hp["buffer_size"], tuple(game.observation_shape), game.num_actions)
        self.rng = np.random.default_rng(seed + 1)
        self.prior_seconds = 0.0  # the wall clock of a resumed run before this process
        self.positions = 0
        self.owed = 0.0
        self.expert = "puct" if hp["expert"] == "puct" else "mcts"
        self.curve: list[dict] = []
        self.anchor: dict[str, np.ndarray] | None = None  # the warm start's decisions, mixed into batches
        self.timers = {"selfplay": 0.0, "learner": 0.0, "evaluation": 0.0, "checkpoint": 0.0}
        self._prior_timers: dict[str, float] = {}  # a resumed run's seconds before this process
        self.progress_bar, self.tensorboard = progress_bar, tensorboard
        if resume:
            self._load_checkpoint()
        self.source = _source(game, hp, seed + 7_919 * (self.positions + 1), actors, address)
        self.actors = actors
        self.opponents = {
            name: make_agent(name, env_id=game.env_id, seed=seed + 11 + i) for i, name in enumerate(CURVE_OPPONENTS)
        }

    # --- the loop ----------------------------------------------------------------------
    def train(self) -> dict:
        hp = self.hp
        writer = self._writer()
        bar = self._bar()
        t0 = time.perf_counter()
        elapsed = lambda: self.prior_seconds + time.perf_counter() - t0  # noqa: E731
        points = max(int(hp["curve_points"]), 0)
        every = self.budget / points if points else float("inf")
        next_ckpt = elapsed() + 60.0 * hp["checkpoint_minutes"]
        if self.hp["imitation_samples"] and not (self.run_dir / "imitation.json").exists():
            self._imitate()
        elif self.hp["imitation_mix"] > 0:  # a resumed run: the same teacher decisions again, not refitted
            self._keep_anchor(self._teacher_data())
        if hp["init_model"] and points and not self.curve:
            self._curve_point(elapsed(), writer)  # the model started from, before any update
        timed = [r for r in self.curve if r["updates"] > 0 or not hp["init_model"]]  # not the starting point
        next_point = (len(timed) + 1) * every if points else float("inf")
        last_snapshot = self.learner.updates
        if self.expert == "puct":
            self._hand_network()
        try:
            while elapsed() < self.budget:
                self._round(writer, elapsed() / self.budget)
                if self.expert == "puct" and self.learner.updates - last_snapshot >= hp["snapshot_every"]:
                    self._hand_network()
                    last_snapshot = self.learner.updates
                if elapsed() >= next_point and elapsed() < self.budget:
                    self._curve_point(elapsed(), writer)
                    next_point += every
                if elapsed() >= next_ckpt:
                    self._checkpoint(elapsed())
                    next_ckpt += 60.0 * hp["checkpoint_minutes"]
                if bar is not None:
                    bar.update(min(elapsed(), self.budget) - bar.n)
                    bar.set_postfix_str(
                        f"{self.positions:,} positions, {self.learner.updates:,} updates, expert {self.expert}",
                        refresh=False,
                    )
            if points:
                self._curve_point(elapsed(), writer)
            wall = elapsed()
            self._checkpoint(wall)
            stats = self.source.stats()
        finally:
            if bar is not None:
                bar.close()
            if writer is not None:
                writer.close()
            self.source.close()
        return self._finish(wall, time.perf_counter() - t0, stats)

    def _round(self, writer, fraction: float) -> None:
        """One self-play round, then the updates it pays for at the learning rate of ``fraction``
        (0-1) of the way through the budget."""
        t = time.perf_counter()
        for data in self.source.collect():
            self.buffer.add(data)
            self.positions += len(data["returns"])
            self.owed += len(data["returns"]) * float(self.hp["reuse"]) / self.hp["batch_size"]
        self.timers["selfplay"] += time.perf_counter() - t
        t = time.perf_counter()
        losses: list[dict] = []
        lr = scheduled_learning_rate(self.hp, fraction)
        self.learner.set_learning_rate(lr)
        size = self.hp["batch_size"]
        mixed = int(round(size * self.hp["imitation_mix"])) if self.anchor is not None else 0
        while self.owed >= 1.0 and self.buffer.size >= size - mixed:
            losses.append(
                self.learner.update(*self.buffer.sample(size - mixed, self.rng), extra=self._anchor_rows(mixed))
            )
            self.owed -= 1.0
        self.timers["learner"] += time.perf_counter() - t
        if writer is not None and losses:
            for key in losses[0]:
                writer.add_scalar(key, float(np.mean([d[key] for d in losses])), self.positions)
            writer.add_scalar("learner/learning_rate", lr, self.positions)
            writer.add_scalar(
                "selfplay/positions_per_second", self.positions / max(sum(self.timers.values()), 1e-9), self.positions
            )

    def _teacher_data(self) -> dict[str, np.ndarray]:
        """The warm start's teacher decisions (encoded observations; at most half the budget)."""
        from .imitation import collect_teacher_games

        teacher = make_agent(
            self.hp["imitation_teacher"], env_id=self.game.env_id, seed=self.seed, options=self.game.options
        )
        return collect_teacher_games(
            self.game,
            teacher,
            self.learner.encoder,
            int(self.hp["imitation_samples"]),
            seed=self.seed + 7_000_000,
            max_seconds=0.5 * self.budget,
        )

    def _keep_anchor(self, data: dict[str, np.ndarray]) -> None:
        """Keep the teacher's decisions for ``imitation_mix`` (none kept if no teacher game finished)."""
        if self.hp["imitation_mix"] > 0 and len(data["actions"]):
            self.anchor = data

    def _anchor_rows(self, n: int):
        """``n`` random warm-start decisions as (encoded obs, masks, one-hot targets, returns), or None."""
        if not n:
            return None
        a = self.anchor
        idx = self.rng.integers(0, len(a["actions"]), size=n)
        return a["obs"][idx], a["masks"][idx], one_hot(a["actions"][idx], self.game.num_actions), a["returns"][idx]

    def _imitate(self) -> None:
        """The warm start: the network fitted to the teacher's games (counted in the time budget;
        at most half of it goes to the teacher's games), reported in ``imitation.json``. With
        ``imitation_mix`` the decisions stay in memory, a share of every later batch."""
        from .imitation import pretrain

        t = time.perf_counter()
        data = self._teacher_data()
        collect = time.perf_counter() - t
        report: dict[str, Any] = {
            "teacher": str(self.hp["imitation_teacher"]),
            "games": int(data["games"]),
            "collect_seconds": collect,
        }
        if len(data["actions"]) >= 10:
            report.update(
                pretrain(
                    self.learner.policy,
                    data,
                    epochs=int(self.hp["imitation_epochs"]),
                    seed=self.seed,
                    learning_rate=float(self.hp["imitation_learning_rate"] or self.hp["learning_rate"]),
                )
            )
        else:
            report["skipped"] = True
        self._keep_anchor(data)
        self.timers["imitation"] = time.perf_counter() - t  # inside the loop's clock: counted in the budget
        (self.run_dir / "imitation.json").write_text(json.dumps(report, indent=2))

    def _hand_network(self) -> None:
        """The learner's current network to the expert (PUCT from now on)."""
        self.expert = "puct"
        self.source.set_network(
            list(self.hp["net_arch"]), self.learner.weights(), self.hp["encoder"], self.learner.updates
        )

    # --- the learning curve --------------------------------------------------------------
    def _curve_games(self) -> dict[str, int]:
        """Games per curve point against each of :data:`CURVE_OPPONENTS`."""
        return dict(zip(CURVE_OPPONENTS, (int(self.hp["curve_games"]), int(self.hp["curve_mcts_games"]))))

    def _curve_point(self, seconds: float, writer) -> dict:
        t = time.perf_counter()
        agent = PolicyAgent(self.learner.policy, self.learner.encoder, deterministic=True, name="network")
        row: dict[str, Any] = {
            "minutes": round(seconds / 60, 2),
            "positions": self.positions,
            "updates": self.learner.updates,
            "expert": self.expert,
        }
        games = self._curve_games()
        for name, opp in self.opponents.items():
            n = int(games[name])
            key = name.replace(":", "")
            if n <= 0:
                row.update({f"win_vs_{key}": "", f"win_vs_{key}_lo": "", f"win_vs_{key}_hi": ""})
                continue
            m = play_match(self.game, agent, opp, n, seed=self.seed + 104_729 * (len(self.curve) + 1))
            lo, hi = wilson_interval(m.wins, m.games)
            row.update(
                {
                    f"win_vs_{key}": round(m.wins / m.games, 4),
                    f"win_vs_{key}_lo": round(lo, 4),
                    f"win_vs_{key}_hi": round(hi, 4),
                }
            )
            if writer is not None:
                writer.add_scalar(f"curve/win_vs_{key}", m.wins / m.games, self.positions)
        self.curve.append(row)
        path = self.run_dir / "learning_curve.csv"
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerows(self.curve)
        self.timers["evaluation"] += time.perf_counter() - t
        if (
            self.hp["expert"] == "auto"
            and self.expert == "mcts"
            and row["win_vs_greedy"] != ""
            and row["win_vs_greedy"] >= self.hp["puct_from"]
        ):
            self._hand_network()
        return row

    # --- checkpoints ------------------------------------------------------------------
    def _checkpoint(self, seconds: float) -> None:
        """Weights only: the network, the optimizer state, the replay buffer, and progress.json."""
        t = time.perf_counter()
        ckpt = self.run_dir / "checkpoints"
        ckpt.mkdir(parents=True, exist_ok=True)
        torch.save(
            {k: v.detach().cpu() for k, v in self.learner.policy.state_dict().items()},
            ckpt / f"network_{self.learner.updates}.pt",
        )
        torch.save(self.learner.optimizer.state_dict(), ckpt / "optimizer.pt")
        np.savez(ckpt / "buffer.tmp.npz", **self.buffer.arrays())
        (ckpt / "buffer.tmp.npz").replace(ckpt / "buffer.npz")
        progress = {
            "seconds": seconds,
            "positions": self.positions,
            "updates": self.learner.updates,
            "owed": self.owed,
            "expert": self.expert,
            "curve": self.curve,
            "network": f"network_{self.learner.updates}.pt",
            "timers": self._total_timers(),
        }
        tmp = self.run_dir / "progress.tmp"
        tmp.write_text(json.dumps(progress, indent=2))
        tmp.replace(self.run_dir / "progress.json")
        self.timers["checkpoint"] += time.perf_counter() - t

    def _load_checkpoint(self) -> None:
        from mushgym.weights import load_weights

        path = self.run_dir / "progress.json"
        if not path.exists():
            raise ValueError(f"cannot resume {self.run_dir}: no progress.json (no checkpoint was written)")
        progress = json.loads(path.read_text())
        ckpt = self.run_dir / "checkpoints"
        load_weights(self.learner.policy, ckpt / progress["network"])
        try:
            state = torch.load(ckpt / "optimizer.pt", map_location="cpu", weights_only=True)
            self.learner.optimizer.load_state_dict(state)
        except Exception as err:
            raise ValueError(
                f"cannot resume {self.run_dir}: {ckpt / 'optimizer.pt'} is not an optimizer state "
                f"({type(err).__name__}: {err})"
            ) from None
        with np.load(ckpt / "buffer.npz", allow_pickle=False) as arrays:
            self.buffer.load({k: arrays[k] for k in arrays.files})
        self.learner.updates = int(progress["updates"])
        self.positions, self.owed = int(progress["positions"]), float(progress["owed"])
        self.prior_seconds = float(progress["seconds"])
        self.expert, self.curve = progress["expert"], list(progress["curve"])
        self._prior_timers = dict(progress.get("timers", {}))

    # --- the end ------------------------------------------------------------------------
    def _total_timers(self) -> dict[str, float]:
        """Seconds per part of the run, a resumed run's earlier seconds included."""
        return {k: v + self._prior_timers.get(k, 0.0) for k, v in self.timers.items()}

    def _finish(self, wall: float, this_run: float, stats: list[dict]) -> dict:
        from .curve import plot_learning_curve

        hp_out = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.hp.items()}
        meta = {
            "env_id": self.game.env_id,
            "encoder": self.hp["encoder"],
            "options": dict(self.game.options),
            "algo": "expert-iteration",
            "seed": self.seed,
            "positions": self.positions,
            "updates": self.learner.updates,
            "wall_seconds": wall,
            "hyper": hp_out,
        }
        final = save_policy_weights(self.learner.policy, self.run_dir / "final.pt", meta, self.hp["encoder"])
        search = sum(s["seconds_search"] for s in stats)
        network = sum(s["seconds_network"] for s in stats)
        timers = self._total_timers()
        total = max(wall, 1e-9)
        timing = {
            "wall_seconds": wall,
            "wall_seconds_this_process": this_run,
            "actors": self.actors,
            "positions": self.positions,
            "updates": self.learner.updates,
            "games": sum(s["games"] for s in stats),
            "simulations": sum(s["simulations"] for s in stats),
            "positions_per_second": self.positions / total,
            "updates_per_second": self.learner.updates / total,
            "seconds_selfplay": timers["selfplay"],
            "seconds_learner": timers["learner"],
            "seconds_evaluation": timers["evaluation"],
            "seconds_checkpoint": timers["checkpoint"],
            "seconds_search_in_workers": search,
            "seconds_network_in_workers": network,
            "share_search": timers["selfplay"] / total,
            "share_learner": timers["learner"] / total,
            "share_evaluation": timers["evaluation"] / total,
            "seconds_imitation": timers.get("imitation", 0.0),
            # of the self-play time, the part the workers spent in network calls (PUCT)
            "share_network": (timers["selfplay"] * network / search / total) if search > 0 else 0.0,
            "expert_at_end": self.expert,
            "network_versions": [int(s["network_version"]) for s in stats],  # per worker: -1 none yet, else updates
        }
        (self.run_dir / "timing.json").write_text(json.dumps(timing, indent=2))
        if self.curve:
            rows = [{**r, "steps": r["positions"]} for r in self.curve]
            games = {name.replace(":", ""): n for name, n in self._curve_games().items()}
            plot_learning_curve(
                rows,
                self.run_dir / "learning_curve.png",
                self.game.env_id,
                games,
                opponents=list(games),
                xlabel="self-play positions",
                title=f"Expert iteration on {self.game.env_id}: {rows[-1]['minutes']:.1f} minutes",
            )
        return {"run_dir": self.run_dir, "final": final, "timing": timing, "curve": self.curve}

    def _writer(self):
        if not self.tensorboard:
            return None
        from torch.utils.tensorboard import SummaryWriter

        return SummaryWriter(str(self.run_dir / "tb"))

    def _bar(self):
        if not self.progress_bar:
            return None
        from tqdm import tqdm

        bar = tqdm(
            total=round(self.budget),
            unit="s",
            dynamic_ncols=True,
            desc="expert iteration (time budget)",
            bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s [{elapsed}<{remaining}]{postfix}",
        )
        bar.update(min(self.prior_seconds, self.budget))
        return bar
