"""Mycology (2-6 players, dice, seasons, a field of 8 mushroom cards, trades): numba kernels, card data and the mycology_v0 env."""
ENV_ID = "mycology_v0"
