"""The games of mushgym, importable as ``mushgym.envs.<game>`` (e.g. ``from mushgym.envs import fungi_v0``)."""
