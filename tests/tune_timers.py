"""Deterministic timers for the tuner's tests (importable by worker processes: the local
pool's spawned interpreters share sys.path, Dask workers get this file by upload_file)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any

from affine.ir.core import Module
from affine.syntax.printer import print_module


def fake_time(module: Module, func: str, inputs: Sequence[Any], log: str = "") -> float:
    """A time that depends only on the candidate's code; each call is logged to ``log``."""
    text = print_module(module)
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(hashlib.sha256(text.encode()).hexdigest() + "\n")
    return 1e-3 + int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 16**8


def favouring_time(
    module: Module, func: str, inputs: Sequence[Any], favoured: str, log: str = ""
) -> float:
    """:func:`fake_time`, a hundred times less for the module printed as ``favoured``."""
    seconds = fake_time(module, func, inputs, log)
    return seconds / 100 if print_module(module) == favoured else seconds


def dying_time(module: Module, func: str, inputs: Sequence[Any], marker: str, log: str) -> float:
    """:func:`fake_time`, except that the first call kills its worker process."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return fake_time(module, func, inputs, log)
    os.close(fd)
    os._exit(1)
