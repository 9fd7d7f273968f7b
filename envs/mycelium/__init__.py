"""Mycelium: A Mushling Game (2-4 players; hex board of Paths, gatherers, a nutrient deck, combat with reactions):
kernels, data and the mycelium_v2 env (v0 and v1 are retired: their ids name v2)."""

ENV_IDS = {"mycelium_v2": "env"}
RETIRED_IDS = {"mycelium_v0": "mycelium_v2", "mycelium_v1": "mycelium_v2"}
