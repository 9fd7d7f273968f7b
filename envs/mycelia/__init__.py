"""Mycelia (1-4 players, 5 with the North American expansion; a growing board of triangle tiles, wind-die spore cones, spore networks, the Automata): numba kernels, data and the mycelia_v0 env."""

ENV_ID = "mycelia_v0"
