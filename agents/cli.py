"""Entry points of ``mushgym train`` and ``mushgym eval`` (wired in :mod:`mushgym.cli`).

Both take the arguments after the subcommand name::

    train_main(["fungi_v0", "--steps", "1000000", "--opponent", "self", "--seed", "0"])
    eval_main(["fungi_v0", "random", "greedy", "runs/x/final.zip", "--games", "1000"])

``train_main`` imports torch and sb3 (the ``train`` extra) when called;
``eval_main`` only when one of the agents is a saved model.
"""

from .evaluate import eval_main


def train_main(argv=None) -> int:
    from .ppo import train_main as _train_main

    return _train_main(argv)


__all__ = ["eval_main", "train_main"]
