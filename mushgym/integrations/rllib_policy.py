"""The network of :mod:`mushgym.integrations.rllib` and its weights-only export (torch only, no Ray).

An RLlib run of ``mushgym train ENV --backend rllib`` writes its learner policy as two
files that load without Ray and without unpickling anything:

* ``policy.pt``: the actor's weights, a dict of named tensors (``torch.save``), read back
  with ``torch.load(weights_only=True)``;
* ``policy.json`` beside it: ``{"format": "mushgym-rllib-mlp-v1", "env_id", "options",
  "encoder", "hidden": [sizes], "activation": "tanh"|"relu", ...}``, plain JSON from which
  the network is rebuilt.

Every checkpoint folder of a run holds such a pair, and the run folder holds the last one as
``final.pt`` / ``final.json``, so ``mushgym eval`` and ``mushgym play`` take any of them (or
the checkpoint folder itself) like the ``.pt`` of an SB3 run.

The network is a plain MLP, ``observation -> hidden... -> logits``; masking happens after it
(illegal logits set to the float32 minimum, so they are never sampled nor argmax-ed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from mushgym.weights import layer_sizes, load_weights, one_torch_thread

EXPORT_FORMAT = "mushgym-rllib-mlp-v1"
ACTIVATIONS = ("tanh", "relu")
FLOAT_MIN = float(np.finfo(np.float32).min)


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover - exercised only without torch
        raise ImportError(
            "loading an RLlib policy export needs torch: pip install 'mushgym[rllib]' (or 'mushgym[train]')"
        ) from e
    return torch


def build_mlp(n_in: int, hidden: Sequence[int], n_out: int, activation: str = "tanh"):
    """``Linear -> act -> ... -> Linear`` (a ``torch.nn.Sequential``): the actor (``n_out`` =
    actions) and critic (1) of the module."""
    nn = _torch().nn
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r} is not one of {list(ACTIVATIONS)}")
    layers: list = []
    size = n_in
    for h in hidden:
        layers += [nn.Linear(size, int(h)), nn.Tanh() if activation == "tanh" else nn.ReLU()]
        size = int(h)
    layers.append(nn.Linear(size, n_out))
    return nn.Sequential(*layers)


def mask_logits(logits, action_mask):
    """Illegal actions' logits become the float32 minimum (probability 0 under softmax,
    never an argmax while a legal action exists), legal ones stay as they are."""
    torch = _torch()
    return torch.where(action_mask > 0.5, logits, torch.full_like(logits, FLOAT_MIN))


def save_export(pi_state: dict[str, Any], path: str | Path, meta: dict) -> Path:
    """Write the actor weights ``pi_state`` (keys of the actor MLP, tensors or arrays) to
    ``path`` (``.pt``) and ``meta`` plus the format tag to the ``.json`` beside it."""
    torch = _torch()
    path = Path(path).with_suffix(".pt")
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {k: torch.as_tensor(np.asarray(v)).clone() for k, v in pi_state.items()}
    torch.save(tensors, path)
    path.with_suffix(".json").write_text(json.dumps({**meta, "format": EXPORT_FORMAT}, indent=2))
    return path


def export_file(path: str | Path) -> Path | None:
    """The weights-only ``.pt`` of an RLlib export that ``path`` names, or None when it is
    not one: the ``.pt`` itself, its ``.json``, a checkpoint folder holding ``policy.pt``,
    or a run folder holding ``final.pt`` (each with a ``.json`` of format ``EXPORT_FORMAT``)."""
    path = Path(path)
    candidates = (
        [path / "policy.pt", path / "final.pt"]
        if path.is_dir()
        else [path.with_suffix(".pt")]
        if path.suffix in (".pt", ".json")
        else []
    )
    for pt in candidates:
        meta = pt.with_suffix(".json")
        if pt.exists() and meta.exists():
            try:
                desc = json.loads(meta.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                return None
            if isinstance(desc, dict) and desc.get("format") == EXPORT_FORMAT:
                return pt
    return None


class MaskedMLPPolicy:
    """An exported actor as a batched policy: ``act_batch(observations, action_masks)``.

    ``deterministic`` plays the most likely legal action; otherwise a sample of the
    masked softmax (Gumbel-max, from ``seed``)."""

    def __init__(
        self, path: str | Path, env_id: str | None = None, deterministic: bool = True, seed: int | None = None
    ) -> None:
        path = Path(path)
        pt = export_file(path)
        if pt is None:
            raise ValueError(
                f"{path}: not an RLlib policy export of mushgym (a policy.pt with a policy.json "
                f"of format {EXPORT_FORMAT!r})"
            )
        meta = json.loads(pt.with_suffix(".json").read_text(encoding="utf-8"))
        self.meta = meta
        model_env = meta.get("env_id")
        if not isinstance(model_env, str):
            raise ValueError(f"{pt.with_suffix('.json')}: 'env_id' must be a string, got {model_env!r}")
        if env_id is not None and env_id != model_env:
            raise ValueError(f"{pt} was trained on {model_env}, not {env_id}")
        options = meta.get("options", {})
        if not isinstance(options, dict):
            raise ValueError(f"{pt.with_suffix('.json')}: 'options' must be an object, got {options!r}")
        hidden = layer_sizes(meta.get("hidden"), str(pt.with_suffix(".json")), "'hidden'", allow_empty=True)
        import mushgym
        from mushgym.wrappers import make_encoder

        self.env_id = model_env
        self.game = mushgym.game(model_env, **options)
        self.encoder = make_encoder(meta.get("encoder", "scaled"), self.game)
        self.net = build_mlp(self.encoder.space.shape[0], hidden, self.game.num_actions, meta.get("activation", "tanh"))
        load_weights(self.net, pt).eval()
        one_torch_thread()
        self.path = pt
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        torch = _torch()
        x = torch.as_tensor(self.encoder.encode_batch(np.asarray(observations)))
        with torch.no_grad():
            return self.net(x).numpy()

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks) != 0
        if masks.ndim != 2 or not masks.any(axis=1).all():
            raise ValueError("no legal action in some row of action_masks")
        z = self.logits(observations).astype(np.float64)
        if not self.deterministic:
            z += self.rng.gumbel(size=z.shape)
        z[~masks] = -np.inf
        return z.argmax(axis=1).astype(np.int64)
