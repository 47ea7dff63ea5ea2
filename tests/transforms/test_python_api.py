"""The transformations from Python: passes return a new module and their remarks, the
input stays as it was, and the lower-level rewrites take SSA values as tile sizes."""

from __future__ import annotations

import sys

from conftest import CORPUS
from filecheck import filecheck

import affine
import transforms
from affine.dialects.builders import constant_index
from affine.exec.equivalence import check_equivalent
from affine.syntax.printer import print_module


def test_importing_transforms_is_cheap() -> None:
    import subprocess

    code = (
        "import transforms, sys; print('islpy' in sys.modules, 'transforms.tiling' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_passes_return_new_modules() -> None:
    module = affine.parse((CORPUS / "deps" / "skewed_stencil.mlir").read_text(), "s.mlir")
    before = print_module(module)
    result = transforms.tile(module, sizes=[2, 2])
    assert print_module(module) == before
    assert "would reverse the RAW dependence" in result.remarks[0]
    skewed = transforms.skew(module, [1])
    tiled = transforms.tile(skewed.module, sizes=[2, 2])
    assert tiled.remarks == [  # skewing makes the band tileable
        "s.mlir:3:3: remark: loop band tiled: sizes 2, 2 for %i, %j; intra-tile order %i, %j"
        "\n  affine.for %i = 1 to 8 {\n  ^"
    ]
    assert check_equivalent(module.functions()[0], tiled.module.functions()[0])
    for fn in (transforms.permute, transforms.interchange):
        assert fn(module, [1, 0]).remarks
    assert not transforms.unroll(module, 2).remarks
    assert transforms.unroll_and_jam(module, 2).remarks
    assert transforms.parallelize(module).remarks  # the outer loop carries the dependence


def test_parametric_tile_sizes_from_python() -> None:
    module = affine.parse((CORPUS / "deps" / "matmul.mlir").read_text(), "m.mlir")
    copy = module.clone()
    func = copy.functions()[0]
    body = func.regions[0].blocks[0]
    sizes = []
    for value in (2, 3):
        op = constant_index(value)
        body.insert(0, op)
        sizes.append(op.results[0])
    band = transforms.get_perfect_band(
        next(op for op in body.operations if op.name == "affine.for")
    )
    assert transforms.check_tiling(band)
    transforms.tile_perfect_band(band[:2], sizes)
    # MLIR's parametric tiling: tile loops count tiles (4 ceildiv %c2), points are scaled
    filecheck(
        print_module(copy),
        "// CHECK: affine.for [[T:%arg[0-9]+]] = 0 to #map()[%c2] {\n"
        "// CHECK-NEXT: affine.for %arg4 = 0 to #map1()[%c3] {\n"
        "// CHECK-NEXT: affine.for %arg5 = #map2([[T]])[%c2] to min #map3([[T]])[%c2] {",
    )
    assert check_equivalent(module.functions()[0], copy.functions()[0])


def test_the_facade_keeps_its_functions_after_every_submodule_is_imported() -> None:
    # importing a submodule binds its name on the package: none may hide a facade name
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(transforms.__path__):
        importlib.import_module(f"transforms.{info.name}")
    assert callable(transforms.auto_schedule) and callable(transforms.fuse)
    module = affine.parse("func.func @f() {\n  return\n}\n", "empty.mlir")
    assert transforms.auto_schedule(module).module is not None
