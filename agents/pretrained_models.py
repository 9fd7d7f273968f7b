"""Pretrained agents by name: the networks shipped inside the package, one manifest each.

    from mushgym.agents import pretrained
    agent = pretrained("fungi_v0")                                        # a PolicyAgent
    agent = pretrained("mycology_v1", num_players=4, observation="full")
    make_agent("pretrained", env_id="fungi_v0")                           # the same, by name
    mushgym eval fungi_v0 pretrained greedy
    mushgym eval fungi_v0 puct:400:pretrained mcts:1000                   # as PUCT's network
    mushgym play fungi_v0 --opponent pretrained

Each model is two files in ``agents/pretrained/`` (``mushgym/agents/pretrained/`` once
installed): ``NAME.pt``, the network's tensors (weights only), and ``NAME.json``, its manifest
(plain JSON): the env id and options it plays, the network's description (layer sizes,
activation, encoder, observation length, actions), the sha256 of the ``.pt``, how it was trained
(command, date, machine, commit, settings) and its evaluation against random, greedy and
``mcts:1000`` (games, wins-draws-losses, 95% Wilson intervals, which env version each was measured
on). Which env ids and options have a model comes from the manifests alone, never from code.

A model plays a game when its env id is the game's and its options, with the game's defaults
filled in, are the game's; options that change only the rewards (``reward``) are ignored, since
they change neither what the network sees nor the legal moves. Loading checks the ``.pt``
against the manifest's sha256 before reading it with ``torch.load(weights_only=True)``
(:mod:`mushgym.weights`): a changed or corrupted file is refused. Loading needs the ``train``
extra (torch, stable-baselines3, sb3-contrib); listing the models needs nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

#: where the models live (package data of mushgym.agents)
MODELS_DIR = Path(__file__).resolve().parent / "pretrained"
#: the manifests' format
MANIFEST_FORMAT = "mushgym-pretrained-v1"
#: options that change only the rewards: a model plays a game whatever their values
REWARD_ONLY_OPTIONS = ("reward",)
#: the fields every manifest must have
REQUIRED = ("format", "name", "env_id", "options", "weights", "sha256", "policy")


def manifests(folder: str | Path | None = None) -> list[dict[str, Any]]:
    """Every model's manifest in ``folder`` (default: the shipped models), sorted by name; each dict
    gains ``"path"``, the manifest file. A malformed manifest is a ``ValueError`` naming it."""
    folder = Path(folder) if folder is not None else MODELS_DIR
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a JSON model manifest ({err})") from None
        if not isinstance(manifest, dict):
            raise ValueError(f"{path}: a model manifest is a JSON object")
        missing = [k for k in REQUIRED if k not in manifest]
        if missing:
            raise ValueError(f"{path}: a model manifest needs {', '.join(missing)}")
        if manifest["format"] != MANIFEST_FORMAT:
            raise ValueError(f"{path}: format {manifest['format']!r} is not {MANIFEST_FORMAT!r}")
        if not isinstance(manifest["options"], dict):
            raise ValueError(f"{path}: 'options' must be an object, got {manifest['options']!r}")
        manifest["path"] = str(path)
        found.append(manifest)
    return found


def describe(manifest: dict[str, Any]) -> str:
    """``"mycology_v1 num_players=4 observation='full'"``: a model's env id and options."""
    opts = " ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in sorted(manifest["options"].items()))
    return f"{manifest['env_id']} {opts}".strip()


def list_pretrained(folder: str | Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``[(env_id, options), ...]`` of every shipped model (from the manifests)."""
    return [(m["env_id"], dict(m["options"])) for m in manifests(folder)]


def _defaults(env_id: str) -> dict[str, Any] | None:
    """The default options of ``env_id``'s game, or None if no such env is registered here."""
    from mushgym import registry

    if env_id not in registry.list_envs():
        return None
    return dict(registry.env_module(env_id).Game.default_options)


def _plays(manifest: dict[str, Any], env_id: str, options: dict[str, Any], defaults: dict[str, Any]) -> bool:
    if manifest["env_id"] != env_id:
        return False
    want = {k: v for k, v in {**defaults, **options}.items() if k not in REWARD_ONLY_OPTIONS}
    have = {k: v for k, v in {**defaults, **manifest["options"]}.items() if k not in REWARD_ONLY_OPTIONS}
    return want == have


def find_manifest(env_id: str, folder: str | Path | None = None, **options: Any) -> dict[str, Any]:
    """The manifest of the model that plays ``env_id`` with ``options``; a ``ValueError`` listing
    the env ids and options that have one otherwise."""
    found = manifests(folder)
    defaults = _defaults(env_id)
    if defaults is not None:
        unknown = sorted(set(options) - set(defaults))
        matching = [] if unknown else [m for m in found if _plays(m, env_id, options, defaults)]
        if len(matching) > 1:
            raise ValueError(
                f"several pretrained models play {env_id} {options}: {', '.join(m['name'] for m in matching)}"
            )
        if matching:
            return matching[0]
    shown = {k: v for k, v in options.items() if defaults is None or k not in defaults or defaults[k] != v}
    asked = " ".join(f"{k}={v!r}" for k, v in sorted(shown.items())) or "with its default options"
    have = "; ".join(describe(m) for m in found) or "none"
    if defaults is None:
        where = f" ({env_id} is not a registered env here)"
    elif unknown:
        where = f" ({', '.join(unknown)}: not an option of {env_id})"
    else:
        where = ""
    raise ValueError(f"no pretrained model for {env_id} {asked}{where}; pretrained models exist for: {have}")


def sha256_of(path: str | Path) -> str:
    """The hex sha256 of the file at ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def weights_path(manifest: dict[str, Any]) -> Path:
    """The model's ``.pt``, checked against the manifest's sha256 (a ``ValueError`` if it differs)."""
    name = manifest["weights"]
    if not isinstance(name, str) or Path(name).name != name:
        raise ValueError(f"{manifest['path']}: 'weights' must be a file name beside the manifest, got {name!r}")
    path = Path(manifest["path"]).parent / name
    if not path.is_file():
        raise FileNotFoundError(f"{manifest['path']}: its weights file {path} is missing (reinstall mushgym)")
    actual = sha256_of(path)
    if actual != manifest["sha256"]:
        raise ValueError(
            f"{path}: sha256 {actual} is not the {manifest['sha256']} its manifest "
            f"{Path(manifest['path']).name} records: the file is corrupted or was replaced "
            "(reinstall mushgym); refusing to load it"
        )
    return path


def load_manifest_model(
    manifest: dict[str, Any],
    seed: int | None = None,
    deterministic: bool = True,
    reward_options: dict[str, Any] | None = None,
):
    """The model of ``manifest`` as a :class:`mushgym.agents.ppo_policy.PolicyAgent` (sha256
    checked, weights only), its encoder built for the manifest's env and options (plus
    ``reward_options``, which change only the rewards)."""
    try:
        from .ppo_policy import PolicyAgent, _policy_from_weights
    except ImportError as err:
        raise ImportError(f"pretrained agents need the train extra: pip install 'mushgym[train]' ({err})") from err
    import mushgym
    from mushgym.weights import one_torch_thread
    from mushgym.wrappers import make_encoder

    path = weights_path(manifest)
    desc = manifest["policy"]
    game = mushgym.game(manifest["env_id"], **{**manifest["options"], **(reward_options or {})})
    encoder = make_encoder(desc.get("encoder", manifest.get("encoder", "scaled")), game)
    shape = list(encoder.space.shape)
    if shape != list(desc.get("observation_shape", shape)) or game.num_actions != desc.get("num_actions"):
        raise ValueError(
            f"{manifest['path']}: the network takes observations of shape {desc.get('observation_shape')} "
            f"and has {desc.get('num_actions')} actions; {describe(manifest)} gives {shape} and "
            f"{game.num_actions}"
        )
    one_torch_thread()
    policy = _policy_from_weights(path, manifest, encoder, game.num_actions)
    return PolicyAgent(policy, encoder, deterministic=deterministic, name=f"pretrained:{manifest['name']}", seed=seed)


def pretrained(env_id: str, *, seed: int | None = None, deterministic: bool = True, **options: Any):
    """The shipped network that plays ``env_id`` with game ``options``, as an agent (a
    :class:`mushgym.agents.ppo_policy.PolicyAgent`: it also serves as PUCT's network). Its
    manifest is ``agent.manifest``. ``deterministic`` (default) plays the most likely legal
    action, else a sample. No model for that env and options: a ``ValueError`` listing those
    with one."""
    manifest = find_manifest(env_id, **options)
    reward = {k: v for k, v in options.items() if k in REWARD_ONLY_OPTIONS}
    agent = load_manifest_model(manifest, seed=seed, deterministic=deterministic, reward_options=reward)
    agent.manifest = manifest
    return agent
