"""Shared fixtures: the cases of the shared harness (every registered env x option set, plus the toy game)."""

import os
import sys

# the suite's own processes fill the cores: no extra compile worker per env (mushgym.aec.compile_ahead)
os.environ.setdefault("MUSHGYM_COMPILE_WORKERS", "0")
sys.path.insert(0, os.path.dirname(__file__))  # so tests can import toygame and the *_helpers modules
