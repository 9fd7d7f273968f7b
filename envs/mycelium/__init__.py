"""Mycelium: A Mushling Game (2-4 players; hex board of Paths, gatherers, a nutrient deck, combat with reactions): kernels, data and the mycelium_v0 and mycelium_v1 envs (v1, recommended: the Exchange by Mushling Card Type)."""
ENV_IDS = {"mycelium_v0": "env", "mycelium_v1": "env_v1"}
