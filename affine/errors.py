"""The root of every exception the toolkit raises on purpose (layer 0: imports nothing).

Invariant: every error class of ``affine``, ``poly`` and ``transforms`` derives from
:class:`PolyError`, so ``except PolyError`` catches exactly the toolkit's own refusals
(errors that also mean a Python category keep it as a second base: ``ValueError``...).
"""


class PolyError(Exception):
    """Base class of every error the toolkit reports to users."""
