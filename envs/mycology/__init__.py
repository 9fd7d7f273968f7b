"""Mycology (2-6 players, dice, seasons, a field of 8 mushroom cards, trades): numba kernels, card data and the
mycology_v1 env (option `observation`: "compact", the default, or "full", the retired mycology_v0's)."""

ENV_ID = "mycology_v1"
RETIRED_IDS = {"mycology_v0": ("mycology_v1", {"observation": "full"})}
