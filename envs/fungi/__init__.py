"""Fungi (two-player mushroom card game): numba kernels, deck data and the fungi_v0 env."""

ENV_ID = "fungi_v0"
