"""The vector loop's own cost per env step, on the toy game (whose kernels cost almost nothing).

    python benchmarks/loop_overhead.py            # nanoseconds per env step, 4,096 envs, 1 thread

Measured 2026-11-30 on the AMD EPYC (Zen 3) 2-vCPU machine, alternating with the code before the
engine work in the same minutes: 41-46 ns before; 240 ns with the arrays passed as one named
bundle (every read of an array from the tuple took a reference); 29 ns with the bundle read
through borrowed views (mushgym.core.rows.borrow).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mushgym.vector as mv  # noqa: E402
from toygame.game import ToyGame  # noqa: E402


def main() -> None:
    v = mv.from_game(ToyGame(), 4096, seed=0, threads=1, parallel=True)
    v.reset()
    for _ in range(50):
        v.step(v.sample_random_actions())
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(200):
            v.step(v.sample_random_actions())
        best = min(best, (time.perf_counter() - t) / (200 * 4096) * 1e9)
    print(f"{best:.1f} ns per env step")


if __name__ == "__main__":
    main()
