"""Wrappers: observation encoders, graph observations, the single-agent views (for SB3) and
opponent pools;
``RecordReplay`` saves an AEC env's games as replay files (:mod:`mushgym.replay`).

``SingleAgentEnv`` is one Gymnasium env; ``SingleAgentBatch`` many games at once with the
opponents' decisions batched across them (``mushgym.wrappers.sb3.MaskableVecEnv`` makes it
an SB3 VecEnv; that module imports stable-baselines3). ``GraphObservation`` gives board games'
observations as a graph (node features and an edge list) for GNN policies.
"""

from .encoders import ENCODERS, FlatEncoder, ObservationEncoder, OneHotEncoder, ScaledEncoder, make_encoder
from .graph import GraphObservation, supports_graph
from .opponents import OpponentPool
from .recording import RecordReplay
from .single_agent import SingleAgentEnv, set_torch_threads
from .single_agent_batch import SingleAgentBatch

__all__ = [
    "ENCODERS",
    "FlatEncoder",
    "GraphObservation",
    "ObservationEncoder",
    "OneHotEncoder",
    "OpponentPool",
    "RecordReplay",
    "ScaledEncoder",
    "SingleAgentBatch",
    "SingleAgentEnv",
    "make_encoder",
    "set_torch_threads",
    "supports_graph",
]
