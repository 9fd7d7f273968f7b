"""Training progress bars that tell the truth: on wall-clock time when a time budget is given.

SB3's own bar counts environment steps towards ``total_timesteps``; a run stopped by
``--minutes`` long before that showed an ETA of hours. :class:`TimeProgressBar` fills
in seconds of the budget instead, with the steps done and their rate alongside.
"""

from __future__ import annotations

import time
from typing import Callable

try:
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError as e:  # pragma: no cover - the train extra
    raise ImportError("mushgym.agents.progress needs the train extra: pip install 'mushgym[train]'") from e


class TimeProgressBar(BaseCallback):
    """A tqdm bar over ``seconds`` of wall clock (the time budget), refreshed at most every ``every`` s."""

    def __init__(
        self, seconds: float, every: float = 0.5, clock: Callable[[], float] = time.perf_counter, file=None
    ) -> None:
        super().__init__()
        self.seconds = float(seconds)
        self.every = every
        self.clock = clock
        self.file = file
        self.bar = None
        self._t0 = 0.0
        self._last = -1e9

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self._t0 = self.clock()
        self.bar = tqdm(
            total=round(self.seconds),
            unit="s",
            file=self.file,
            dynamic_ncols=True,
            bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s [{elapsed}<{remaining}]{postfix}",
            desc="training (time budget)",
        )

    def elapsed(self) -> float:
        return self.clock() - self._t0

    def _on_step(self) -> bool:
        now = self.clock()
        if now - self._last >= self.every:
            self._last = now
            self._refresh()
        return True

    def _refresh(self) -> None:
        done = min(self.elapsed(), self.seconds)
        self.bar.update(done - self.bar.n)
        steps = self.num_timesteps
        self.bar.set_postfix_str(f"{steps:,} steps, {steps / max(self.elapsed(), 1e-9):,.0f}/s", refresh=False)

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self._refresh()
            self.bar.close()
