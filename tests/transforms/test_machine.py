"""The machine model: cache sizes and vector shape read from sysfs and cpuinfo (fake trees
here, and the real OS for consistency only), fallbacks and overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from transforms.machine import (
    FALLBACK,
    KIB,
    Machine,
    detect,
    machine_from_options,
    parse_size,
    read_caches,
    read_vector_shape,
)

ZEN5_FLAGS = "fpu vme sse sse2 avx f16c avx2 fma avx512f avx512dq avx512bw avx512vl"


def fake_cache(
    root: Path, index: int, level: int, kind: str, size: str, line: int = 64, ways: int = 0
) -> None:
    folder = root / f"index{index}"
    folder.mkdir(parents=True)
    (folder / "level").write_text(f"{level}\n")
    (folder / "type").write_text(f"{kind}\n")
    (folder / "size").write_text(f"{size}\n")
    (folder / "coherency_line_size").write_text(f"{line}\n")
    if ways:
        (folder / "ways_of_associativity").write_text(f"{ways}\n")


def fake_cpuinfo(path: Path, flags: str, key: str = "flags") -> Path:
    path.write_text(f"processor\t: 0\nmodel name\t: Test CPU\n{key}\t\t: {flags}\n\n")
    return path


@pytest.fixture
def zen5(tmp_path: Path) -> tuple[Path, Path]:
    caches = tmp_path / "cache"
    fake_cache(caches, 0, 1, "Data", "48K", ways=12)
    fake_cache(caches, 1, 1, "Instruction", "32K", ways=8)
    fake_cache(caches, 2, 2, "Unified", "1024K")
    fake_cache(caches, 3, 3, "Unified", "32M")
    return caches, fake_cpuinfo(tmp_path / "cpuinfo", ZEN5_FLAGS)


def test_sizes_and_vectors_are_read_from_the_os_files(zen5: tuple[Path, Path]) -> None:
    machine = detect(*zen5, environ={})
    assert (machine.l1, machine.l2, machine.l3) == (48 * KIB, 1024 * KIB, 32 * KIB * KIB)
    assert (machine.line, machine.vector_bits, machine.vector_registers) == (64, 512, 32)
    assert machine.l1_ways == 12 and machine.l1_set_span == 4 * KIB
    assert set(machine.source.values()) == {"os"}
    assert machine.describe() == (
        "L1d 48 KiB 12-way, L2 1024 KiB, L3 32768 KiB, 64-byte lines, 32 x 512-bit vectors"
    )


def test_the_instruction_cache_is_not_taken_for_l1(tmp_path: Path) -> None:
    fake_cache(tmp_path, 0, 1, "Instruction", "64K")
    fake_cache(tmp_path, 1, 1, "Data", "32K", line=128)
    assert read_caches(tmp_path) == {"l1": 32 * KIB, "line": 128}


def test_missing_levels_fall_back_and_say_so(tmp_path: Path) -> None:
    fake_cache(tmp_path / "cache", 0, 1, "Data", "64K")
    machine = detect(tmp_path / "cache", tmp_path / "no-cpuinfo", environ={})
    assert machine.l1 == 64 * KIB
    assert (machine.l2, machine.l3) == (FALLBACK.l2, FALLBACK.l3)
    assert machine.vector_bits == FALLBACK.vector_bits
    assert machine.source["l1"] == "os" and machine.source["l2"] == "fallback"
    assert machine.l1_ways == FALLBACK.l1_ways and machine.source["l1_ways"] == "fallback"
    assert "l2: fallback" in machine.describe()


def test_unreadable_entries_are_skipped(tmp_path: Path) -> None:
    fake_cache(tmp_path, 0, 1, "Data", "lots")
    fake_cache(tmp_path, 1, 2, "Unified", "2M")
    assert read_caches(tmp_path) == {"l2": 2 * KIB * KIB, "line": 64}


@pytest.mark.parametrize(
    ("key", "flags", "shape"),
    [
        ("flags", ZEN5_FLAGS, {"vector_bits": 512, "vector_registers": 32}),
        ("flags", "fpu sse sse2 avx avx2 fma", {"vector_bits": 256, "vector_registers": 16}),
        ("flags", "fpu sse sse2", {"vector_bits": 128, "vector_registers": 16}),
        ("Features", "fp asimd evtstrm aes", {"vector_bits": 128, "vector_registers": 32}),
        ("flags", "fpu vme", {}),
    ],
)
def test_vector_shape_from_cpu_flags(tmp_path: Path, key: str, flags: str, shape: dict) -> None:
    assert read_vector_shape(fake_cpuinfo(tmp_path / "cpuinfo", flags, key)) == shape


def test_avx512_is_a_flag_not_a_prefix(tmp_path: Path) -> None:
    # 'avx512_bf16' alone does not give 512-bit registers; only 'avx512f' does.
    shape = read_vector_shape(fake_cpuinfo(tmp_path / "cpuinfo", "sse2 avx2 avx512_bf16"))
    assert shape == {"vector_bits": 256, "vector_registers": 16}


@pytest.mark.parametrize(
    ("text", "size"), [("32K", 32768), ("1024K\n", 1 << 20), ("32M", 32 << 20), ("4096", 4096)]
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


def test_parse_size_refuses_what_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="cannot read the cache size '12 KB'"):
        parse_size("12 KB")


def test_options_override_in_kib(zen5: tuple[Path, Path]) -> None:
    machine = machine_from_options(
        {"l1": 32, "l3": None, "vector-bits": 256}, detect(*zen5, environ={})
    )
    assert machine.l1 == 32 * KIB and machine.l3 == 32 * KIB * KIB
    assert (machine.vector_bits, machine.vector_registers) == (256, 16)
    assert machine.source["l1"] == "override" and machine.source["l3"] == "os"
    assert machine.lanes(4) == 8 and machine.lanes(8) == 4
    # an L1 given without its ways keeps the OS's set span (48 KiB over 12 ways: 4 KiB)
    assert machine.l1_ways == 8 and machine.l1_set_span == 4 * KIB
    assert machine.options() == "l1=32 l2=1024 l3=32768 l1-ways=8 vector-bits=256"
    assert machine_from_options({"l1-ways": 4}, machine).l1_set_span == 8 * KIB


def test_overrides_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown machine option"):
        machine_from_options({"l4": 1}, FALLBACK)
    with pytest.raises(ValueError, match="l2 must be a positive integer, got 0"):
        machine_from_options({"l2": 0}, FALLBACK)
    with pytest.raises(ValueError, match="unknown machine field"):
        FALLBACK.override(cores=2)
    with pytest.raises(ValueError, match="multiple of 8"):
        Machine(1, 1, 1, 64, 100, 16)


def test_lanes_never_drop_below_one() -> None:
    assert FALLBACK.lanes(32) == 1
    with pytest.raises(ValueError):
        FALLBACK.lanes(0)


def test_the_real_machine_is_consistent() -> None:
    machine = detect(environ={})
    assert machine.l1 <= machine.l2 <= machine.l3
    assert machine.vector_bits in (128, 256, 512)
    assert machine.lanes(4) * 32 == machine.vector_bits


def test_the_machine_can_be_pinned_by_the_environment(zen5: tuple[Path, Path]) -> None:
    """$POLY_MACHINE takes the pass options' syntax and wins over what the OS says."""
    pinned = detect(*zen5, environ={"POLY_MACHINE": "l2=512, vector-bits=256"})
    assert (pinned.l1, pinned.l2) == (48 * KIB, 512 * KIB)
    assert (pinned.vector_bits, pinned.vector_registers) == (256, 16)
    assert pinned.source["l2"] == "$POLY_MACHINE" and pinned.source["l1"] == "os"
    assert pinned.describe().endswith(
        "(l2: $POLY_MACHINE, vector_bits: $POLY_MACHINE, vector_registers: $POLY_MACHINE)"
    )
    assert detect(*zen5, environ={"POLY_MACHINE": "  "}) == detect(*zen5, environ={})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("l2", "expected key=positive integer, got 'l2'"),
        ("l2=0", "expected key=positive integer, got 'l2=0'"),
        ("l2=big", "expected key=positive integer, got 'l2=big'"),
        ("l4=1", "unknown machine option"),
        ("vector-bits=100", "multiple of 8"),
    ],
)
def test_a_wrong_pinned_machine_says_so(zen5: tuple[Path, Path], text: str, message: str) -> None:
    with pytest.raises(ValueError, match=r"^\$POLY_MACHINE: .*" + message):
        detect(*zen5, environ={"POLY_MACHINE": text})
