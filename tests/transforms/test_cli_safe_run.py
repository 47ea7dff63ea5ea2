"""Safe runs from the command line: ``--affine-check-bounds``, out-of-bounds accesses and
non-positive steps as located errors in both backends, ``--run``'s time limit, sizes,
``.npy`` inputs and outputs, and the NaN warning."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from transforms.cli import main

OUT_OF_BOUNDS = """\
func.func @k(%A: memref<10xf32>, %B: memref<4x4xf32>) {
  affine.for %i = 1 to 10 {
    %v = affine.load %A[%i - 1] : memref<10xf32>
    affine.store %v, %A[%i + 1000000] : memref<10xf32>
  }
  return
}
"""

PARALLEL = """\
func.func @p(%B: memref<4x4xf32>) {
  %c = arith.constant 1.0 : f32
  affine.parallel (%i, %j) = (0, 0) to (4, 5) {
    affine.store %c, %B[%i, %j] : memref<4x4xf32>
  }
  return
}
"""

STEPS = """\
func.func @s(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 step 0 {
    %v = affine.load %A[%i] : memref<10xf32>
  }
  return
}
"""

LONG = """\
func.func @long(%A: memref<2xi64>) {
  affine.for %i = 0 to 1000000000000 {
    %v = affine.load %A[0] : memref<2xi64>
    %w = arith.addi %v, %v : i64
    affine.store %w, %A[0] : memref<2xi64>
  }
  return
}
"""

NAN = """\
func.func @nan(%A: memref<4xf32>, %B: memref<4xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %v = affine.load %A[%i] : memref<4xf32>
    %z = arith.subf %v, %v : f32
    %q = arith.divf %z, %z : f32
    affine.store %q, %B[%i] : memref<4xf32>
  }
  return
}
"""


def poly_opt(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_check_bounds_remarks_each_access(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "k.mlir", OUT_OF_BOUNDS)
    status, _, err = poly_opt(
        capsys, path, "--affine-check-bounds", "--mlir-print-op-on-diagnostic=false"
    )
    assert status == 0
    assert err.splitlines()[::3] == [
        f"{path}:3:10: remark: 'affine.load' of %A (memref<10xf32>): in bounds (proven)",
        f"{path}:4:5: warning: 'affine.store' of %A (memref<10xf32>): may be out of bounds, "
        "e.g. index [1000001] at %i = 1",
    ]


@pytest.mark.parametrize("backend", ["c", "interp"])
@pytest.mark.parametrize(
    ("kernel", "error"),
    [
        (
            OUT_OF_BOUNDS,
            [
                "4:5: error: out-of-bounds store: index [1000001] is outside 'memref<10xf32>' "
                "(sizes [10])",
                "    affine.store %v, %A[%i + 1000000] : memref<10xf32>",
                "    ^",
            ],
        ),
        (
            PARALLEL,
            [
                "4:5: error: out-of-bounds store: index [0, 4] is outside 'memref<4x4xf32>' "
                "(sizes [4, 4])",
                "    affine.store %c, %B[%i, %j] : memref<4x4xf32>",
                "    ^",
            ],
        ),
        (
            STEPS,
            [
                "2:3: error: 'affine.for' step 0 is not positive (the loop would not end)",
                "  affine.for %i = 0 to 10 step 0 {",
                "  ^",
            ],
        ),
    ],
    ids=["store", "parallel", "step"],
)
def test_unsafe_kernels_are_located_errors_in_both_backends(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, backend: str, kernel: str, error: list[str]
) -> None:
    """An access outside its memref (in a parallel loop too, which the C backend then
    compiles without OpenMP), a step that is not positive (before anything runs)."""
    path = write(tmp_path, "k.mlir", kernel)
    status, out, err = poly_opt(capsys, path, f"--run=backend={backend}")
    assert (status, out) == (1, "")
    assert err.splitlines() == [f"{path}:{error[0]}", *error[1:]]


def test_the_time_limit_stops_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "long.mlir", LONG)
    start = time.perf_counter()
    status, out, err = poly_opt(capsys, path, "--run=backend=interp timeout=1")
    assert time.perf_counter() - start < 30
    assert (status, out) == (1, "")
    assert err == (
        f"{path}: error: --run stopped after the time limit of 1 s (timeout=SECONDS of --run)\n"
    )


def test_errors_cross_the_time_limit_child(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "k.mlir", OUT_OF_BOUNDS)
    status, _, err = poly_opt(capsys, path, "--run=timeout=60")
    assert status == 1 and err.startswith(f"{path}:4:5: error: out-of-bounds store: index [")


def test_the_bundled_matmul_runs_with_the_hint_its_error_gives(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(ROOT / "examples" / "matmul.mlir")
    status, _, err = poly_opt(capsys, path, "--run")
    assert status == 1
    hint = '--run="sizes=A=8x8,B=8x8,C=8x8"'
    assert err == (
        f"{path}: error: @matmul: give the sizes of A (memref<?x?xf32>), B (memref<?x?xf32>), "
        f"C (memref<?x?xf32>) to run it, e.g. {hint}\n"
    )
    status, out, err = poly_opt(capsys, path, hint.replace('"', ""))
    assert status == 0 and err == ""
    # C = C + A * B on 8x8 inputs in [1, 2): every element of C exceeds 1 + 8
    assert out.splitlines()[1].startswith("@matmul arg2 memref<?x?xf32>: sum=")
    total = float(out.splitlines()[1].split("sum=")[1].split()[0])
    assert 64 * 9 < total < 64 * 34


def test_inputs_from_npy_outputs_to_npy_and_the_nan_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "nan.mlir", NAN)
    A = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    np.save(tmp_path / "a.npy", A)
    out_dir = tmp_path / "out"
    argv = [path, f"--run=inputs=A={tmp_path / 'a.npy'} sizes=n=2 save={out_dir}"]
    status, out, err = poly_opt(capsys, *argv)
    assert status == 0
    assert err == f"{path}: warning: @nan: output B holds NaN or Inf\n"
    assert out.startswith(f"// poly-opt --run: @nan on deterministic inputs, A from {tmp_path}")
    B = np.load(out_dir / "B.npy")
    assert np.isnan(B[:2]).all() and (B[2:] >= 1).all() and (B[2:] < 2).all()
    assert np.array_equal(np.load(tmp_path / "a.npy"), A)
    # an existing output is kept unless asked, an input file never overwritten
    status, _, err = poly_opt(capsys, *argv)
    assert status == 1 and err == (
        f"{path}: error: save={out_dir}: '{out_dir / 'B.npy'}' exists (give 'overwrite' to "
        "replace it)\n"
    )
    (out_dir / "B.npy").rename(out_dir / "b_in.npy")
    status, _, err = poly_opt(
        capsys, path, f"--run=inputs=B={out_dir / 'b_in.npy'} sizes=n=1 save={out_dir}"
    )
    assert status == 0  # B[0] is written again, the rest is the input's
    np.testing.assert_array_equal(np.load(out_dir / "B.npy")[1:], B[1:])
    np.save(out_dir / "B.npy", A)
    status, _, err = poly_opt(
        capsys, path, f"--run=inputs=B={out_dir / 'B.npy'} sizes=n=1 save={out_dir} overwrite"
    )
    assert status == 1 and "would overwrite the input file" in err
    assert np.array_equal(np.load(out_dir / "B.npy"), A)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("sizes=n=x", "invalid value 'x' for argument n in 'sizes'"),
        ("sizes=q=3", "option 'sizes' of '--run' names no argument 'q' (arguments: A, B, n)"),
        ("sizes=A=3,n=1", "size 0 of argument A is 4 in its type 'memref<4xf32>', not 3"),
        ("sizes=A", "invalid item 'A' in option 'sizes' of '--run' (expected NAME=VALUE)"),
        ("timeout=-1", "option 'timeout' of '--run' must be a number of seconds >= 0"),
    ],
)
def test_bad_run_options_are_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str, message: str
) -> None:
    path = write(tmp_path, "nan.mlir", NAN)
    status, out, err = poly_opt(capsys, path, f"--run={option}")
    assert (status, out) == (1, "")
    assert err == f"{path}: error: {message}\n"


SCALED = """\
func.func @scale(%A: memref<?xf32>, %n: index, %s: f32, %k: i32) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = arith.mulf %a, %s : f32
    affine.store %b, %A[%i] : memref<?xf32>
  }
  return
}
"""


def test_float_scalars_are_generated_integer_scalars_asked_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "k.mlir", SCALED)
    status, _, err = poly_opt(capsys, path, "--run")
    assert status == 1
    assert err == (
        f"{path}: error: @scale: give the sizes of A (memref<?xf32>) and values of n (index), "
        'k (i32) to run it, e.g. --run="sizes=A=8,n=8,k=8"\n'
    )
    status, out, err = poly_opt(capsys, path, "--run=sizes=A=4,n=4,k=1")
    assert status == 0 and err == ""
    # A in [1, 2) times s in [1, 2): each of the 4 elements in [1, 4)
    total = float(out.splitlines()[1].split("sum=")[1].split()[0])
    assert 4 <= total < 16
