"""Weights-only model files: a network described in plain JSON, its tensors in a ``.pt``.

Saved policies load without unpickling anything: the network is rebuilt from its JSON
description (layer sizes, activation), then :func:`load_weights` reads the tensors with
``torch.load(weights_only=True)`` (which refuses any pickled object) and fits them to the
network, strictly. Both kinds of saved policy load this way: the MaskablePPO policies of
``mushgym train`` (:mod:`mushgym.agents.ppo_policy`) and the RLlib exports
(:mod:`mushgym.integrations.rllib_policy`). Needs torch, imported when called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: the largest layer a description may ask for (a guard against a hostile or broken file)
MAX_LAYER = 65536


def layer_sizes(value: Any, where: str, field: str, allow_empty: bool = False) -> list[int]:
    """``value`` as a list of hidden-layer sizes, or a ``ValueError`` naming ``where`` and ``field``."""
    if (
        not isinstance(value, list)
        or (not value and not allow_empty)
        or not all(type(n) is int and 0 < n <= MAX_LAYER for n in value)
    ):
        raise ValueError(f"{where}: {field} must be a list of positive layer sizes, got {value!r}")
    return list(value)


def load_weights(net: Any, path: str | Path, hint: str = "") -> Any:
    """Read the named tensors of ``path`` (weights only) into the torch module ``net``, strictly;
    returns ``net``. A pickle, anything but a dict of named tensors, or tensors that do not fit
    the network are a ``ValueError`` (``hint`` appended, e.g. how to load a trusted pickle)."""
    import torch

    tail = f"; {hint}" if hint else ""
    try:
        weights = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # pickle.UnpicklingError for anything but plain tensors
        raise ValueError(f"{path}: not a weights-only file ({type(err).__name__}){tail}") from None
    if not isinstance(weights, dict) or not all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in weights.items()
    ):
        raise ValueError(f"{path}: a weights-only policy file holds a dict of named tensors{tail}")
    try:
        net.load_state_dict(weights, strict=True)
    except RuntimeError as err:
        raise ValueError(f"{path}: the weights do not fit the described network: {err}") from None
    return net


def one_torch_thread() -> None:
    """One torch thread: several times faster than torch's default (one per core) for these small
    networks, and kinder to the game kernels on a busy machine."""
    import torch

    if torch.get_num_threads() > 1:
        torch.set_num_threads(1)
