"""Let numba find the TBB library that ``pip install tbb`` put in the environment.

The ``tbb`` wheel installs ``libtbb.so.12`` into ``<prefix>/lib``, which is not on the
dynamic loader's path of a virtual environment, so numba silently falls back to its
OpenMP layer. With OpenMP, every parallel step on a machine whose cores are busy with
other processes waits for a descheduled worker (measured on the 2-vCPU EPYC machine under
load 9: the vector API at batch 1,024 on 2 threads ran 0.04M steps/s under OpenMP, against
0.8M on 1 thread). Loading the library globally before numba's first parallel call lets
numba's TBB layer find it. Nothing happens if it is absent, not on Linux, or if the user
chose a layer (``NUMBA_THREADING_LAYER``).
"""

from __future__ import annotations

import ctypes
import os
import sys


def preload_tbb() -> bool:
    """Load ``<prefix>/lib/libtbb.so.12`` with global symbols if it is there; True if loaded."""
    if not sys.platform.startswith("linux") or os.environ.get("NUMBA_THREADING_LAYER"):
        return False
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        path = os.path.join(prefix, "lib", "libtbb.so.12")
        if os.path.exists(path):
            try:
                ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            except OSError:
                return False
            return True
    return False
