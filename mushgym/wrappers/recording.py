"""Record the games of a PettingZoo AEC env as replay files (:mod:`mushgym.replay`).

    from mushgym.wrappers import RecordReplay
    env = RecordReplay(mushgym.make("fungi_v0"), "replays/")     # a folder: one file per game
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else policy(obs))
    env.close()
    # replays/fungi_v0-seed3.jsonl; `mushgym replay replays/fungi_v0-seed3.jsonl --out game.html`

Works on any mushgym AEC env, wrapped (``mushgym.make``) or raw, since the game's seed and
state are read from the unwrapped env (Gymnasium's ``RecordVideo`` does not work with AEC
envs; ``render_mode="rgb_array"`` gives frames, and this wrapper the exact game, from which
``mushgym replay`` draws every frame). ``explain(dict)`` before a ``step`` attaches the
acting agent's reasons to that move (see :mod:`mushgym.replay`). A game continued from
``set_state`` has no seed and is not recorded; one ended by an illegal move (the standard
wrappers end it as a loss) is saved with that reason instead of returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from ..replay import SUFFIX, ReplayWriter


class RecordReplay(BaseWrapper):
    """Saves each game played through the wrapped AEC env as a replay file (module docstring).
    ``path``: a folder (one ``<env>-seed<S>.jsonl`` per game; a game whose seed repeats gets
    ``-2``, ``-3``...) or a ``.jsonl`` file (each game overwrites it); ``players``: the seats'
    names for the header."""

    def __init__(self, env, path: str | Path, players: list[str] | None = None) -> None:
        super().__init__(env)
        self.path = Path(path)
        self.players = players
        self.writer: ReplayWriter | None = None
        self.files: list[Path] = []
        self._explanation: dict | None = None

    def _file_for(self, seed: int) -> Path:
        if self.path.suffix == SUFFIX:
            return self.path
        base = self.path / f"{self.env.unwrapped.game.env_id}-seed{seed}"
        path, n = base.with_suffix(SUFFIX), 1
        while path in self.files or path.exists():
            n += 1
            path = Path(f"{base}-{n}{SUFFIX}")
        return path

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._finish()
        self.env.reset(seed=seed, options=options)
        raw = self.env.unwrapped
        if raw.game_seed is not None:
            path = self._file_for(raw.game_seed)
            self.writer = ReplayWriter(path, raw.game, raw.game_seed, self.players)
            self.files.append(path)

    def explain(self, explanation: dict | None) -> None:
        """The next move's reasons: ``{"candidates": [(action, weight), ...], "weight_kind": ...,
        "value": ...}`` (an agent's ``explain(...)`` gives one)."""
        self._explanation = explanation

    def step(self, action: Any) -> None:
        raw = self.env.unwrapped
        writer = self.writer
        live = writer is not None and not writer.ended and not raw.game.is_terminal(raw.game_state)
        agent = self.env.agent_selection
        dead = self.env.terminations.get(agent, False) or self.env.truncations.get(agent, False)
        if live and not dead and action is not None:
            mask = raw.game.legal_mask(raw.game_state)
            a = int(action) if isinstance(action, (int,)) or hasattr(action, "__index__") else None
            if a is not None and 0 <= a < mask.shape[0] and mask[a]:
                writer.move(raw.game_state, a, self._explanation)
            else:
                writer.end(reason=f"illegal action {action!r} by seat {raw.game.current_player(raw.game_state)}")
        self._explanation = None
        self.env.step(action)
        if writer is not None and not writer.ended and raw.game.is_terminal(raw.game_state):
            writer.end(raw.game_state)

    def _finish(self) -> None:
        if self.writer is not None and not self.writer.ended:
            self.writer.close()  # a game stopped midway: its moves so far, no end line
        self.writer = None

    def close(self) -> None:
        self._finish()
        super().close()
