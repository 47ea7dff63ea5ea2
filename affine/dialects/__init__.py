"""Operation definitions, registered by name in :mod:`affine.ir.registry`."""


def load_all() -> None:
    """Import every dialect module (each registers its ops on import)."""
    from affine.dialects import affine_dialect, arith, func, memref, scf  # noqa: F401
