"""``mushgym bench``: random-game throughput of every env, through every API.

    mushgym bench                      # every registered env, full table, anchors
    mushgym bench fungi_v0 --quick     # the short table (seconds per env; the vector API at 1,024
                                       # envs through its serial loop, so the parallel loops' long
                                       # compilation is left to the full table)
    mushgym bench --json bench.json    # everything measured, machine-readable
    python -m mushgym.bench ...        # the same without the CLI

For each env it measures, as steps/s and games/s (median of several repeats,
with the min-max spread):

(a) in-kernel random rollouts (``Game.random_rollouts``) on 1 thread and on all;
(b) the vector API (``mushgym.vector``) at batch 1, 64, 1,024 and 8,192, random
    legal actions sampled in compiled code (``sample_random_actions``);
(c) the PettingZoo AEC env, raw and with PettingZoo's standard wrappers, driven by
    the standard ``agent_iter`` loop with ``env.action_space(agent).sample(mask)``,
    next to a do-nothing AEC env inside the same wrappers measured in the same run
    (its rate is the ceiling of that loop on this machine);
(d) compile time on a cold numba cache and start-up time on a warm one, each in a
    fresh subprocess;
(e) whole games played by Python agents through the episode loop
    (``mushgym.episodes.play``, a random agent per seat) at batch 1 and 128;

and the memory of one state. On a cold numba cache a run says first how long compiling will
take (a rough figure per kernel group, ``mushgym.compiling.GROUPS``). Every run starts with one line naming the
machine (the CPU's
model, family and model number, cpu0's caches, the threads, the load at the start; the
report's ``machine``): the project's VMs change CPU and cache from one day to the next, and the
vector API's ratios move with them. In the full table, (a) and (b) are timed in
interleaved rounds (each repeat is one round of every measurement), so that the
ratios between them (vector / rollouts, batch 8,192 / batch 1,024) are the medians
of each round's ratio: they hold on a shared machine whose speed drifts during a
run, where ratios of rates measured minutes apart do not. When PettingZoo's classic games or OpenSpiel are
installed, their random games through the same loops are measured in the same
run as anchors, and mushgym's figures are printed as ratios to them.

An ENV is a registered env id (``mushgym.list_envs()``) or the import path of a
module that defines ``Game``, ``raw_env`` and ``env`` (e.g. a test game).

Modules: ``measure`` (a row, timed repeats, the machine, env names), ``rows`` (the
measurements (a)-(e) of one env), ``anchors`` (peer libraries), ``report`` (ratios,
tables, JSON) and ``command`` (the command line).
"""

from .anchors import bench_anchors
from .command import main
from .measure import (
    BATCH_SIZES,
    Row,
    cpu_caches,
    describe_machine,
    machine,
    resolve_env,
    round_ratio,
    threading_layer,
    timed,
    timed_rounds,
)
from .report import derived
from .rows import (
    aec_random_loop,
    bench_aec,
    bench_env,
    bench_episodes,
    bench_rollouts,
    bench_startup,
    bench_throughput,
    bench_vector,
)

__all__ = [
    "BATCH_SIZES",
    "Row",
    "aec_random_loop",
    "bench_aec",
    "bench_anchors",
    "bench_env",
    "bench_episodes",
    "bench_rollouts",
    "bench_startup",
    "bench_throughput",
    "bench_vector",
    "cpu_caches",
    "derived",
    "describe_machine",
    "machine",
    "main",
    "resolve_env",
    "round_ratio",
    "threading_layer",
    "timed",
    "timed_rounds",
]
