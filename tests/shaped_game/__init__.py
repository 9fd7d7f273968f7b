"""Declarations compiled by tests/test_layout.py (a module file, so numba can cache them)."""
