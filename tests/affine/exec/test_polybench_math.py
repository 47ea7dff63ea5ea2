"""The PolyBench kernels of the corpus compute what their mathematics says: each run by the
interpreter on the deterministic inputs and checked against numpy (a factorisation
reproduces its matrix, a solve its right-hand side, a statistic numpy's) or against a
plain Python transcription where no closed form exists (nussinov)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import affine
from affine.exec.inputs import deterministic_inputs, resolve_function
from affine.exec.running import run

KERNELS = Path(__file__).resolve().parents[2] / "corpus" / "kernels"


def interpreted(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The deterministic inputs (as float64 / int64 copies) and the arrays after the run."""
    path = KERNELS / f"{name}.mlir"
    func = resolve_function(affine.parse(path.read_text(), str(path)))
    arrays = deterministic_inputs(func)
    before = [a.astype(np.float64 if a.dtype.kind == "f" else np.int64) for a in arrays]
    run(func, *arrays, backend="interp")
    return before, arrays


def test_covariance_is_numpys() -> None:
    (data, _, _), (centred, cov, mean) = interpreted("covariance")
    np.testing.assert_allclose(mean, data.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(centred, data - data.mean(axis=0), atol=1e-6)
    np.testing.assert_allclose(cov, np.cov(data, rowvar=False), rtol=1e-4, atol=1e-6)


def test_correlation_is_numpys() -> None:
    (data, _, _, _), (_, corr, mean, stddev) = interpreted("correlation")
    std = data.std(axis=0)
    assert (std > 0.1).all()  # the eps rule does not apply to these inputs
    np.testing.assert_allclose(mean, data.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(stddev, std, rtol=1e-5)
    np.testing.assert_allclose(corr, np.corrcoef(data, rowvar=False), rtol=1e-4, atol=1e-5)


def test_gemver_is_numpys() -> None:
    (A, u1, v1, u2, v2, w, x, y, z), out = interpreted("gemver")
    A = A + np.outer(u1, v1) + np.outer(u2, v2)
    x = x + 1.2 * A.T @ y + z
    w = w + 1.5 * A @ x
    for got, expected in zip((out[0], out[6], out[5]), (A, x, w)):
        np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_symm_is_numpys() -> None:
    (C, A, B), (result, _, _) = interpreted("symm")
    symmetric = np.tril(A) + np.tril(A, -1).T  # only the lower triangle is read
    np.testing.assert_allclose(result, 1.2 * C + 1.5 * symmetric @ B, rtol=1e-5)


def test_trisolv_solves_its_system() -> None:
    (L, _, b), (raised, x, _) = interpreted("trisolv")
    L = L + len(L) * np.eye(len(L))
    np.testing.assert_array_equal(raised, L)
    np.testing.assert_allclose(np.tril(L) @ x, b, rtol=1e-12, atol=1e-12)


def test_ludcmp_solves_its_system() -> None:
    (A, b, _, _), (LU, _, x, _) = interpreted("ludcmp")
    A = A + len(A) * np.eye(len(A))
    lower, upper = np.tril(LU, -1) + np.eye(len(A)), np.triu(LU)
    np.testing.assert_allclose(lower @ upper, A, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(A @ x, b, rtol=1e-12, atol=1e-12)


def test_gramschmidt_factors_its_matrix() -> None:
    (A, _, _), (_, R, Q) = interpreted("gramschmidt")
    for k in range(A.shape[1]):
        A[k, k] += A.shape[0]
    np.testing.assert_allclose(Q.T @ Q, np.eye(A.shape[1]), atol=1e-12)
    np.testing.assert_allclose(Q @ np.triu(R), A, rtol=1e-12, atol=1e-12)


def test_durbin_solves_the_toeplitz_system() -> None:
    (r, _, _), (scaled, y, _) = interpreted("durbin")
    r = r / (2 * len(r))
    np.testing.assert_allclose(scaled, r, rtol=1e-15)
    first_row = np.concatenate(([1.0], r[:-1]))
    n = len(r)
    toeplitz = np.array([[first_row[abs(i - j)] for j in range(n)] for i in range(n)])
    np.testing.assert_allclose(toeplitz @ y, -r, atol=1e-12)


def test_nussinov_matches_python() -> None:
    (seq, table), (_, result) = interpreted("nussinov")
    n = len(seq)
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            best = max(table[i, j], table[i, j - 1], table[i + 1, j])
            pair = table[i + 1, j - 1] + (1 if i < j - 1 and seq[i] + seq[j] == 3 else 0)
            best = max(best, pair)
            for k in range(i + 1, j):
                best = max(best, table[i, k] + table[k + 1, j])
            table[i, j] = best
    assert result.dtype == np.int32 and np.array_equal(result, table)
    assert (seq[:, None] + seq[None, :] == 3).any()  # some pairs match
