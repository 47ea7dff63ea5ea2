"""Loop transformations over affine IR: legality checks, rewrites and passes.

Importing this package is cheap; passes and their dependencies (islpy) load on use.
"""
