"""A noisy neighbour for a bench run: copy an array larger than the L3 over and over.

    python benchmarks/noisy_neighbour.py --seconds 330 &
    mushgym bench fungi_v0 mycology_v1 --no-startup --no-anchors --json busy_run.json

The project's VMs share their host with other tenants, and the figure of the vector API at
batch 8,192 against in-kernel rollouts used to miss on a busy host. This process makes a
busy host on purpose, inside the VM: it takes one core's time slices and streams memory
through the cache the cores share, so that a run beside it shows whether the figure holds
under that load. It prints how many copies it made and the bytes per second each way.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=330.0, help="how long to run (default 330, one bench run)")
    p.add_argument("--mib", type=int, default=512, help="size of the array copied, MiB (default 512)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.mib <= 0:
        p.error("--seconds and --mib must be > 0")
    a = np.ones(args.mib * 1024 * 1024 // 8, np.int64)
    b = np.empty_like(a)
    start = time.perf_counter()
    copies = 0
    while time.perf_counter() - start < args.seconds:
        np.copyto(b, a)
        copies += 1
    elapsed = time.perf_counter() - start
    print(f"noisy neighbour: {copies} copies of {args.mib} MiB in {elapsed:.0f} s, "
          f"{copies * a.nbytes / elapsed / 1e9:.1f} GB/s each way")


if __name__ == "__main__":
    main()
