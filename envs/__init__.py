"""The games of mushgym, importable as ``mushgym.envs.<game>`` (e.g. ``from mushgym.envs import fungi_v0``)."""

from pathlib import Path as _Path

from mushgym.core.cache import refresh_game_caches as _refresh_game_caches

_refresh_game_caches(_Path(__file__).resolve().parent)
