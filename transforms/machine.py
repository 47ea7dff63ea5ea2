"""The machine a schedule is tuned for: data cache sizes and the SIMD vector width.

A :class:`Machine` always holds a size for L1 (data), L2 and L3, the cache line, the L1's
associativity, the widest vector register and the number of such registers. :func:`detect`
reads them from the operating system (Linux sysfs cache descriptions, ``/proc/cpuinfo`` flags), falling back to
:data:`FALLBACK` field by field for whatever the OS does not say; :meth:`Machine.override`
and :func:`machine_from_options` replace any of them (sizes in KiB, as the pass options
``l1=``, ``l2=``, ``l3=``, ``l1-ways=`` and ``vector-bits=`` give them). ``source`` says
where each value came from, so that reports can state it.

Virtual machines may describe their caches differently from the hardware (a KVM guest on
AMD Zen 5 reports a 32 KiB L1d for a 48 KiB one): overrides exist for that.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

SYSFS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
CPUINFO = Path("/proc/cpuinfo")
KIB = 1024
# Overlapping vector loads of a row are rotated (one load, shifted into place) with vectors
# this wide: a lane shift of a 512-bit vector is one instruction (valignd); of a 256-bit
# one a cross-lane permute and an align, slower than the unaligned loads it replaces (in
# L2 with 256-bit vectors: jacobi-1d 1.09x rotated against 1.18x not, heat-3d 1.53x
# against 1.72x)
ROTATION_BITS = 512


@dataclass(frozen=True)
class Machine:
    """Cache capacities in bytes (L1 is the data cache), its ways, and the SIMD registers'
    shape."""

    l1: int
    l2: int
    l3: int
    line: int
    vector_bits: int
    vector_registers: int
    l1_ways: int = 8
    source: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for name in _FIELDS:
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.vector_bits % 8:
            raise ValueError(f"vector_bits must be a multiple of 8, got {self.vector_bits}")

    def lanes(self, element_bytes: int) -> int:
        """Elements of ``element_bytes`` bytes in one vector register (at least 1)."""
        if element_bytes <= 0:
            raise ValueError(f"element size must be positive, got {element_bytes}")
        return max(1, self.vector_bits // 8 // element_bytes)

    @property
    def l1_set_span(self) -> int:
        """Bytes between two addresses that fall into the same L1 set (its size over its
        ways): more than :attr:`l1_ways` lines a stride of this apart cannot stay in L1."""
        return max(self.line, self.l1 // self.l1_ways)

    @property
    def rotates_loads(self) -> bool:
        """Whether overlapping vector loads pay to be rotated (:data:`ROTATION_BITS`)."""
        return self.vector_bits >= ROTATION_BITS

    def override(self, source: str = "override", **values: int | None) -> Machine:
        """This machine with the given fields replaced (``None`` keeps a field); cache
        sizes in bytes. The replaced fields' source becomes ``source``. An L1 size given
        without its ways keeps :attr:`l1_set_span` (the ways scale with the size)."""
        given = {k: v for k, v in values.items() if v is not None}
        unknown = sorted(set(given) - set(_FIELDS))
        if unknown:
            raise ValueError(f"unknown machine field(s): {', '.join(unknown)}")
        if "l1" in given and "l1_ways" not in given:
            given["l1_ways"] = max(1, given["l1"] // self.l1_set_span)
        sources = dict(self.source)
        sources.update({k: source for k in given})
        return replace(self, **given, source=sources)

    def options(self) -> str:
        """The pass options that rebuild this machine's caches and vector width on any other
        (``l1=32 l2=1024 l3=32768 l1-ways=8 vector-bits=512``)."""
        return (
            f"l1={self.l1 // KIB} l2={self.l2 // KIB} l3={self.l3 // KIB} "
            f"l1-ways={self.l1_ways} vector-bits={self.vector_bits}"
        )

    def describe(self) -> str:
        """One line: sizes in KiB, the vector shape, and where values did not come from the OS."""
        text = (
            f"L1d {self.l1 // KIB} KiB {self.l1_ways}-way, L2 {self.l2 // KIB} KiB, "
            f"L3 {self.l3 // KIB} KiB, {self.line}-byte lines, "
            f"{self.vector_registers} x {self.vector_bits}-bit vectors"
        )
        other = sorted(k for k, v in self.source.items() if v != "os")
        if other:
            text += " (" + ", ".join(f"{k}: {self.source[k]}" for k in other) + ")"
        return text


_FIELDS = ("l1", "l2", "l3", "line", "vector_bits", "vector_registers", "l1_ways")

FALLBACK = Machine(
    l1=32 * KIB, l2=512 * KIB, l3=8192 * KIB, line=64, vector_bits=128, vector_registers=16
)  # and 8 ways


def parse_size(text: str) -> int:
    """Bytes in a sysfs size such as ``32K``, ``1024K``, ``32M`` or ``65536``."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)\s*", text)
    if match is None:
        raise ValueError(f"cannot read the cache size '{text.strip()}'")
    scale = {"": 1, "K": KIB, "M": KIB**2, "G": KIB**3}[match.group(2)]
    return int(match.group(1)) * scale


def read_caches(root: Path = SYSFS_CACHE) -> dict[str, int]:
    """``l1``/``l2``/``l3`` capacities, ``line`` and ``l1_ways`` from ``root/index*/`` (data
    and unified caches only); what the OS does not describe is missing from the result."""
    found: dict[str, int] = {}
    for index in sorted(root.glob("index*")):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = parse_size((index / "size").read_text())
        except (OSError, ValueError):
            continue
        if kind not in ("Data", "Unified") or not 1 <= level <= 3:
            continue
        found[f"l{level}"] = size
        try:
            if level == 1:
                found["l1_ways"] = int((index / "ways_of_associativity").read_text())
        except (OSError, ValueError):
            pass
        try:
            found.setdefault("line", int((index / "coherency_line_size").read_text()))
        except (OSError, ValueError):
            pass
    return found


def read_vector_shape(cpuinfo: Path = CPUINFO) -> dict[str, int]:
    """``vector_bits`` and ``vector_registers`` from the first CPU's feature flags
    (x86 ``flags``: avx512f, avx/avx2, sse2; Arm ``Features``: asimd); empty when unknown."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return {}
    match = re.search(r"^(?:flags|Features)\s*:(.*)$", text, re.MULTILINE)
    if match is None:
        return {}
    flags = set(match.group(1).split())
    if "avx512f" in flags:
        return {"vector_bits": 512, "vector_registers": 32}
    if "avx2" in flags or "avx" in flags:
        return {"vector_bits": 256, "vector_registers": 16}
    if "sse2" in flags:
        return {"vector_bits": 128, "vector_registers": 16}
    if "asimd" in flags:
        return {"vector_bits": 128, "vector_registers": 32}
    return {}


def detect(
    caches: Path = SYSFS_CACHE,
    cpuinfo: Path = CPUINFO,
    environ: Mapping[str, str] = os.environ,
) -> Machine:
    """The machine as the OS describes it, :data:`FALLBACK` for what it does not say, with
    the options of ``$POLY_MACHINE`` applied (``"l1=32 l2=1024 l3=32768 vector-bits=512"``,
    the pass options' syntax: schedules made for another machine, or the same on every one)."""
    values = {**read_caches(caches), **read_vector_shape(cpuinfo)}
    source = {k: ("os" if k in values else "fallback") for k in _FIELDS}
    machine = replace(FALLBACK, **values, source=source)
    pinned = environ.get(MACHINE_VARIABLE, "").strip()
    if not pinned:
        return machine
    try:
        return machine_from_options(parse_machine_options(pinned), machine, "$" + MACHINE_VARIABLE)
    except ValueError as error:
        raise ValueError(f"${MACHINE_VARIABLE}: {error}") from None


MACHINE_VARIABLE = "POLY_MACHINE"


def parse_machine_options(text: str) -> dict[str, int | None]:
    """``key=value`` pairs separated by spaces or commas, values positive integers."""
    options: dict[str, int | None] = {}
    for item in re.split(r"[\s,]+", text.strip()):
        key, equals, value = item.partition("=")
        if not equals or not value.isdigit() or int(value) <= 0:
            raise ValueError(f"expected key=positive integer, got '{item}'")
        options[key] = int(value)
    return options


_OPTION_SCALE = {"l1": KIB, "l2": KIB, "l3": KIB, "l1-ways": 1, "vector-bits": 1}


def machine_from_options(
    options: Mapping[str, int | None], base: Machine | None = None, source: str = "override"
) -> Machine:
    """``base`` (default: :func:`detect`) with pass options applied: ``l1``, ``l2``, ``l3``
    in KiB, ``l1-ways`` and ``vector-bits`` (which also sets 32 registers for 512-bit vectors, else 16).
    ``None`` values are ignored; the fields set say ``source`` in :attr:`Machine.source`."""
    unknown = sorted(set(options) - set(_OPTION_SCALE))
    if unknown:
        raise ValueError(f"unknown machine option(s): {', '.join(unknown)}")
    values = {
        k.replace("-", "_"): v * _OPTION_SCALE[k] for k, v in options.items() if v is not None
    }
    bits = values.get("vector_bits")
    if bits is not None:
        values["vector_registers"] = 32 if bits >= 512 else 16
    return (base or detect()).override(source, **values)


__all__ = [
    "FALLBACK",
    "Machine",
    "detect",
    "machine_from_options",
    "parse_machine_options",
    "parse_size",
    "read_caches",
    "read_vector_shape",
]
