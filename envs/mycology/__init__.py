"""Mycology (2-6 players, dice, seasons, a field of 8 mushroom cards, trades): numba kernels, card data and the mycology_v0 and mycology_v1 envs (v1: the same game with a compact integral observation)."""
ENV_IDS = {"mycology_v0": "env", "mycology_v1": "env_v1"}
