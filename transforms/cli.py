"""``poly-opt``: read MLIR, run passes in the order given, print MLIR (modelled on mlir-opt).

Every user error is printed as ``FILE:LINE:COL: error: message`` with the source line and
a caret, and the exit status is 1; no Python traceback reaches the user.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from dataclasses import dataclass, field

from affine import __version__
from affine.dialects.verifier import verify
from affine.errors import PolyError
from affine.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from affine.syntax.parser import parse_module
from affine.syntax.printer import print_module
from transforms import registry
from transforms.expected_diagnostics import verify as verify_expected

USAGE = """\
usage: poly-opt [options] [FILE|-]

Read MLIR (modern, or the 2018-19 seed syntax), run the given passes in order and print
the result as MLIR that mlir-opt 22 accepts.

General options:
  -o FILE                        write the output to FILE (default: standard output)
  --split-input-file             process each chunk separated by '// -----' on its own
  --mlir-print-op-generic        print every operation in generic form
  --allow-unregistered-dialect   accepted for drop-in use (unknown ops are always allowed)
  --verify-each=<0|1>            verify the IR after each pass (default 1)
  --verify-diagnostics           check diagnostics against expected-* comments instead
                                 of reporting them
  --mlir-print-op-on-diagnostic=<0|1>
                                 show the op after each remark, as mlir-opt does (default 1)
  --pass-pipeline=PIPELINE       run passes written as builtin.module(func.func(pass{opts}))
  --version                      print the version and exit
  -h, --help                     print this help and exit

Pass options are written as mlir-opt writes them: --affine-loop-tile="tile-sizes=32,32".
"""


@dataclass
class Options:
    input: str = "-"
    output: str | None = None
    split: bool = False
    generic: bool = False
    verify_each: bool = True
    print_op_on_diagnostic: bool = True
    verify_diagnostics: bool = False
    passes: list[tuple[str, str]] = field(default_factory=list)  # (name, option text)
    actions: list[tuple[str, str]] = field(default_factory=list)  # (name, value)


class UsageError(PolyError):
    """A malformed command line (exit status 2)."""


_FLAGS = {
    "split-input-file": "split",
    "mlir-print-op-generic": "generic",
    "mlir-print-op-on-diagnostic": "print_op_on_diagnostic",
    "verify-diagnostics": "verify_diagnostics",
}
_IGNORED = {"allow-unregistered-dialect", "mlir-disable-threading", "no-implicit-module"}


def parse_args(argv: list[str]) -> Options:
    opts = Options()
    positional: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            positional.append(arg)
            continue
        if arg in ("-h", "--help", "-help"):
            raise SystemExit(_print_help())
        body = arg.lstrip("-")
        name, has_value, value = body.partition("=")
        if name == "version":
            print(f"poly-opt (polyaffine) {__version__}")
            raise SystemExit(0)
        if name == "o":
            if has_value:
                opts.output = value
            elif i < len(argv):
                opts.output = argv[i]
                i += 1
            else:
                raise UsageError("option '-o' requires a file name")
            continue
        if name in _FLAGS:
            setattr(opts, _FLAGS[name], True if not has_value else value not in ("0", "false"))
            continue
        if name in _IGNORED:
            continue
        if name == "verify-each":
            opts.verify_each = value not in ("0", "false")
            continue
        if name == "pass-pipeline":
            if not has_value:
                raise UsageError("option '--pass-pipeline' requires a value")
            opts.passes.extend(parse_pipeline(value))
            continue
        if registry.lookup(name) is not None:
            opts.passes.append((name, value))
            continue
        if registry.lookup_action(name) is not None:
            opts.actions.append((name, value))
            continue
        raise UsageError(f"unknown command line argument '{arg}'; see 'poly-opt --help'")
    if len(positional) > 1:
        raise UsageError(f"too many positional arguments: {' '.join(positional)}")
    if positional:
        opts.input = positional[0]
    return opts


def parse_pipeline(text: str) -> list[tuple[str, str]]:
    """``builtin.module(func.func(a{x=1}, b))`` -> ``[("a", "x=1"), ("b", "")]``.

    Anchors (``builtin.module``, ``func.func``, ...) are accepted and ignored: every pass
    here runs on every function-like op it can handle.
    """

    passes: list[tuple[str, str]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in " ,()":
            i += 1
            continue
        j = i
        while j < n and text[j] not in " ,(){":
            j += 1
        name = text[i:j]
        options = ""
        if j < n and text[j] == "{":
            end = _closing_brace(text, j)
            if end < 0:
                raise UsageError(f"unterminated options for pass '{name}' in pipeline")
            options = text[j + 1 : end]
            j = end + 1
        if j < n and text[j] == "(":
            i = j + 1  # an anchor op: descend
            continue
        if registry.lookup(name) is None:
            raise UsageError(f"'{name}' does not refer to a registered pass")
        passes.append((name, options))
        i = j
    return passes


def _closing_brace(text: str, start: int) -> int:
    """The index of the ``}`` closing the ``{`` at ``start`` (-1 if none), skipping nested
    braces and quoted text."""
    depth, quote = 0, ""
    for k in range(start, len(text)):
        ch = text[k]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _print_help() -> int:
    print(USAGE)
    for title, entries in (
        ("Passes", registry.all_passes()),
        ("Reports and execution", registry.all_actions()),
    ):
        if entries:
            print(f"{title}:")
            width = max(len(e.name) for e in entries) + 4
            for e in entries:
                print(f"  --{e.name.ljust(width)}{e.summary}")
            print()
    return 0


def _split_chunks(text: str) -> list[tuple[str, int]]:
    """Chunks separated by ``// -----`` lines, with the line number each starts at."""
    chunks: list[tuple[str, int]] = []
    current: list[str] = []
    start_line = 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        if line.strip().startswith("// -----"):
            chunks.append(("".join(current), start_line))
            current = []
            start_line = number + 1
        else:
            current.append(line)
    chunks.append(("".join(current), start_line))
    return chunks


def process(
    text: str, filename: str, opts: Options, line_offset: int = 0
) -> tuple[str | None, list[Diagnostic]]:
    """Parse, verify, run passes and print one buffer; returns (output, diagnostics)."""

    module = parse_module(text, filename, line_offset)
    gc.freeze()  # the module lives until exit: later collections need not scan it
    verify(module)
    diagnostics: list[Diagnostic] = []
    show_op = opts.print_op_on_diagnostic and not opts.verify_diagnostics
    for name, option_text in opts.passes:
        entry = registry.lookup(name)
        assert entry is not None
        pass_obj = registry.parse_options(entry.load(), option_text)
        context = registry.PassContext(filename, print_op_on_diagnostic=show_op)
        module = pass_obj.run(module, context)
        diagnostics.extend(context.diagnostics)
        if opts.verify_each:
            verify(module)
    replacement: str | None = None
    for name, value in opts.actions:
        entry = registry.lookup_action(name)
        assert entry is not None
        context = registry.PassContext(filename, print_op_on_diagnostic=show_op)
        text = entry.load()(module, value, context)
        diagnostics.extend(context.diagnostics)
        if text is not None:
            replacement = (replacement or "") + text
    if replacement is not None:
        return replacement, diagnostics
    return print_module(module, generic=opts.generic), diagnostics


def _process_reporting(
    chunk: str, filename: str, opts: Options, line_offset: int
) -> tuple[str | None, list[Diagnostic]]:
    """:func:`process`, with every error turned into a diagnostic (no output then)."""

    try:
        return process(chunk, filename, opts, line_offset)
    except DiagnosticError as e:
        return None, [e.diagnostic()]
    except PolyError as e:
        return None, [Diagnostic("error", str(e), filename=filename)]
    except RecursionError:
        return None, [Diagnostic("error", "input nested too deeply to process", filename=filename)]


def run(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except UsageError as e:
        print(f"poly-opt: {e}", file=sys.stderr)
        return 2
    except PolyError as e:
        print(f"poly-opt: {e}", file=sys.stderr)
        return 2
    try:
        if opts.input == "-":
            text = sys.stdin.read()
            filename = "<stdin>"
        else:
            with open(opts.input, encoding="utf-8") as f:
                text = f.read()
            filename = opts.input
    except (OSError, UnicodeDecodeError) as e:
        print(
            f"poly-opt: cannot read '{opts.input}': {getattr(e, 'strerror', None) or e}",
            file=sys.stderr,
        )
        return 1

    chunks = _split_chunks(text) if opts.split else [(text, 0)]
    outputs: list[str] = []
    failed = False
    for chunk, line_offset in chunks:
        output, diagnostics = _process_reporting(chunk, filename, opts, line_offset)
        if opts.verify_diagnostics:
            diagnostics = verify_expected(SourceFile(filename, chunk, line_offset), diagnostics)
        for d in diagnostics:
            print(d.render(), file=sys.stderr)
        if any(d.severity == "error" for d in diagnostics):
            failed = True
        outputs.append(output or "")
    result = "// -----\n".join(outputs)
    if failed and opts.output not in (None, "-"):
        return 1  # keep whatever the user had in the output file
    if opts.output is None or opts.output == "-":
        sys.stdout.write(result)
    else:
        try:
            write_atomically(opts.output, result)
        except OSError as e:
            print(f"poly-opt: cannot write '{opts.output}': {e.strerror or e}", file=sys.stderr)
            return 1
    return 1 if failed else 0


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so that a failed write leaves
    what was there."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".poly-opt-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv: list[str] | None = None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        return 130
    except SystemExit as e:
        return int(e.code or 0)
    except Exception as e:
        print(f"poly-opt: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
