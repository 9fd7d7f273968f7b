"""Saved MaskablePPO policies as agents: load, save and export (weights only by default).

    from mushgym.agents.ppo_policy import load_policy
    agent = load_policy("runs/ppo_fungi_v0_self_s0/final.pt")   # an Agent; batched forward passes

A ``.pt`` written by :func:`save_policy_weights` holds tensors only and loads with
``torch.load(weights_only=True)`` (:mod:`mushgym.weights`), its network rebuilt from the
plain JSON description beside it. SB3 ``.zip`` archives are unpickled, which can run code:
they load only with ``trust=True``. Needs the ``train`` extra (torch, stable-baselines3,
sb3-contrib). Training itself is :mod:`mushgym.agents.ppo`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .base import Agent, top_candidates

try:  # the train extra
    import torch
    from sb3_contrib import MaskablePPO
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"mushgym.agents.ppo_policy needs the train extra: pip install 'mushgym[train]' (missing: {e.name})"
    ) from e

from mushgym.weights import layer_sizes, load_weights, one_torch_thread
from mushgym.wrappers import make_encoder


class PolicyAgent(Agent):
    """A MaskablePPO policy network as an :class:`Agent` (batched forward passes)."""

    def __init__(
        self,
        policy,
        encoder,
        deterministic: bool = True,
        name: str = "ppo",
        seed: int | None = None,
        frozen: bool = False,
    ) -> None:
        self.policy = policy
        self.encoder = encoder
        self.deterministic = deterministic
        self.name = name
        self.policy.set_training_mode(False)
        self.rng = np.random.default_rng(seed)
        # a frozen network's actor as numpy layers: at the few rows per call of training
        # opponents, torch's per-call overhead is most of the cost
        self._numpy_actor = numpy_actor(policy) if frozen else None
        self._numpy_pv = None

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def logits(self, observations) -> np.ndarray:
        """The policy's action logits (before masking), one row per observation."""
        pol = self.policy
        if self._numpy_actor is not None:
            return self._numpy_actor(self.encoder.encode_batch(np.asarray(observations)))
        x = torch.as_tensor(self.encoder.encode_batch(np.asarray(observations)))
        with torch.no_grad():  # the actor path of MaskableActorCriticPolicy, without building a distribution
            features = pol.extract_features(x, pol.pi_features_extractor)
            return pol.action_net(pol.mlp_extractor.forward_actor(features)).numpy()

    def policy_value(self, observations, backend: str = "torch") -> tuple[np.ndarray, np.ndarray]:
        """The policy's action logits ``[n, num_actions]`` (before masking) and the value network's
        estimate ``[n]`` of the observed player's return, one row per observation: what
        :class:`mushgym.search.Searcher` needs of a ``network`` (PUCT), in one torch call
        (``backend="numpy"``: numpy layers where the network allows, faster for single rows,
        slower for batches)."""
        if backend not in ("numpy", "torch"):
            raise ValueError(f"unknown backend {backend!r}; choices: ['numpy', 'torch']")
        if self._numpy_pv is None:
            self._numpy_pv = (numpy_actor(self.policy), numpy_critic(self.policy))
        actor, critic = self._numpy_pv
        x = self.encoder.encode_batch(np.asarray(observations))
        if backend == "numpy" and actor is not None and critic is not None:
            return actor(x), critic(x).reshape(-1)
        pol = self.policy
        with torch.no_grad():
            features = pol.extract_features(torch.as_tensor(x), pol.pi_features_extractor)
            logits = pol.action_net(pol.mlp_extractor.forward_actor(features)).numpy()
            vf = pol.extract_features(torch.as_tensor(x), pol.vf_features_extractor)
            values = pol.value_net(pol.mlp_extractor.forward_critic(vf)).numpy().reshape(-1)
        return logits, values

    def act_batch(self, observations, action_masks) -> np.ndarray:
        masks = np.asarray(action_masks) != 0
        if not masks.any(axis=1).all():
            raise ValueError("no legal action in some row of action_masks")
        if self.explain_moves:
            logits, values = self.policy_value(observations)
            z = np.asarray(logits, dtype=np.float64)
            self.last_explanations = [
                top_candidates(_masked_softmax(z[j], masks[j]), masks[j], "probability", float(values[j]))
                for j in range(len(z))
            ]
        else:
            z = self.logits(observations).astype(np.float64)
        if not self.deterministic:  # Gumbel-max: a sample from softmax over the legal actions
            z += self.rng.gumbel(size=z.shape)
        z[~masks] = -np.inf
        return z.argmax(axis=1).astype(np.int64)


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The policy's probabilities over the legal actions (0 elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = np.exp(z - z.max())
    return z / z.sum()


def numpy_actor(policy):
    """``observations -> logits`` of ``policy``'s actor in numpy (float32), or None when a
    layer is not one of Flatten, Linear, Tanh, ReLU (then torch is used)."""
    return _numpy_mlp(policy.pi_features_extractor, [*policy.mlp_extractor.policy_net, policy.action_net])


def numpy_critic(policy):
    """``observations -> values [n, 1]`` of ``policy``'s value network in numpy, or None (as
    :func:`numpy_actor`)."""
    return _numpy_mlp(policy.vf_features_extractor, [*policy.mlp_extractor.value_net, policy.value_net])


def _numpy_mlp(extractor, modules):
    from stable_baselines3.common.torch_layers import FlattenExtractor

    if not isinstance(extractor, FlattenExtractor):
        return None
    layers = []
    for m in modules:
        if isinstance(m, torch.nn.Linear):
            layers.append((m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()))
        elif isinstance(m, (torch.nn.Tanh, torch.nn.ReLU)):
            layers.append(np.tanh if isinstance(m, torch.nn.Tanh) else (lambda h: np.maximum(h, 0, out=h)))
        else:
            return None

    def forward(x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, dtype=np.float32).reshape(len(x), -1)
        for layer in layers:
            h = layer(h) if callable(layer) else h @ layer[0] + layer[1]
        return h

    return forward


POLICY_FORMAT = "mushgym-state-dict-v1"
ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def _meta_path(path: Path) -> Path:
    return path.with_suffix(".json")


def save_model(
    model, path: str | Path, env_id: str, encoder: str, options: dict | None = None, extra: dict | None = None
) -> Path:
    """Save ``model`` (``.zip``) and the ``.json`` beside it that :func:`load_policy` reads."""
    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    meta = {"env_id": env_id, "encoder": encoder, "options": options or {}, "algo": "MaskablePPO"}
    meta.update(extra or {})
    _meta_path(path).write_text(json.dumps(meta, indent=2))
    return path


TRUST_HINT = (
    "an SB3 .zip archive (or a policy saved by SB3's policy.save) is unpickled when loaded, "
    "which runs any code the file contains; load it only if you trust its source: pass trust=True "
    "(mushgym eval/train --trust-model), or convert it once with export_policy(path, out, trust=True) "
    "into a weights-only .pt that loads safely"
)


def _find_meta(path: Path) -> dict:
    for candidate in (_meta_path(path), path.parent.parent / "final.json", path.parent / "final.json"):
        if candidate.exists():
            try:
                meta = json.loads(candidate.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                raise ValueError(f"{candidate}: not a JSON model description ({err})") from None
            if not isinstance(meta, dict):
                raise ValueError(f"{candidate}: a model description is a JSON object")
            return meta
    return {}


def _policy_from_weights(path: Path, meta: dict, encoder, num_actions: int) -> Any:
    """A MaskableActorCriticPolicy rebuilt from its JSON description and weights-only tensors."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    desc = meta.get("policy")
    if not isinstance(desc, dict) or desc.get("format") != POLICY_FORMAT:
        raise ValueError(
            f"{path}: its .json has no 'policy' description of format {POLICY_FORMAT!r} "
            f"(architecture of a weights-only policy); {TRUST_HINT}"
        )
    net_arch = layer_sizes(desc.get("net_arch"), str(path), "policy.net_arch")
    activation = desc.get("activation", "tanh")
    if activation not in ACTIVATIONS:
        raise ValueError(f"{path}: policy.activation {activation!r} is not one of {sorted(ACTIVATIONS)}")
    policy = MaskableActorCriticPolicy(
        encoder.space,
        spaces.Discrete(num_actions),
        lambda _: 0.0,
        net_arch=net_arch,
        activation_fn=ACTIVATIONS[activation],
    )
    return load_weights(policy, path, TRUST_HINT)


def load_policy(
    path: str | Path,
    env_id: str | None = None,
    seed: int | None = None,
    deterministic: bool = True,
    encoder: str | None = None,
    trust: bool = False,
) -> PolicyAgent:
    """A saved model as an :class:`Agent`.

    Safe by default: a ``.pt`` written by :func:`train_ppo` / :func:`export_policy` is read with
    ``torch.load(weights_only=True)`` and its network rebuilt from the plain JSON description
    beside it. SB3 ``.zip`` archives (training checkpoints) and SB3-pickled policies are
    unpickled, which can run code: they load only with ``trust=True``.
    """
    path = Path(path)
    if not path.exists() and Path(str(path) + ".zip").exists():
        path = Path(str(path) + ".zip")
    if not path.exists():
        raise FileNotFoundError(f"no saved model at {path}")
    meta = _find_meta(path)
    model_env = meta.get("env_id", env_id)
    if env_id is not None and model_env is not None and model_env != env_id:
        raise ValueError(f"{path} was trained on {model_env}, not {env_id}")
    if model_env is None:
        raise ValueError(f"{path} has no {_meta_path(path).name} saying its env; pass env_id=")
    options = meta.get("options", {})
    if not isinstance(options, dict):
        raise ValueError(f"{path}: 'options' in its .json must be an object, got {options!r}")
    import mushgym

    game = mushgym.game(model_env, **options)
    one_torch_thread()
    import zipfile

    enc_name = encoder or meta.get("encoder")
    names = [enc_name] if enc_name else ["scaled", "flat", "onehot"]
    entries: list[str] = []
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            entries = z.namelist()
    sb3_archive = "policy.pth" in entries
    if not sb3_archive and isinstance(meta.get("policy"), dict):
        enc = make_encoder(names[0] if enc_name else meta["policy"].get("encoder", "scaled"), game)
        policy = _policy_from_weights(path, meta, enc, game.num_actions)
        return PolicyAgent(policy, enc, deterministic=deterministic, name=str(path), seed=seed)
    with open(path, "rb") as f:
        pickled = f.read(1) == b"\x80"  # a pickle (protocol 2 or later): an older torch.save
    if not sb3_archive and not pickled and not any(e.endswith("data.pkl") for e in entries):  # not a torch file
        raise ValueError(
            f"{path} is not a saved model: neither a weights-only policy (.pt with its .json), "
            "an SB3 .zip archive nor a policy saved by SB3"
        )
    if not trust:
        raise ValueError(f"refusing to load {path}: {TRUST_HINT}")
    try:
        policy = load_trusted_policy(path)
    except Exception as err:  # a torch file that is no SB3 policy: unpickling or reading fails
        raise ValueError(
            f"{path} is not a saved model: it does not load as an SB3 .zip archive or a policy saved "
            f"by SB3 ({type(err).__name__}: {err})"
        ) from None
    shape = policy.observation_space.shape
    for name in names:
        enc = make_encoder(name, game)
        if enc.space.shape == shape:
            return PolicyAgent(policy, enc, deterministic=deterministic, name=str(path), seed=seed)
    raise ValueError(f"{path}: observation shape {shape} matches no encoder of {model_env}")


def load_trusted_policy(path: Path):
    """Unpickle an SB3 archive or an SB3-saved policy (the caller has said it trusts the file)."""
    import zipfile

    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            if "policy.pth" in z.namelist():
                return MaskablePPO.load(path, device="cpu").policy
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy.load(str(path), device="cpu")


def save_policy_weights(policy, out: str | Path, meta: dict, encoder: str) -> Path:
    """Write ``policy`` as a weights-only ``.pt`` (tensors) and its ``.json`` description (plain data)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    activation = next((k for k, v in ACTIVATIONS.items() if v is policy.activation_fn), None)
    if activation is None:
        raise ValueError(f"activation {policy.activation_fn} cannot be described; use one of {sorted(ACTIVATIONS)}")
    net_arch = policy.net_arch
    if isinstance(net_arch, dict):
        if list(net_arch.get("pi", [])) != list(net_arch.get("vf", [])):
            raise ValueError("only a shared pi/vf net_arch can be described")
        net_arch = net_arch["pi"]
    torch.save({k: v.detach().cpu() for k, v in policy.state_dict().items()}, out)
    meta = dict(meta)
    meta["policy"] = {
        "format": POLICY_FORMAT,
        "net_arch": [int(n) for n in net_arch],
        "activation": activation,
        "encoder": encoder,
        "observation_shape": list(policy.observation_space.shape),
        "num_actions": int(policy.action_space.n),
    }
    _meta_path(out).write_text(json.dumps(meta, indent=2))
    return out


def export_policy(path: str | Path, out: str | Path, trust: bool = False) -> Path:
    """Write the policy network of the model saved at ``path`` alone to ``out`` (``.pt``, weights
    only, safe to load) with its ``.json``: what playing needs, without the optimizer state.
    Reading the SB3 ``.zip`` unpickles it: ``trust=True`` says you trust that file."""
    path, out = Path(path), Path(out)
    meta = _find_meta(path)
    if not meta:
        raise ValueError(f"{path} has no metadata (.json) beside it or in its run folder")
    if not trust:
        raise ValueError(f"refusing to read {path}: {TRUST_HINT}")
    policy = load_trusted_policy(path)
    return save_policy_weights(policy, out, meta, meta.get("encoder", "scaled"))
