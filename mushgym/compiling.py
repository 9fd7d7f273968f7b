"""Compilation made visible, and done ahead of time on request.

numba compiles a game's kernels the first time they are called and caches the
machine code on disk; later processes load it in well under a second. On a cold
cache the first call takes seconds (tens of seconds for the vector API), so:

* :func:`install_compile_notice` (called when ``mushgym`` is imported) prints one
  line to stderr the first time a kernel group of a game really compiles in a
  process (numba's ``numba:compile`` event fires on cache misses only), e.g.::

      mushgym: compiling fungi_v0 game kernels (first use; ~10 s, cached afterwards)

  Set ``MUSHGYM_COMPILE_NOTICE=0`` to silence it. ``MUSHGYM_COMPILE_LOG=PATH`` appends a line
  per outermost compilation (process id, seconds, function, signature) to ``PATH``, to find
  where a cold cache spends its time (``benchmarks/compile_log.py`` sums it).
* :func:`compile_envs` (``mushgym compile [ENV...]``) compiles everything a game
  offers (the AEC/functional kernels, in-kernel rollouts, and the vector and
  single-agent vector loops in their serial and parallel forms), each group in
  its own worker process so both cores work at once, filling the cache for
  every later process.

Where the time goes (fungi_v0, cold cache, measured with numba's compile events on a
loaded 2-core machine): the AEC path ~10 s; the serial ``vec_step`` ~55 s, nearly all
in that one function, into which the batch loops inline ``observe`` five times (it is
``inline='always'``) and ``_vec_reset_one`` twice; the parallel (prange) forms of the
vector and single-agent loops took over 12 minutes between them. Those costs sit in
the kernels and batch loops themselves, not in the Python layer (which compiles one
specialisation per kernel), so this module makes them visible and movable (ahead of
time, in parallel) rather than smaller.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Callable, Iterable, Sequence

# kernel group -> (what it is, rough first-use cost on an idle 2-core machine, seconds). The
# parallel (prange) forms of the batch loops take several times longer than the serial ones;
# the vector classes use them from PARALLEL_THRESHOLD envs up (mushgym.vector).
GROUPS = {
    "game": ("game kernels", 10),
    "rollouts": ("in-kernel rollouts", 20),
    "vector": ("vector API kernels", 30),
    "vector_parallel": ("parallel vector API kernels (256+ envs)", 180),
    "single_agent": ("single-agent vector kernels", 30),
    "single_agent_parallel": ("parallel single-agent vector kernels (256+ envs)", 180),
    "search": ("search loop (information-set MCTS)", 30),
}

_announced: set[tuple[str, str]] = set()
_installed = False
_depth = 0   # compilations in progress: only the outermost one (what the user called) is announced
_kernel_modules: dict[str, str] = {}   # kernel module name -> env id (filled lazily)


def kernel_group(name: str) -> str:
    """The group of :data:`GROUPS` a kernel belongs to, from its name."""
    base = name.split("__")[0]          # batch loops may carry a source digest
    parallel = base.startswith("par_")
    if parallel:
        base = base[len("par_"):]
    if base.startswith(("sa_", "_sa_")):
        return "single_agent_parallel" if parallel else "single_agent"
    if base.startswith(("vec_", "_vec_")):
        return "vector_parallel" if parallel else "vector"
    if base in ("random_rollouts", "play_random_game"):
        return "rollouts"
    if base.startswith(("mcts_", "_search_", "search_", "puct_", "_puct_")):
        return "search"
    return "game"


def _env_of_module(module: str) -> str | None:
    """The env id whose kernels live in ``module`` (e.g. mushgym.envs.fungi.rules -> fungi_v0)."""
    if module in _kernel_modules:
        return _kernel_modules[module]
    if not module.startswith("mushgym.envs."):
        return None
    from . import registry

    package = ".".join(module.split(".")[:3])     # mushgym.envs.<game>
    version = re.search(r"_v\d+$", module)        # e.g. observation_v1: a module of the game's v1 env
    found = None
    for env_id in registry.list_envs():
        try:
            kernels = registry.env_module(env_id).Game.kernels
        except Exception:  # pragma: no cover - a broken game module reports itself elsewhere
            continue
        name = getattr(kernels, "__name__", None) or ""
        if name == module:
            found = env_id
            break
        if ".".join(name.split(".")[:3]) == package and (
                found is None or (version is not None and env_id.endswith(version.group()))):
            found = env_id   # another module of the same game (its layout, its helpers; a _vN module: that env)
    if found is None:  # a kernel module of a game package without a registered env
        found = module.split(".")[2]
    _kernel_modules[module] = found
    return found


def notice_enabled() -> bool:
    return os.environ.get("MUSHGYM_COMPILE_NOTICE", "1").lower() not in ("0", "false", "no", "off")


_log_start: list[float] = []


def _log_compile_end(event) -> None:
    """Append the outermost compilation just ended to ``MUSHGYM_COMPILE_LOG`` (if set)."""
    path = os.environ.get("MUSHGYM_COMPILE_LOG")
    if not path or not _log_start:
        return
    try:
        seconds = time.perf_counter() - _log_start.pop()
        fn = event.data["dispatcher"].py_func
        sig = event.data.get("args")
        with open(path, "a") as f:
            f.write(f"{os.getpid()}\t{seconds:.3f}\t{fn.__module__}.{fn.__qualname__}\t{sig}\n")
    except Exception:  # a log line must never break a compilation
        return


def _on_compile_start(event) -> None:
    global _depth
    _depth += 1
    if _depth > 1:
        return
    if os.environ.get("MUSHGYM_COMPILE_LOG"):
        _log_start.append(time.perf_counter())
    try:
        dispatcher = event.data["dispatcher"]
        fn = dispatcher.py_func
        env_id = _env_of_module(fn.__module__)
        if env_id is None:
            return
        group = kernel_group(fn.__name__)
        key = (env_id, group)
        if key in _announced:
            return
        _announced.add(key)
        if not notice_enabled():
            return
        what, seconds = GROUPS[group]
        rough = f"~{seconds} s" if seconds < 120 else f"~{seconds // 60} min"
        print(f"mushgym: compiling {env_id} {what} (first use; {rough} on 2 idle cores, cached afterwards; "
              f"`mushgym compile {env_id}` does it ahead of time)", file=sys.stderr, flush=True)
    except Exception:  # a notice must never break a compilation
        return


def install_compile_notice() -> None:
    """Listen to numba's compile events (once per process)."""
    global _installed
    if _installed:
        return
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - numba without the event API
        return

    class _Listener(event.Listener):
        def on_start(self, ev):
            _on_compile_start(ev)

        def on_end(self, ev):
            global _depth
            _depth = max(0, _depth - 1)
            if _depth == 0:
                _log_compile_end(ev)

    event.register("numba:compile", _Listener())
    _installed = True


# --- ahead-of-time compilation -------------------------------------------------------

def _exercise(env_id: str, group: str) -> None:
    """Call every kernel of ``group`` once through the public API (compiling or loading it)."""
    import mushgym

    if group == "game":
        env = mushgym.make(env_id)
        env.reset(seed=0)
        obs, *_ = env.last()
        env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
        game = env.unwrapped.game
        state = game.new_state(0)
        game.observe(state, 0)
        game.returns(state)
    elif group == "rollouts":
        mushgym.game(env_id).random_rollouts(2, seed=0)
    elif group in ("vector", "vector_parallel"):
        import mushgym.vector

        vec = mushgym.vector.make(env_id, num_envs=2, seed=0, parallel=group == "vector_parallel")
        vec.reset()
        vec.step(vec.sample_random_actions())
        vec.step(vec.sample_random_actions())
    elif group in ("single_agent", "single_agent_parallel"):
        import mushgym.vector

        sa = mushgym.vector.make_single_agent(env_id, num_envs=2, seed=0, parallel=group == "single_agent_parallel")
        sa.reset()
        sa.step(sa.action_masks().argmax(axis=1))
    elif group == "search":
        from .search import Searcher

        game = mushgym.game(env_id)
        state = game.new_state(0)
        try:
            Searcher(game, simulations=4).search(state, game.current_player(state))
        except ValueError:   # a game the search refuses (hidden information and no redraw)
            pass
    else:
        raise ValueError(f"unknown kernel group {group!r}; groups: {list(GROUPS)}")


def _worker(job: tuple[str, str]) -> tuple[str, str, float]:
    t0 = time.perf_counter()
    _exercise(*job)
    return job[0], job[1], time.perf_counter() - t0


def compile_envs(env_ids: Sequence[str] | None = None, groups: Iterable[str] = tuple(GROUPS),
                 workers: int | None = None, report: Callable[[str], None] | None = print) -> dict:
    """Compile (or load) every kernel of ``env_ids`` (default: all) into numba's cache.

    Each (env, group) is a job; ``workers`` processes (default: one per core) take
    jobs in turn, so the groups compile side by side. Returns ``{(env, group): seconds}``.
    """
    import mushgym

    env_ids = list(env_ids or mushgym.list_envs())
    for env_id in env_ids:
        if env_id not in mushgym.list_envs():
            raise ValueError(f"unknown env id {env_id!r}; registered envs: {mushgym.list_envs()}")
    groups = list(groups)
    for g in groups:
        if g not in GROUPS:
            raise ValueError(f"unknown kernel group {g!r}; groups: {list(GROUPS)}")
    # the biggest jobs first, so two workers finish together
    jobs = sorted(((e, g) for e in env_ids for g in groups), key=lambda j: -GROUPS[j[1]][1])
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    done: dict[tuple[str, str], float] = {}
    if workers == 1:
        for job in jobs:
            env_id, group, seconds = _worker(job)
            done[(env_id, group)] = seconds
            if report:
                report(f"{env_id:14s} {GROUPS[group][0]:30s} {seconds:6.1f} s")
        return done
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # spawn: numba's threading layers and fork do not mix
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_worker, job) for job in jobs]
        for fut in as_completed(futures):
            env_id, group, seconds = fut.result()
            done[(env_id, group)] = seconds
            if report:
                report(f"{env_id:14s} {GROUPS[group][0]:30s} {seconds:6.1f} s")
    return done


# --- the first AEC step, on both cores --------------------------------------------------
# On a cold cache the first ``reset`` compiles the deal and the first mask (``init``,
# ``aec_refresh``), then ``last()`` compiles ``observe`` and the first ``step`` compiles
# ``aec_advance``: one core works, the other waits. :func:`compile_ahead` starts one
# short-lived worker process that compiles ``observe`` and ``aec_advance`` for the same
# argument types into numba's cache while this process compiles the deal; when this
# process reaches them, numba loads them from the cache (numba re-reads its cache index at
# every first call). On a warm cache (the usual case) nothing is started: the check is one
# ``stat`` per kernel. ``MUSHGYM_COMPILE_WORKERS=0`` turns it off (the test suite does, as
# its own processes already fill both cores).

AHEAD = ("observe", "aec_advance")
_ahead_started: dict[str, object] = {}


def compile_workers_enabled() -> bool:
    if os.environ.get("MUSHGYM_COMPILE_WORKERS", "1").lower() in ("0", "false", "no", "off"):
        return False
    from numba.core import config

    return not config.DISABLE_JIT and (os.cpu_count() or 1) > 1


def _ahead_signatures(game) -> dict[str, tuple]:
    """The argument types the AEC env calls ``observe`` and ``aec_advance`` with."""
    import numba
    import numpy as np

    from .game import MASK_DTYPE, OBS_DTYPE

    state = np.zeros(1, np.int64)
    mask = np.zeros(1, MASK_DTYPE)
    obs = np.zeros(1, OBS_DTYPE)
    types_of = lambda *args: tuple(numba.typeof(a) for a in args)  # noqa: E731
    return {"observe": types_of(state, 0, game.config, obs, game.work),
            "aec_advance": types_of(state, 0, game.config, mask, game.work)}


def _cold(dispatcher) -> bool:
    """No cache index for ``dispatcher`` yet (numba would compile it on first call)."""
    try:
        return not os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:   # a numba without these internals, or a function without cache=True
        return False


def _start_worker(key: str, argv: list[str]) -> object | None:
    """Start ``python -m mushgym.compiling *argv`` as the worker of ``key`` (once per key and
    process); returns the ``subprocess.Popen`` or None."""
    if key in _ahead_started:
        return None
    _ahead_started[key] = None
    import subprocess

    env = dict(os.environ, MUSHGYM_COMPILE_WORKERS="0", MUSHGYM_COMPILE_NOTICE="0")
    try:
        proc = subprocess.Popen([sys.executable, "-m", "mushgym.compiling", *argv],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    except OSError:      # no process to spare: this process compiles everything itself
        return None
    _ahead_started[key] = proc
    return proc


def compile_ahead(game, env_id: str) -> object | None:
    """Start the worker of the comment above for ``game`` if its AEC kernels are not cached;
    returns the ``subprocess.Popen`` (or None). Once per env id and process."""
    if env_id in _ahead_started or not compile_workers_enabled():
        return None
    kernels = game.kernels
    if not any(_cold(getattr(kernels, name)) for name in AHEAD if hasattr(kernels, name)):
        _ahead_started[env_id] = None
        return None
    return _start_worker(env_id, ["ahead", env_id])


def await_ahead(key: str, timeout: float = 300.0) -> None:
    """Wait for the worker of ``key`` (an env id, or :func:`vector_ahead`'s key) if it is still
    compiling: what it compiles is about to be needed, and loading it when it is done beats
    compiling it a second time here."""
    proc = _ahead_started.get(key)
    if proc is None:
        return
    _ahead_started[key] = None
    try:
        proc.wait(timeout=timeout)
    except Exception:   # a stuck worker: this process compiles what is missing itself
        proc.kill()


def _ahead_main(env_id: str) -> None:
    """The worker: compile :data:`AHEAD` for ``env_id``'s default options (the argument types
    do not depend on the options) straight from their signatures, without running them."""
    import mushgym

    game = mushgym.game(env_id)
    for name, sig in _ahead_signatures(game).items():
        getattr(game.kernels, name).compile(sig)


# --- the first vector step, on both cores -------------------------------------------------
# The same trick for the vector classes (``mushgym.vector``): their ``reset`` and ``step``
# loops are the two largest compilations a game has (each inlines the whole game), and a
# user needs both. When a vector env is built on a cold cache, :func:`vector_ahead` starts
# one worker that compiles the step loop (serial or parallel, as the env will use) for the
# env's argument types, while this process compiles the seeding and reset loops; the env's
# first ``step`` waits for the worker (:func:`await_ahead`) and loads the loop from the cache.

def vector_ahead(vec) -> str | None:
    """Start the step-loop worker for the vector env ``vec`` (``mushgym.vector``) if its step
    loop is not cached; returns the key to :func:`await_ahead` on (or None)."""
    if not compile_workers_enabled():
        return None
    kernel = vec._step_kernel()
    if not _cold(kernel):
        return None
    kind = type(vec).__name__
    key = f"{vec.env_id}:{kind}:{kernel.py_func.__name__}:{vec.obs_dtype.name}:{vec.state_dtype.name}"
    if key in _ahead_started:
        return None
    proc = _start_worker(key, ["vector", vec.env_id, kind, "1" if vec._parallel else "0",
                               vec.obs_dtype.name, vec.state_dtype.name])
    return key if proc is not None else None


def vector_step_signature(vec) -> tuple:
    """The numba argument types of ``vec``'s step loop (what :func:`vector_ahead`'s worker compiles)."""
    import numba

    return tuple(numba.typeof(a) for a in vec._step_args(vec._actions))


def _vector_main(env_id: str, kind: str, parallel: str, obs_dtype: str, state_dtype: str) -> None:
    """The worker: build a one-env copy of the vector env (default options: the argument types
    do not depend on them) and compile its step loop from the signature, without running it."""
    import mushgym
    from . import vector

    cls = {"MushroomVectorEnv": vector.MushroomVectorEnv, "SingleAgentVectorEnv": vector.SingleAgentVectorEnv}[kind]
    vec = cls(mushgym.game(env_id), 1, seed=0, parallel=parallel == "1", obs_dtype=obs_dtype,
              state_dtype=state_dtype)
    vec._step_kernel().compile(vector_step_signature(vec))


_WORKERS = {"ahead": (_ahead_main, 1), "vector": (_vector_main, 5)}

if __name__ == "__main__":  # python -m mushgym.compiling ahead ENV_ID | vector ENV_ID KIND PARALLEL OBS STATE
    job = _WORKERS.get(sys.argv[1] if len(sys.argv) > 1 else "")
    if job is None or len(sys.argv) != 2 + job[1]:
        sys.exit("usage: python -m mushgym.compiling ahead ENV_ID\n"
                 "       python -m mushgym.compiling vector ENV_ID KIND PARALLEL OBS_DTYPE STATE_DTYPE")
    job[0](*sys.argv[2:])
