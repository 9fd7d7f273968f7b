"""Bridges from mushgym to other game libraries (each imports its library only when used).

* :mod:`mushgym.integrations.openspiel`: every registered env as a pyspiel Python game
  (``pip install open_spiel``, in the ``bench`` and ``openspiel`` extras).
* :mod:`mushgym.integrations.ray_session`: ``init_ray``, the one way into Ray of the RLlib
  trainer and the expert-iteration actors (the ``rllib`` extra).
"""
