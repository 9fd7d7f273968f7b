"""Wall time of the command line's quick answers: ``mushgym --help``, ``list``, ``describe ENV``.

    python benchmarks/cli_startup.py [--runs 10] [--env fungi_v0]

Each command runs ``--runs`` times in a fresh interpreter (after one run that fills the catalog,
``mushgym.catalog``); printed: the fastest and the median wall time, the CPU time of the fastest
run, and whether the command imported numba (``python -X importtime``). The target is under
0.5 s per command; on a busy machine compare the CPU time, which other processes do not stretch.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

COMMANDS = (["--help"], ["list"], ["describe", "{env}"])


def run(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of ``python -m mushgym ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mushgym", *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports_numba(args: list[str]) -> bool:
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "mushgym", *args],
                         capture_output=True, text=True, check=True)
    return any(line.split("|")[-1].strip() == "numba" for line in out.stderr.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--env", default="fungi_v0")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be >= 1")
    print(f"python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}, {args.runs} runs each")
    for command in COMMANDS:
        argv = [a.format(env=args.env) for a in command]
        run(argv)  # fills the catalog if it is cold
        times = [run(argv) for _ in range(args.runs)]
        fastest = min(times)
        median = statistics.median(t for t, _ in times)
        print(f"mushgym {' '.join(argv):22s} fastest {fastest[0]:.3f} s (CPU {fastest[1]:.3f} s), "
              f"median {median:.3f} s, imports numba: {imports_numba(argv)}")


if __name__ == "__main__":
    main()
