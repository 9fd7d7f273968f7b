"""Entry points of ``mushgym train`` and ``mushgym eval`` (wired in :mod:`mushgym.cli`).

Both take the arguments after the subcommand name::

    train_main(["fungi_v0", "--steps", "1000000", "--opponent", "self", "--seed", "0"])
    train_main(["fungi_v0", "--backend", "rllib", "--env-runners", "2", "--iterations", "20"])
    train_main(["fungi_v0", "--algo", "expert", "--minutes", "60"])          # expert iteration
    eval_main(["fungi_v0", "random", "greedy", "runs/x/final.zip", "--games", "1000"])

``train_main`` imports torch and sb3 (the ``train`` extra) when called, or Ray RLlib
(the ``rllib`` extra) with ``--backend rllib``; ``--algo expert`` trains by expert iteration
(:mod:`mushgym.agents.expert`, Ray with ``--actors``); ``eval_main`` only when one of the
agents is a saved model.
"""

from .evaluate import eval_main

BACKENDS = ("sb3", "rllib")
ALGOS = ("ppo", "expert")


def _take(argv, flag: str, default: str, choices: tuple) -> tuple[str, list[str]]:
    """The value of ``flag`` (``default`` if absent) and the arguments without it."""
    argv = list(argv or [])
    value = default
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            value = argv[i + 1]
            rest = argv[:i] + argv[i + 2 :]
            break
        if arg.startswith(flag + "="):
            value = arg.split("=", 1)[1]
            rest = argv[:i] + argv[i + 1 :]
            break
    else:
        rest = argv
    if value not in choices:
        raise SystemExit(f"mushgym train: unknown {flag} {value!r}; choose one of {', '.join(choices)}")
    return value, rest


def _backend(argv) -> tuple[str, list[str]]:
    """The value of ``--backend`` (default sb3) and the arguments without it."""
    return _take(argv, "--backend", "sb3", BACKENDS)


def train_main(argv=None) -> int:
    import sys

    algo, rest = _take(sys.argv[1:] if argv is None else argv, "--algo", "ppo", ALGOS)
    if algo == "expert":
        from .expert import expert_main

        return expert_main(rest)
    backend, rest = _backend(rest)
    if backend == "rllib":
        try:
            from mushgym.integrations.rllib import train_main as _rllib_main
        except ImportError as err:
            raise SystemExit(f"mushgym train --backend rllib: {err}") from err
        return _rllib_main(rest)
    from .ppo import train_main as _train_main

    return _train_main(rest)


__all__ = ["eval_main", "train_main"]
