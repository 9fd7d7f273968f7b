"""Declarations compiled by tests/engine/test_layout.py (a module file, so numba can cache them)."""
