"""Keep numba's on-disk cache of a game's kernels in step with the code they inline.

numba checks only the timestamp of the file that defines a cached function. A
game's kernels inline code from ``mushgym/core`` (generator, piles, batch loops)
and from sibling modules of the game (card constants), so an edit there would
keep serving stale machine code. :func:`refresh_game_caches` hashes those
sources and, when the hash changed since the cache was written, deletes the
game's cache files before anything is loaded from them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent
STAMP_NAME = "mushgym-sources.sha256"


def sources_digest(game_dir: Path) -> str:
    h = hashlib.sha256()
    for folder in (CORE_DIR, game_dir):
        for path in sorted(folder.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def clear_cache_files(cache_dir: Path) -> int:
    """Delete numba's cache files (``*.nbi``, ``*.nbc``) in ``cache_dir``; return how many."""
    removed = 0
    for path in list(cache_dir.glob("*.nbi")) + list(cache_dir.glob("*.nbc")):
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def refresh_game_caches(envs_dir: Path) -> None:
    """For each game package under ``envs_dir``, drop its numba cache if its sources changed."""
    for game_dir in sorted(p for p in envs_dir.iterdir() if (p / "__init__.py").exists()):
        cache_dir = game_dir / "__pycache__"
        if not cache_dir.is_dir():
            continue
        stamp = cache_dir / STAMP_NAME
        digest = sources_digest(game_dir)
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            clear_cache_files(cache_dir)
            stamp.write_text(digest)
        except OSError:  # read-only install: numba falls back to its user-wide cache directory
            continue
