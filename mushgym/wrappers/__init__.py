"""Wrappers: observation encoders, graph observations and the single-agent Gymnasium view (for SB3)."""

from .encoders import ENCODERS, FlatEncoder, ObservationEncoder, OneHotEncoder, ScaledEncoder, make_encoder
from .graph import GraphObservation, supports_graph
from .single_agent import OpponentPool, SingleAgentEnv, set_torch_threads

__all__ = ["ENCODERS", "FlatEncoder", "GraphObservation", "ObservationEncoder", "OneHotEncoder", "OpponentPool",
           "ScaledEncoder", "SingleAgentEnv", "make_encoder", "set_torch_threads", "supports_graph"]
