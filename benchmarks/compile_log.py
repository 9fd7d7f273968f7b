"""Where a cold numba cache spends its time: sum a ``MUSHGYM_COMPILE_LOG`` file.

    MUSHGYM_COMPILE_LOG=/tmp/compile.log python -m pytest -q     # (cold cache: delete *.nbi/*.nbc)
    python benchmarks/compile_log.py /tmp/compile.log [--top 40]

Each line of the log is one outermost compilation (``mushgym.compiling``): process id,
seconds, function, signature. The report gives the compile seconds per function and
signature, how many processes compiled the same one (more than one: the cache was cold in
each at once, the work was done twice), and the totals per module.
"""

from __future__ import annotations

import argparse
import collections


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args(argv)
    per_sig: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    pids: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    per_module: dict[str, float] = collections.defaultdict(float)
    with open(args.log) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4:
                continue
            pid, seconds, fn, sig = parts
            per_sig[fn, sig].append(float(seconds))
            pids[fn, sig].add(pid)
            per_module[fn.rsplit(".", 1)[0]] += float(seconds)
    total = sum(sum(v) for v in per_sig.values())
    dup = sum(sum(v) - max(v) for v in per_sig.values())
    print(
        f"{total:.0f} compile-seconds in {sum(len(v) for v in per_sig.values())} compilations; "
        f"{dup:.0f} s of them repeat a function and signature another process also compiled"
    )
    print(f"\n{'seconds':>8} {'times':>5}  function [signature]")
    for (fn, sig), v in sorted(per_sig.items(), key=lambda kv: -sum(kv[1]))[: args.top]:
        print(f"{sum(v):8.1f} {len(v):5d}  {fn} {sig[:100]}")
    print(f"\n{'seconds':>8}  module")
    for mod, s in sorted(per_module.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{s:8.1f}  {mod}")


if __name__ == "__main__":
    main()
