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
  where a cold cache spends its time (the docs' Speed page shows how to sum it).
* :func:`mushgym.precompile.compile_envs` (``mushgym compile [ENV...]``) compiles
  everything a game offers (the AEC/functional kernels, in-kernel rollouts, and the
  vector and single-agent vector loops in their serial and parallel forms), each group
  in its own worker process so both cores work at once, filling the cache for every
  later process; this module names the groups (:data:`GROUPS`).
* the first use of an AEC or vector env starts a compile worker on a cold cache (the
  section "compile workers" below).

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
_depth = 0  # compilations in progress: only the outermost one (what the user called) is announced
_kernel_modules: dict[str, str] = {}  # kernel module name -> env id (filled lazily)


def kernel_group(name: str) -> str:
    """The group of :data:`GROUPS` a kernel belongs to, from its name."""
    base = name.split("__")[0]  # batch loops may carry a source digest
    parallel = base.startswith("par_")
    if parallel:
        base = base[len("par_") :]
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

    package = ".".join(module.split(".")[:3])  # mushgym.envs.<game>
    version = re.search(r"_v\d+(?=(_loops|_search)?$)", module)  # observation_v1, generated.rules_v1_loops: v1's
    found = None
    complete = True  # every game answered: the answer may be kept
    for env_id in registry.list_envs():
        try:
            kernels = registry.env_module(env_id).Game.kernels
        except Exception:  # a game still being imported (its kernels compile at import) or broken
            complete = False
            continue
        name = getattr(kernels, "__name__", None) or ""
        if name == module:
            found = env_id
            break
        if ".".join(name.split(".")[:3]) == package and (
            found is None or (version is not None and env_id.endswith(version.group()))
        ):
            found = env_id  # another module of the same game (its layout, its helpers; a _vN module: that env)
    if found is None:  # a kernel module of a game package without a registered env
        found = module.split(".")[2]
    if complete:
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
        print(
            f"mushgym: compiling {env_id} {what} (first use; {rough} on 2 idle cores, cached afterwards; "
            f"`mushgym compile {env_id}` does it ahead of time)",
            file=sys.stderr,
            flush=True,
        )
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


# --- compile workers: the next kernels compile in a second process -----------------------
# On a cold cache the first use of an env compiles its kernels one after the other: one core
# works, the other waits. The owners of those first uses start a short-lived worker process
# (``python -m <owner module> ...``) that compiles the kernels needed next, for the same
# argument types, into numba's cache while this process compiles the first ones; when this
# process reaches them, numba loads them from the cache (it re-reads its cache index at every
# first call). The AEC env's worker (:func:`mushgym.aec.compile_ahead`) compiles ``observe`` and
# ``aec_advance`` while the deal compiles; the vector envs' (:func:`mushgym.vector.vector_ahead`)
# the step loop while the seeding and reset loops compile. On a warm cache (the usual case)
# nothing is started: the check is one ``stat`` per kernel. ``MUSHGYM_COMPILE_WORKERS=0`` turns
# them off (the test suite does, as its own processes already fill both cores). This section
# holds what the owners share: whether workers may run, the cache check, starting and awaiting.

_ahead_started: dict[str, object] = {}


def compile_workers_enabled() -> bool:
    if os.environ.get("MUSHGYM_COMPILE_WORKERS", "1").lower() in ("0", "false", "no", "off"):
        return False
    from numba.core import config

    return not config.DISABLE_JIT and (os.cpu_count() or 1) > 1


def _cold(dispatcher) -> bool:
    """No cache index for ``dispatcher`` yet (numba would compile it on first call)."""
    try:
        return not os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # a numba without these internals, or a function without cache=True
        return False


def _start_worker(key: str, module: str, argv: list[str]) -> object | None:
    """Start ``python -m <module> *argv`` (the owner's worker) as the worker of ``key`` (once per
    key and process); returns the ``subprocess.Popen`` or None."""
    if key in _ahead_started:
        return None
    _ahead_started[key] = None
    import subprocess

    env = dict(os.environ, MUSHGYM_COMPILE_WORKERS="0", MUSHGYM_COMPILE_NOTICE="0")
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", module, *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    except OSError:  # no process to spare: this process compiles everything itself
        return None
    _ahead_started[key] = proc
    return proc


def await_ahead(key: str, timeout: float = 300.0) -> None:
    """Wait for the worker of ``key`` (an env id, or :func:`mushgym.vector.vector_ahead`'s key) if
    it is still compiling: what it compiles is about to be needed, and loading it when it is
    done beats compiling it a second time here."""
    proc = _ahead_started.get(key)
    if proc is None:
        return
    _ahead_started[key] = None
    try:
        proc.wait(timeout=timeout)
    except Exception:  # a stuck worker: this process compiles what is missing itself
        proc.kill()
