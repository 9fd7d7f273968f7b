"""Expert-iteration self-play on Ray: actors run the compiled search, the learner stays in the driver.

    mushgym train fungi_v0 --algo expert --actors 4                       # a local Ray, 4 actors
    mushgym train fungi_v0 --algo expert --address auto --actors 16       # the cluster of `ray start`
    ray job submit --address http://HEAD:8265 --working-dir . -- \\
        mushgym train fungi_v0 --algo expert --address auto --actors 16 --minutes 60

Each actor owns a :class:`mushgym.agents.selfplay.SelfPlay` (its ``games`` games in lockstep,
one search thread, a seed of its own) and always has one round of ``chunk`` positions in
flight: the driver takes whichever round finishes first, trains on it and sends that actor its
next round, so a slow actor never holds up the others. A new network snapshot is put in Ray's
object store once and handed to every actor (``set_network``), which searches with it from its
next round on. Weights travel as numpy arrays; nothing is unpickled from outside Ray.
Needs the ``rllib`` extra (Ray).
"""

from __future__ import annotations

from typing import Any

try:
    import ray
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"self-play on Ray needs the rllib extra: pip install 'mushgym[rllib]' (missing: {e.name})"
    ) from e

from mushgym.integrations.ray_session import init_ray

from .selfplay import SelfPlay


class _Actor:
    """One self-play worker as a Ray actor (wrapped by ``ray.remote`` in :class:`RaySelfPlay`)."""

    def __init__(self, env_id: str, options: dict, hp: dict, seed: int) -> None:
        from mushgym.weights import one_torch_thread

        one_torch_thread()
        self.worker = SelfPlay.from_hyper(env_id, options, hp, seed, threads=1)

    def play(self, positions: int) -> dict:
        return self.worker.play(positions)

    def set_network(self, net_arch, weights, encoder: str, version: int) -> int:
        self.worker.set_network(net_arch, weights, encoder, version=version)
        return version

    def stats(self) -> dict:
        return self.worker.stats()

    def node(self) -> str:
        return ray.get_runtime_context().get_node_id()


class RaySelfPlay:
    """``actors`` Ray actors playing self-play rounds (module docstring); the interface of
    :class:`mushgym.agents.expert_loop.LocalSelfPlay`."""

    def __init__(
        self, game, hp: dict, seed: int, actors: int, address: str | None = None, spread: bool = False
    ) -> None:
        init_ray(address, max(actors, 1))
        self.actors = int(actors)
        self.chunk = int(hp["chunk"])
        remote = ray.remote(num_cpus=1, scheduling_strategy="SPREAD" if spread else "DEFAULT")(_Actor)
        self.handles = [
            remote.remote(game.env_id, dict(game.options), dict(hp), seed + 1_000_003 * k) for k in range(self.actors)
        ]
        self.in_flight: dict[Any, int] = {h.play.remote(self.chunk): k for k, h in enumerate(self.handles)}

    def collect(self) -> list[dict]:
        """The rounds finished so far (at least one); their actors start their next rounds."""
        done, _ = ray.wait(list(self.in_flight), num_returns=1)
        more, _ = ray.wait(list(self.in_flight), num_returns=len(self.in_flight), timeout=0)
        out = []
        for ref in {*done, *more}:
            k = self.in_flight.pop(ref)
            out.append(ray.get(ref))
            self.in_flight[self.handles[k].play.remote(self.chunk)] = k
        return out

    def set_network(self, net_arch, weights, encoder: str, version: int) -> None:
        ref = ray.put(weights)
        for h in self.handles:  # runs after the actor's round in flight, before its next one
            h.set_network.remote(net_arch, ref, encoder, version)

    def stats(self) -> list[dict]:
        return ray.get([h.stats.remote() for h in self.handles])

    def nodes(self) -> list[str]:
        """The Ray node each actor runs on."""
        return ray.get([h.node.remote() for h in self.handles])

    def close(self) -> None:
        for h in self.handles:
            ray.kill(h)
        self.handles, self.in_flight = [], {}
