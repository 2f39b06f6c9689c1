"""Compiled kernels (Cython). Each has a pure-Python twin in the parent package."""
