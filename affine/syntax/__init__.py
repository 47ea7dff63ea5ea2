"""Layer 3: MLIR text: lexer, parser, printer and the 2018-19 seed syntax."""
