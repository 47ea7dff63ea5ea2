"""Layer 2: the generic IR: operations, blocks, values, types, attributes, diagnostics and the
table of registered operations."""
