"""Mycelium: A Mushling Game (3-4 players; hex board of Paths, gatherers, a nutrient deck, combat with reactions): kernels, data and the mycelium_v0 env."""
ENV_ID = "mycelium_v0"
