"""Golden tests of what each pass prints (FileCheck-style), on inputs where the outcome
is known: the cache model's tiles, legal and refused permutations, skewing, unrolling,
unroll-and-jam and parallelisation."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS
from filecheck import filecheck

from transforms.cli import main

MATMUL_1024 = CORPUS / "passes" / "matmul_1024.mlir"
DEPS = CORPUS / "deps"
KERNELS = CORPUS / "kernels"

# (input, options, expected output checks, expected remark checks)
CASES = [
    (
        # 1024^3 product, 512 KiB cache: a long contiguous j inside 16x32 tiles of (i, k),
        # i.e. the intra-tile order is i, k, j and the j loop is not tiled at all.
        MATMUL_1024,
        ["--affine-loop-tile"],
        """
        // CHECK: affine.for [[I:%arg[0-9]+]] = 0 to 1024 step 16 {
        // CHECK-NEXT: affine.for [[K:%arg[0-9]+]] = 0 to 1024 step 32 {
        // CHECK-NEXT: affine.for [[II:%arg[0-9]+]] = #map([[I]]) to #map1([[I]]) {
        // CHECK-NEXT: affine.for [[KK:%arg[0-9]+]] = #map([[K]]) to #map2([[K]]) {
        // CHECK-NEXT: affine.for [[J:%arg[0-9]+]] = 0 to 1024 {
        // CHECK-NEXT: affine.load %arg0[[[II]], [[KK]]]
        // CHECK-NEXT: affine.load %arg1[[[KK]], [[J]]]
        """,
        "",
    ),
    (
        DEPS / "skewed_stencil.mlir",
        ["--affine-loop-tile=tile-sizes=2,2"],
        """
        // CHECK: affine.for %arg1 = 1 to 8 {
        // CHECK-NEXT: affine.for %arg2 = 0 to 7 {
        // CHECK-NOT: step
        """,
        "// CHECK: remark: loop band not tiled: it would reverse the RAW dependence from affine.store at {{.*}}:6:7 to affine.load at {{.*}}:5:12 with distance (1, -1)",
    ),
    (
        DEPS / "matmul.mlir",
        ["--affine-loop-interchange"],
        """
        // CHECK: affine.for %arg3 = 0 to 4 {
        // CHECK-NEXT: affine.for %arg4 = 0 to 5 {
        // CHECK-NEXT: affine.for %arg5 = 0 to 3 {
        // CHECK-NEXT: affine.load %arg0[%arg3, %arg4]
        """,
        "",
    ),
    (
        # interchange of a triangular band: loops regenerated, bounds swap roles
        DEPS / "triangular_update.mlir",
        ["--test-loop-permutation=permutation-map=1,0"],
        """
        // CHECK: #map = affine_map<(d0) -> (d0)>
        // CHECK: affine.for [[J:%arg[0-9]+]] = 1 to 10 {
        // CHECK-NEXT: affine.for [[I:%arg[0-9]+]] = 0 to #map([[J]]) {
        // CHECK-NEXT: affine.load %arg0[[[I]]]
        """,
        "",
    ),
    (
        DEPS / "transpose_in_place.mlir",
        ["--test-loop-permutation=permutation-map=1,0"],
        "// CHECK: affine.for %arg1 = 0 to 7 {",
        "// CHECK: remark: loop band not permuted: it would reverse the RAW dependence",
    ),
    (
        DEPS / "skewed_stencil.mlir",
        ["--affine-loop-skew=skew-factors=1"],
        """
        // CHECK: #map = affine_map<(d0) -> (d0)>
        // CHECK: #map1 = affine_map<(d0) -> (d0 + 7)>
        // CHECK: affine.for [[I:%arg[0-9]+]] = 1 to 8 {
        // CHECK-NEXT: affine.for [[J:%arg[0-9]+]] = #map([[I]]) to #map1([[I]]) {
        // CHECK-NEXT: affine.load %arg0[[[I]] - 1, -[[I]] + [[J]] + 1]
        """,
        "",
    ),
    (
        DEPS / "stencil_1d.mlir",
        ["--affine-loop-unroll=unroll-factor=2"],
        """
        // CHECK: affine.for [[I:%arg[0-9]+]] = 1 to 11 step 2 {
        // CHECK: affine.store
        // CHECK: affine.apply
        // CHECK: affine.store
        // CHECK-NOT: affine.store
        """,
        "",
    ),
    (
        DEPS / "matmul.mlir",
        ["--affine-loop-unroll-jam=unroll-jam-factor=2"],
        """
        // CHECK: affine.for [[I:%arg[0-9]+]] = 0 to 4 step 2 {
        // CHECK-NEXT: affine.for
        // CHECK-NEXT: affine.for
        // CHECK: affine.store
        // CHECK: affine.apply #map([[I]])
        // CHECK: affine.store
        """,
        "",
    ),
    (
        KERNELS / "gemm.mlir",
        ["--affine-parallelize"],
        """
        // CHECK: affine.parallel (%arg3) = (0) to (20) {
        // CHECK: affine.for %arg4 = 0 to 28 {
        // CHECK-NEXT: affine.parallel (%arg5) = (0) to (24) {
        """,
        "// CHECK: remark: loop not parallelized: it carries the RAW dependence",
    ),
]


@pytest.mark.parametrize(("path", "args", "checks", "remarks"), CASES, ids=lambda x: str(x)[-40:])
def test_pass_output(
    path: Path, args: list[str], checks: str, remarks: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(path), *args, "--mlir-print-op-on-diagnostic=false"]) == 0
    captured = capsys.readouterr()
    filecheck(captured.out, checks)
    if remarks:
        filecheck(captured.err, remarks)
    else:
        assert "remark" not in captured.err
