"""Mycelia (1-4 players, 5 with the North American expansion; a growing board of triangle tiles, wind-die spore
cones, spore networks, the Automata): numba kernels, data and the mycelia_v1 env."""

ENV_ID = "mycelia_v1"
#: retired versions and the id that replaces each (PettingZoo's convention: only the newest version
#: of an env stays importable)
RETIRED_IDS = {"mycelia_v0": "mycelia_v1"}
