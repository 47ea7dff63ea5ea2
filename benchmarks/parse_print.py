"""Reader and printer speed on ~20,000 lines of affine kernels, side by side with mlir-opt.

Prints lines per second of our in-process read+verify+print, and the ratio of poly-opt's
whole-process time to mlir-opt's on the same file (minimum of several runs each, measured
in the same run).  Target: at most 10x mlir-opt.

    python benchmarks/parse_print.py [--lines 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEMPLATES = [
    """\
func.func @matmul_{n}(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %K = memref.dim %A, %c1 : memref<?x?xf32>
  %N = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %M {{
    affine.for %j = 0 to %N {{
      affine.for %k = 0 to %K {{
        %a = affine.load %A[%i, %k] : memref<?x?xf32>
        %b = affine.load %B[%k, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }}
    }}
  }}
  return
}}
""",
    """\
func.func @tiled_{n}(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %N: index) {{
  affine.for %ii = 0 to %N step 32 {{
    affine.for %jj = 0 to %N step 32 {{
      affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0)[s0] -> (d0 + 32, s0)>(%ii)[%N] {{
        affine.for %j = affine_map<(d0) -> (d0)>(%jj) to min affine_map<(d0)[s0] -> (d0 + 32, s0)>(%jj)[%N] {{
          %t = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1 floordiv 4)>(%i, %j)
          %m = affine.min affine_map<(d0)[s0] -> (d0, s0 - 1)>(%t)[%N]
          %v = affine.load %A[%i, %t] : memref<1024x1024xf32>
          %mi = arith.index_cast %m : index to i64
          %w = affine.load %B[%j, %i] : memref<1024x1024xf32>
          %x = arith.addf %v, %w : f32
          affine.store %x, %B[%i, %j] : memref<1024x1024xf32>
        }}
      }}
    }}
  }}
  return
}}
""",
    """\
func.func @stencil_{n}(%A: memref<64x64xf64>, %B: memref<64x64xf64>) {{
  %fifth = arith.constant 2.000000e-01 : f64
  affine.for %t = 0 to 10 {{
    affine.for %i = 1 to 63 {{
      affine.for %j = 1 to 63 {{
        %c = affine.load %A[%i, %j] : memref<64x64xf64>
        %l = affine.load %A[%i, %j - 1] : memref<64x64xf64>
        %r = affine.load %A[%i, %j + 1] : memref<64x64xf64>
        %u = affine.load %A[%i - 1, %j] : memref<64x64xf64>
        %d = affine.load %A[%i + 1, %j] : memref<64x64xf64>
        %s0 = arith.addf %c, %l : f64
        %s1 = arith.addf %s0, %r : f64
        %s2 = arith.addf %s1, %u : f64
        %s3 = arith.addf %s2, %d : f64
        %v = arith.mulf %s3, %fifth : f64
        affine.store %v, %B[%i, %j] : memref<64x64xf64>
      }}
    }}
    affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%t) {{
      affine.for %i = 1 to 63 {{
        %v = affine.load %B[%i, %i] : memref<64x64xf64>
        affine.store %v, %A[%i, %i] : memref<64x64xf64>
      }}
    }}
  }}
  return
}}
""",
]


def make_input(lines: int) -> str:
    """Kernels from the templates with unique names until ``lines`` lines are written."""
    chunks: list[str] = []
    count = 0
    n = 0
    while count < lines:
        text = TEMPLATES[n % len(TEMPLATES)].format(n=n)
        chunks.append(text)
        count += text.count("\n")
        n += 1
    return "".join(chunks)


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def find_mlir_opt() -> str | None:
    for candidate in (
        os.environ.get("POLY_MLIR_BIN", "") + "/mlir-opt",
        "/usr/lib/llvm-22/bin/mlir-opt",
    ):
        if os.path.isfile(candidate):
            return candidate
    return shutil.which("mlir-opt")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from affine.dialects.verifier import verify
    from affine.syntax.parser import parse_module
    from affine.syntax.printer import print_module

    text = make_input(args.lines)
    n_lines = text.count("\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernels.mlir"
        path.write_text(text)

        def in_process() -> None:
            module = parse_module(text, str(path))
            verify(module)
            print_module(module)

        t_parse = best_of(args.repeat, lambda: parse_module(text, str(path)))
        t_total = best_of(args.repeat, in_process)
        poly_cmd = [sys.executable, "-m", "transforms.cli", str(path), "-o", os.devnull]
        t_poly = best_of(args.repeat, lambda: subprocess.run(poly_cmd, check=True, cwd=ROOT))
        print(f"input: {n_lines} lines of affine kernels")
        print(f"{'measure':44s} {'seconds':>9s} {'lines/s':>10s}")
        print(f"{'poly: parse (in process)':44s} {t_parse:9.3f} {n_lines / t_parse:10.0f}")
        print(
            f"{'poly: parse + verify + print (in process)':44s} {t_total:9.3f} {n_lines / t_total:10.0f}"
        )
        print(f"{'poly-opt whole process':44s} {t_poly:9.3f} {n_lines / t_poly:10.0f}")
        mlir_opt = find_mlir_opt()
        if mlir_opt is None:
            print("mlir-opt not found: no ratio (install mlir-22-tools)")
            return
        mlir_cmd = [mlir_opt, str(path), "-o", os.devnull]
        t_mlir = best_of(args.repeat, lambda: subprocess.run(mlir_cmd, check=True))
        print(f"{'mlir-opt whole process':44s} {t_mlir:9.3f} {n_lines / t_mlir:10.0f}")
        ratio = t_poly / t_mlir
        verdict = "meets" if ratio <= 10 else "MISSES"
        print(f"ratio poly-opt / mlir-opt (whole process): {ratio:.1f}x ({verdict} the 10x target)")


if __name__ == "__main__":
    main()
