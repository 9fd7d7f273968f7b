"""Shared fixtures: the cases of the shared harness (every registered env x option set, plus the toy game)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))  # so tests can import toygame and the *_helpers modules
