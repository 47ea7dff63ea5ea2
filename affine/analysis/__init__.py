"""Layer 5: analyses over the IR: value maps and canonicalisation, loop analysis, reductions,
memref layouts."""
