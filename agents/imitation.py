"""Imitation warm start for PPO: the policy first learns to play like a teacher agent.

    from mushgym.agents.imitation import collect_teacher_games, pretrain
    data = collect_teacher_games(game, make_agent("greedy", env_id=game.env_id), encoder, samples=50_000)
    report = pretrain(model.policy, data, epochs=4)

The teacher (greedy by default in :func:`mushgym.agents.train_ppo`, ``imitation_samples=N``)
plays every seat of a batch of games; each of its decisions becomes a sample: the encoded
observation of the player to move, the legal actions, the teacher's action, and that
player's return when the game ended (a target for the value network, so that PPO's first
advantages are not measured against an untrained critic). :func:`pretrain` then fits the
policy (cross-entropy of the masked policy against the teacher's action) and the value
network (squared error against the return) for a few epochs, and reports how often the
network picks the teacher's action on a held-out tenth of the samples.

A network that only imitates greedy plays about as well as greedy; PPO then has to
improve on it, which on the board games takes far fewer steps than learning from random
play: the default recipe of the board games (:mod:`mushgym.agents.recipes`; the runs are in
``docs/guides/training.md``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

try:
    import torch
except ImportError as e:  # pragma: no cover - the train extra
    raise ImportError("mushgym.agents.imitation needs the train extra: pip install 'mushgym[train]'") from e

from mushgym.episodes import EpisodeBatch, decide


def collect_teacher_games(
    game, teacher, encoder, samples: int, seed: int = 0, num_games: int = 16, max_seconds: float | None = None
) -> dict[str, np.ndarray]:
    """About ``samples`` decisions of ``teacher`` playing every seat of ``game`` (only games
    played to their end are kept, whose returns are known). Stops early after
    ``max_seconds``. Returns arrays ``obs`` (encoded), ``masks`` (bool), ``actions``,
    ``returns`` (the mover's final return), and the counts ``games``."""
    if samples < 1:
        raise ValueError(f"samples must be positive, got {samples}")
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    teacher.reset(seed=int(rng.integers(0, 2**62)))
    b = EpisodeBatch(game, num_games, max_steps=game.spec.max_game_length)
    rows = np.arange(num_games, dtype=np.int64)
    b.deal(rows, rng.integers(0, 2**62, size=num_games))
    episode = np.arange(num_games)
    next_episode = num_games
    chunks: list[tuple[np.ndarray, ...]] = []
    finished: dict[int, np.ndarray] = {}
    kept = 0
    while kept < samples and (max_seconds is None or time.perf_counter() - t0 < max_seconds):
        live = rows[b.players >= 0]
        actions = decide(teacher, game, b, live)
        chunks.append(
            (encoder.encode_batch(b.obs[live]), b.masks[live] != 0, actions, episode[live], b.players[live].copy())
        )
        bad = b.step(live, actions)
        if bad >= 0:
            raise ValueError(f"the teacher {teacher!r} chose an illegal action in {game.env_id}")
        over = live[b.players[live] < 0]
        for i in over:
            finished[int(episode[i])] = b.rewards[i].copy()
            kept += int(b.lengths[i])
            episode[i] = next_episode
            next_episode += 1
        if over.size:
            b.deal(over, rng.integers(0, 2**62, size=over.size))
    obs, masks, actions, episodes, players = (np.concatenate(parts) for parts in zip(*chunks))
    done = np.isin(episodes, np.fromiter(finished, dtype=np.int64, count=len(finished)))
    returns = np.array([finished[int(e)][int(p)] for e, p in zip(episodes[done], players[done])], dtype=np.float32)
    return {
        "obs": obs[done],
        "masks": masks[done],
        "actions": actions[done],
        "returns": returns,
        "games": np.int64(len(finished)),
    }


def pretrain(
    policy,
    data: dict[str, np.ndarray],
    epochs: int = 4,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    value_weight: float = 0.5,
    seed: int = 0,
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """Fit ``policy`` (an SB3 MaskableActorCriticPolicy) to the teacher's ``data``: cross-entropy
    of its masked action distribution against the teacher's actions plus ``value_weight`` x the
    squared error of its value against the returns. A tenth of the samples is held out;
    returns the held-out agreement with the teacher (argmax), losses, samples, the epochs run
    (fewer than ``epochs`` when ``max_seconds`` ran out) and seconds."""
    t0 = time.perf_counter()
    n = len(data["actions"])
    if n < 10:
        raise ValueError(f"too few teacher samples to learn from ({n})")
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    held, train = order[: n // 10], order[n // 10 :]
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    losses: list[float] = []
    done = 0
    for _ in range(epochs):
        for start in range(0, train.size, batch_size):
            idx = torch.as_tensor(train[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            loss = -log_prob.mean() + value_weight * torch.mean((values.flatten() - returns[idx]) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(float(loss.detach()))
        done += 1
        if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
            break
    policy.set_training_mode(False)
    agreement = _agreement(policy, obs[held], masks[held], actions[held])
    return {
        "samples": int(n),
        "held_out": int(held.size),
        "held_out_agreement": agreement,
        "epochs": done,
        "first_loss": losses[0],
        "last_loss": float(np.mean(losses[-20:])),
        "seconds": time.perf_counter() - t0,
    }


def _agreement(policy, obs, masks, actions) -> float:
    """Share of the rows where the policy's most likely legal action is the teacher's."""
    with torch.no_grad():
        features = policy.extract_features(obs, policy.pi_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        logits[~masks] = -torch.inf
        return float((logits.argmax(dim=1) == actions).float().mean())
