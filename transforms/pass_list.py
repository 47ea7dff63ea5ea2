"""Every pass poly-opt knows, by flag name (imported lazily by :mod:`transforms.registry`)."""


# register("affine-loop-tile", "Tile affine loop nests", "transforms.tiling", "LoopTilingPass")
