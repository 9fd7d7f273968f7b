"""Run every benchmark and refresh the files in benchmarks/.

    python benchmarks/run_all.py            # full bench (+ anchors) and the batch-scaling plot
    python benchmarks/run_all.py --quick    # the short table only

Writes ``benchmarks/results.json`` (everything ``mushgym bench`` measured),
``benchmarks/results.txt`` (the printed tables), ``batch_scaling.json`` and
``batch_scaling.png``. Paste the tables into ``benchmarks/README.md`` with the
machine they were measured on.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None) -> int:
    import argparse

    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("envs", nargs="*")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--budget", type=float, default=None)
    own, _ = p.parse_known_args(argv)
    from mushgym.bench import main as bench_main

    buf = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, s):
            sys.__stdout__.write(s)
            buf.write(s)
            return len(s)

    with contextlib.redirect_stdout(Tee()):
        status = bench_main(argv + ["--plain", "--json", os.path.join(HERE, "results.json")])
    with open(os.path.join(HERE, "results.txt"), "w") as f:
        f.write(buf.getvalue())
    if "--quick" not in argv:
        sys.path.insert(0, HERE)
        import plot_batch_scaling

        plot_args = list(own.envs) + (["--budget", str(own.budget)] if own.budget else [])
        plot_batch_scaling.main(plot_args)
    return status


if __name__ == "__main__":
    sys.exit(main())
