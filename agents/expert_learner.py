"""The learner of expert iteration (:mod:`mushgym.agents.expert`): the replay buffer of
self-play positions and the network fitted to the search's visit distributions and the games'
outcomes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import torch

from .selfplay import new_network


class ReplayBuffer:
    """The last ``capacity`` positions (a ring): raw observations, legal masks, policy targets, returns."""

    def __init__(self, capacity: int, obs_shape: tuple, num_actions: int) -> None:
        self.capacity = int(capacity)
        self.obs = np.zeros((self.capacity, *obs_shape), np.float32)
        self.masks = np.zeros((self.capacity, num_actions), bool)
        self.policy = np.zeros((self.capacity, num_actions), np.float16)
        self.returns = np.zeros(self.capacity, np.float32)
        self.size = 0
        self.next = 0
        self.added = 0

    def add(self, data: dict[str, np.ndarray]) -> None:
        n = len(data["returns"])
        for start in range(0, n, self.capacity):
            k = min(self.capacity, n - start)
            idx = (self.next + np.arange(k)) % self.capacity
            for name in ("obs", "masks", "policy", "returns"):
                getattr(self, name)[idx] = data[name][start : start + k]
            self.next = int((self.next + k) % self.capacity)
            self.size = min(self.capacity, self.size + k)
        self.added += n

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        idx = rng.integers(0, self.size, size=n)
        return self.obs[idx], self.masks[idx], self.policy[idx].astype(np.float32), self.returns[idx]

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "obs": self.obs[: self.size],
            "masks": self.masks[: self.size],
            "policy": self.policy[: self.size],
            "returns": self.returns[: self.size],
            "meta": np.array([self.next, self.added], np.int64),
        }

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        n = len(arrays["returns"])
        for name in ("obs", "masks", "policy", "returns"):
            getattr(self, name)[:n] = arrays[name]
        self.size = n
        self.next, self.added = (int(v) for v in arrays["meta"])


def one_hot(indices: np.ndarray, num_actions: int) -> np.ndarray:
    """float32 rows, each 1 at its index and 0 elsewhere."""
    out = np.zeros((len(indices), num_actions), np.float32)
    out[np.arange(len(indices)), indices] = 1.0
    return out


def scheduled_learning_rate(hp: dict, fraction: float) -> float:
    """The learning rate ``fraction`` (0-1) of the way through a run's budget: constant, or a
    cosine from ``learning_rate`` down to ``final_learning_rate`` (the network of a run cut short
    is trained as far as the schedule had come; a resumed run picks the schedule up where it was)."""
    lr = float(hp["learning_rate"])
    if hp["lr_schedule"] == "constant":
        return lr
    end = float(hp["final_learning_rate"])
    f = min(max(float(fraction), 0.0), 1.0)
    return end + (lr - end) * 0.5 * (1.0 + math.cos(math.pi * f))


def start_from(policy, path: str, game, hp: dict) -> None:
    """Load the weights of the saved model at ``path`` (weights-only ``.pt`` with its ``.json``, as
    ``mushgym train`` and expert iteration write them) into ``policy``: the network a run starts
    from. The model must be of the same game and options, encoder, layer sizes and activation;
    any mismatch is a ValueError naming both sides."""
    import mushgym

    from .ppo_policy import _find_meta, load_policy

    try:
        agent = load_policy(path, env_id=game.env_id)  # the format, the env and the weights checked
    except (OSError, ValueError) as err:
        raise ValueError(f"train_expert: init_model {path!r} cannot be loaded: {err}") from None
    meta = _find_meta(Path(path))
    desc = meta.get("policy", {})
    model_options = mushgym.game(game.env_id, **meta.get("options", {})).options
    if model_options != game.options:
        differ = {k: (model_options.get(k), v) for k, v in game.options.items() if model_options.get(k) != v}
        raise ValueError(
            f"train_expert: init_model {path} was trained with other options than this run "
            f"(option: (model, run)): {differ}"
        )
    encoder = meta.get("encoder") or desc.get("encoder")
    if encoder != hp["encoder"]:
        raise ValueError(
            f"train_expert: init_model {path} uses the {encoder!r} encoder, this run {hp['encoder']!r}; "
            f"pass --hyper encoder={encoder}"
        )
    arch = tuple(int(n) for n in desc.get("net_arch", ()))
    if arch != tuple(hp["net_arch"]):
        raise ValueError(
            f"train_expert: init_model {path} has layers {list(arch)}, this run {list(hp['net_arch'])}; "
            f"pass --hyper net_arch={list(arch)}"
        )
    if desc.get("activation", "tanh") != "tanh":
        raise ValueError(
            f"train_expert: init_model {path} uses the {desc['activation']!r} activation; "
            "expert iteration's networks use 'tanh'"
        )
    policy.load_state_dict(agent.policy.state_dict())


class Learner:
    """The network and its optimizer: policy cross-entropy against the visit distributions plus
    ``value_weight`` x the squared error of the value against the returns."""

    def __init__(self, game, hp: dict, seed: int) -> None:
        torch.manual_seed(seed)
        self.best_move = hp["policy_target"] == "best"
        self.policy, self.encoder = new_network(game, hp["net_arch"], hp["encoder"])
        if hp["init_model"]:
            start_from(self.policy, hp["init_model"], game, hp)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=float(hp["learning_rate"]))
        self.value_weight = float(hp["value_weight"])
        self.updates = 0

    def set_learning_rate(self, lr: float) -> None:
        for group in self.optimizer.param_groups:
            group["lr"] = float(lr)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        pol = self.policy
        features = pol.extract_features(x, pol.pi_features_extractor)
        latent_pi, latent_vf = pol.mlp_extractor(features)
        return pol.action_net(latent_pi), pol.value_net(latent_vf).reshape(-1)

    def update(self, obs, masks, target, returns, extra=None) -> dict[str, float]:
        """One gradient step on raw observations ``obs`` with their legal ``masks``, policy
        ``target`` rows and ``returns`` (with ``policy_target="best"``, each target row is first
        made one-hot on its largest entry); ``extra``: more rows ``(encoded obs, masks, targets,
        returns)`` in the same batch, taken as they are (the warm start's decisions)."""
        self.policy.set_training_mode(True)
        x = self.encoder.encode_batch(obs)
        if self.best_move:
            target = one_hot(np.asarray(target).argmax(axis=1), np.shape(target)[1])
        if extra is not None:
            x, masks, target, returns = (
                np.concatenate([a, np.asarray(b, dtype=np.asarray(a).dtype)])
                for a, b in zip((x, masks, target, returns), extra)
            )
        x = torch.as_tensor(x)
        logits, values = self.forward(x)
        logits = logits.masked_fill(~torch.as_tensor(masks), -1e9)
        logp = torch.log_softmax(logits, dim=1)
        tgt = torch.as_tensor(target)
        policy_loss = -(tgt * logp).sum(dim=1).mean()
        value_loss = torch.mean((values - torch.as_tensor(returns)) ** 2)
        loss = policy_loss + self.value_weight * value_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.policy.set_training_mode(False)
        self.updates += 1
        with torch.no_grad():  # the target's entropy: what a perfect imitator's policy loss would be
            entropy = -(tgt * torch.log(tgt.clamp_min(1e-12))).sum(dim=1).mean()
        return {
            "loss/policy": float(policy_loss.detach()),
            "loss/value": float(value_loss.detach()),
            "loss/policy_excess": float(policy_loss.detach() - entropy),
        }

    def weights(self) -> dict[str, np.ndarray]:
        """The network's tensors as numpy arrays (what self-play workers and Ray actors take)."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.policy.state_dict().items()}
