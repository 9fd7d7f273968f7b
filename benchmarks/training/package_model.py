"""Ship a trained network as a pretrained agent: copy its weights into ``agents/pretrained/`` and
write its manifest (``mushgym.agents.pretrained_models`` reads both).

    python benchmarks/training/package_model.py runs/<run>/final.pt --name mycelium_v2_4p \
        --command "mushgym train mycelium_v2 --option num_players=4 --minutes 60 --seed 0" \
        --date 2026-12-08 --machine "2 vCPUs (lscpu: ...)" --commit abc1234 \
        --eval runs/<run>/eval_greedy.csv --eval runs/<run>/eval_random.csv --eval runs/<run>/eval_mcts.csv

The network's ``.pt`` must be weights only, with its ``.json`` description beside it (what
``mushgym train`` and ``export_policy`` write: env id, options, encoder, layer sizes, settings).
The manifest takes the env id and options from that description (``--env``/``--option`` change
them, e.g. for a network whose observation is that of an option of a newer version: then say so
with ``--trained-on-note``). Each ``--eval`` is a CSV of ``mushgym eval MODEL OPPONENT`` (the rows
naming this model's path, or ``--as``; a row is read from either side); the file names its source. The file is
copied unchanged and its sha256 recorded; the tests (``tests/agents/test_pretrained.py``) then check that
it loads, plays and beats random.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "agents" / "pretrained"
FOUR_PLAYERS = "each agent holds half the seats, and a game counts for the agent whose best seat scores more"


def evaluations(paths: list[Path], model: Path, env_id: str, options: dict, alias: str = "") -> list[dict]:
    """One entry per row of the CSVs that pairs ``model`` (a path with its file name, or ``alias``)
    with an opponent, from the model's side."""
    from mushgym.agents.evaluate import wilson_interval

    found = []
    for path in paths:
        for row in csv.DictReader(path.open()):
            a, b = row["agent_a"], row["agent_b"]
            if Path(a).name == model.name or a == alias:
                opponent, w, lost = b, int(row["wins_a"]), int(row["losses_a"])
            elif Path(b).name == model.name or b == alias:
                opponent, w, lost = a, int(row["losses_a"]), int(row["wins_a"])
            else:
                continue
            d = int(row["draws"])
            n = w + d + lost
            lo, hi = wilson_interval(w, n)
            entry = {
                "agent": "network alone (most likely legal action)",
                "opponent": opponent,
                "games": n,
                "wins": w,
                "draws": d,
                "losses": lost,
                "win_rate": round(w / n, 4),
                "win_rate_95": [round(lo, 4), round(hi, 4)],
                "measured_on": {"env_id": row["env"], "options": options},
                "source": str(path),
            }
            if options.get("num_players", 2) > 2:
                entry["note"] = FOUR_PLAYERS
            found.append(entry)
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("weights", type=Path, help="the network's weights-only .pt (its .json beside it)")
    p.add_argument("--name", required=True, help="the model's file name stem, e.g. mycelium_v2_4p")
    p.add_argument("--env", default=None, help="the env id it plays (default: the one it was trained on)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the game options it plays (default: those it was trained with, less reward)",
    )
    p.add_argument("--command", required=True, help="the command that trained it, as run")
    p.add_argument("--reproduce", default=None, help="the command that trains it on the current version")
    p.add_argument("--date", required=True)
    p.add_argument("--machine", required=True)
    p.add_argument("--commit", required=True)
    p.add_argument("--summary", default="")
    p.add_argument("--trained-on-note", default="trained and evaluated on the env id and options it plays")
    p.add_argument("--eval", action="append", default=[], type=Path, help="a mushgym eval CSV (repeatable)")
    p.add_argument(
        "--as",
        dest="alias",
        default="ppo",
        help="the model's name in the CSVs when not its path (default ppo: mushgym train's eval.csv)",
    )
    p.add_argument("--force", action="store_true", help="replace a model of that name")
    p.add_argument("--out", type=Path, default=MODELS, help="the models' folder (default agents/pretrained)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from mushgym.options import parse_options

    meta = json.loads(args.weights.with_suffix(".json").read_text())
    if not isinstance(meta.get("policy"), dict):
        raise SystemExit(f"{args.weights}: its .json has no network description (not a weights-only policy)")
    trained_options = dict(meta.get("options", {}))
    options = parse_options(args.option) or {k: v for k, v in trained_options.items() if k != "reward"}
    env_id = args.env or meta["env_id"]
    target = args.out / f"{args.name}.pt"
    if target.exists() and not args.force:
        raise SystemExit(f"{target} exists (--force replaces it)")
    import torch

    weights = torch.load(args.weights, map_location="cpu", weights_only=True)
    policy = meta["policy"]
    manifest = {
        "format": "mushgym-pretrained-v1",
        "name": args.name,
        "env_id": env_id,
        "game": env_id.rsplit("_v", 1)[0],
        "version": int(env_id.rsplit("_v", 1)[1]),
        "options": options,
        "summary": args.summary,
        "trained_on": {"env_id": meta["env_id"], "options": trained_options, "note": args.trained_on_note},
        "training": {
            "command": args.command,
            "reproduce": args.reproduce or args.command,
            "date": args.date,
            "commit": args.commit,
            "machine": args.machine,
            "algo": meta.get("algo"),
            "settings": meta.get("hyper", {}),
            "options": trained_options,
            **{k: meta[k] for k in ("opponent", "seed", "steps", "positions", "updates", "wall_seconds") if k in meta},
        },
        "weights": target.name,
        "sha256": hashlib.sha256(args.weights.read_bytes()).hexdigest(),
        "bytes": args.weights.stat().st_size,
        "encoder": meta.get("encoder", policy.get("encoder")),
        "policy": policy,
        "network": {
            "kind": "MaskableActorCriticPolicy (sb3-contrib): separate policy and value MLPs",
            "hidden_layers": policy["net_arch"],
            "activation": policy["activation"],
            "observation_length": policy["observation_shape"][0],
            "actions": policy["num_actions"],
            "parameters": int(sum(v.numel() for v in weights.values())),
            "dtype": str(next(iter(weights.values())).dtype).replace("torch.", ""),
        },
        "evaluation": evaluations(args.eval, args.weights, env_id, options, args.alias),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.weights, target)
    target.with_suffix(".json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {target} and {target.with_suffix('.json')} ({len(manifest['evaluation'])} evaluations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
