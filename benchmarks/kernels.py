"""What the benchmark scripts share: the kernel corpus, its large problem sizes, scaling a
kernel to them, finding the MLIR tools, comparing checksums."""

from __future__ import annotations

import math
import re
from pathlib import Path

from affine.exec.mlir_runner import find_tool

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "tests" / "corpus" / "kernels"

# Problem sizes of the large versions (names as in each kernel's `// scale:` header),
# chosen so that each kernel runs for roughly 0.05-0.5 s.
SIZES: dict[str, dict[str, int]] = {
    "gemm": {"NI": 1000, "NJ": 1100, "NK": 1200},
    "two_mm": {"NI": 800, "NJ": 900, "NK": 1000, "NL": 1100},
    "three_mm": {"NI": 600, "NJ": 650, "NK": 700, "NL": 750, "NM": 800},
    "atax": {"M": 8500, "N": 9400},
    "bicg": {"M": 8500, "N": 9400},
    "mvt": {"N": 9000},
    "gesummv": {"N": 9000},
    "syrk": {"N": 800, "M": 700},
    "syr2k": {"N": 700, "M": 600},
    "trmm": {"M": 700, "N": 800},
    "lu": {"N": 700},
    "cholesky": {"N": 900},
    "jacobi_1d": {"N": 200000, "T": 2000},
    "jacobi_2d": {"N": 1000, "T": 250},
    "seidel_2d": {"N": 800, "T": 40},
    "heat_3d": {"N": 120, "T": 100},
    "fdtd_2d": {"TMAX": 150, "NX": 1000, "NY": 1200},
    "floyd_warshall": {"N": 600},
    "doitgen": {"NR": 300, "NQ": 200, "NP": 160},
    "covariance": {"M": 600, "N": 700},
    "correlation": {"M": 600, "N": 700},
    "gemver": {"N": 4000},
    "symm": {"M": 500, "N": 600},
    "trisolv": {"N": 4000},
    "durbin": {"N": 4000},
    "gramschmidt": {"M": 600, "N": 500},
    "ludcmp": {"N": 700},
    "nussinov": {"N": 700},
    "adi": {"N": 500, "T": 20},
    "deriche": {"W": 2048, "H": 1080},
    "tiled_layout": {"N": 512},
    "transposed_layout": {"M": 9000, "N": 8000},
    "transpose": {"N": 4096, "M": 4000},
    "conv2d": {"H": 4100, "W": 4098, "OH": 4096, "OW": 4096},
    "strided_layout": {"N": 8000, "LD": 8004},
    "mod_floordiv": {"N": 65536, "NB": 16384},
    "min_max_bounds": {"N": 700},
    "iter_args_reduction": {"M": 12000, "N": 8000},
    "parallel_reduce": {"M": 8000, "N": 5000},
    "if_else": {"N": 40_000_000},
    "int_mix": {"N": 16_000_000},
    "f16_axpy": {"N": 32_000_000},
    "bf16_matvec": {"M": 6000, "N": 5000},
}

_LITERAL = r"(?<![0-9A-Za-wyz_.%#@]){}(?![0-9A-Za-wyz_.])"


def scaled_text(text: str, sizes: dict[str, int]) -> str:
    """The kernel with each literal of its ``// scale:`` header replaced by its formula's
    value for ``sizes`` (formulas: NAME, NAME-k, NAME+k, NAME/k)."""
    header = next(line for line in text.splitlines() if line.startswith("// scale:"))
    replacements = {}
    for item in header.split(":", 1)[1].split():
        literal, formula = item.split("=")
        match = re.fullmatch(r"([A-Z]+)(?:([-+/])(\d+))?", formula)
        if match is None:
            raise ValueError(f"cannot read the scale formula '{formula}'")
        value = sizes[match.group(1)]
        if match.group(2) == "-":
            value -= int(match.group(3))
        elif match.group(2) == "+":
            value += int(match.group(3))
        elif match.group(2) == "/":
            value //= int(match.group(3))
        replacements[literal] = str(value)
    body = "\n".join(line for line in text.splitlines() if not line.startswith("// scale:"))
    pattern = re.compile(
        "|".join(
            _LITERAL.format(re.escape(lit)) for lit in sorted(replacements, key=len, reverse=True)
        )
    )
    return pattern.sub(lambda m: replacements[m.group(0)], body)


def close(a: float, b: float) -> bool:
    """Equal within 1e-6 relative (NaN equals NaN)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


__all__ = ["KERNELS", "ROOT", "SIZES", "close", "find_tool", "scaled_text"]
