"""Let numba find TBB inside a virtual environment.

``pip install tbb`` puts ``libtbb.so.12`` in ``<venv>/lib``, which is not on the dynamic
loader's search path, so numba's TBB threading layer fails to load and numba falls back
to OpenMP (or its workqueue) without a word. :func:`preload_tbb` loads that library
globally by its full path before numba picks a threading layer; the TBB layer's own
``dlopen("libtbb.so.12")`` then finds it already loaded. Called by ``mushgym.setup()``
(the first use of a game); a no-op when TBB is not installed, already loadable, or on another OS.

Why TBB: with OpenMP a busy machine makes each parallel step wait for a descheduled
worker (the docs' Speed page, "Reading the rows").
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

SONAME = {"linux": "libtbb.so.12", "darwin": "libtbb.12.dylib"}
_loaded: str | None = None


def tbb_candidates() -> list[Path]:
    """Where a pip-installed TBB puts its shared library (the environment's ``lib``)."""
    name = SONAME.get(sys.platform)
    if name is None:
        return []
    out = []
    for prefix in dict.fromkeys([sys.prefix, sys.base_prefix, sys.exec_prefix]):
        p = Path(prefix) / "lib" / name
        if p.is_file():
            out.append(p)
    return out


def preload_tbb() -> str | None:
    """Load the environment's TBB library globally (once); its path, or None if there is none."""
    global _loaded
    if _loaded is not None:
        return _loaded
    for path in tbb_candidates():
        try:
            ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError:
            continue
        _loaded = str(path)
        return _loaded
    return None
