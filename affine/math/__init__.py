"""Layer 1: affine expressions, maps, integer sets, simplification, algebra, float formats and
the sympy bridge (imports nothing else of the library)."""
