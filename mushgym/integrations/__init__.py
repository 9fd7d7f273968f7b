"""Bridges from mushgym to other game libraries (each imports its library only when used).

* :mod:`mushgym.integrations.openspiel`: every registered env as a pyspiel Python game
  (``pip install open_spiel``, in the ``bench`` and ``openspiel`` extras).
"""
