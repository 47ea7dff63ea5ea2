"""Layer 6: execution: element types, memory model, interpreter, C backend, running, timing,
equivalence checking and the mlir-runner bridge."""
