"""``poly-opt``: read MLIR, run passes in the order given, print MLIR (modelled on mlir-opt).

Every user error is printed as ``FILE:LINE:COL: error: message`` with the source line and
a caret, and the exit status is 1; no Python traceback reaches the user.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, NoReturn

from affine import __version__
from affine.dialects.verifier import verify
from affine.errors import PolyError
from affine.ir.core import Module, Operation
from affine.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from affine.syntax.parser import parse_module
from affine.syntax.printer import print_module
from transforms import registry
from transforms.expected_diagnostics import verify as verify_expected
from transforms.machine import detect


@dataclass(frozen=True)
class Flag:
    """A general option: ``--name`` (a switch, also ``--name=0|1``) or ``--name=VALUE``;
    ``field`` is the :class:`Options` attribute a switch sets (None: nothing to set, or
    an option :func:`parse_args` reads itself: -o, --pass-pipeline, --version, --help)."""

    name: str
    field: str | None
    usage: str
    help: str


# Every general option poly-opt accepts; --help lists exactly these, then passes and actions.
FLAGS = (
    Flag("o", None, "-o FILE", "write the output to FILE (default: standard output)"),
    Flag(
        "split-input-file",
        "split",
        "--split-input-file",
        "process each chunk separated by '// -----' on its own",
    ),
    Flag(
        "mlir-print-op-generic",
        "generic",
        "--mlir-print-op-generic",
        "print every operation in generic form",
    ),
    Flag(
        "allow-unregistered-dialect",
        None,
        "--allow-unregistered-dialect",
        "accepted for drop-in use (unknown ops are always allowed)",
    ),
    Flag(
        "no-implicit-module",
        "no_implicit_module",
        "--no-implicit-module",
        "the input must hold one top-level op, which passes run on and which is printed "
        "without a module around it",
    ),
    Flag(
        "mlir-disable-threading",
        "disable_threading",
        "--mlir-disable-threading",
        "run kernels (--run) on one thread: no OpenMP for affine.parallel (passes always "
        "run on one thread)",
    ),
    Flag(
        "verify-each",
        "verify_each",
        "--verify-each=<0|1>",
        "verify the IR after each pass (default 1)",
    ),
    Flag(
        "verify-diagnostics",
        "verify_diagnostics",
        "--verify-diagnostics",
        "check diagnostics against expected-* comments instead of reporting them",
    ),
    Flag(
        "mlir-print-op-on-diagnostic",
        "print_op_on_diagnostic",
        "--mlir-print-op-on-diagnostic=<0|1>",
        "show the op after each remark, as mlir-opt does (default 1)",
    ),
    Flag(
        "pass-pipeline",
        None,
        "--pass-pipeline=PIPELINE",
        "run passes written as builtin.module(func.func(pass{opts}))",
    ),
    Flag("version", None, "--version", "print the version and exit"),
    Flag("help", None, "-h, --help", "print this help and exit"),
)
_BY_NAME = {f.name: f for f in FLAGS}

USAGE = """\
usage: poly-opt [options] [FILE|-]

Read MLIR (modern, or the 2018-19 seed syntax), run the given passes in order and print
the result as MLIR that mlir-opt 22 accepts.

General options:
{options}

Pass options are written as mlir-opt writes them: --affine-loop-tile="tile-sizes=32,32".
"""


def usage() -> str:
    """The help text's head: every general option with what it does."""
    lines = []
    indent = " " * 33
    for f in FLAGS:
        text = textwrap.wrap(f.help, 92 - len(indent))
        if len(f.usage) < 31:
            lines.append(f"  {f.usage.ljust(31)}{text[0]}")
        else:
            lines += [f"  {f.usage}", indent + text[0]]
        lines += [indent + rest for rest in text[1:]]
    return USAGE.format(options="\n".join(lines))


@dataclass
class Options:
    input: str = "-"
    output: str | None = None
    split: bool = False
    generic: bool = False
    no_implicit_module: bool = False
    disable_threading: bool = False
    verify_each: bool = True
    print_op_on_diagnostic: bool = True
    verify_diagnostics: bool = False
    passes: list[tuple[str, str]] = field(default_factory=list)  # (name, option text)
    anchor: str | None = None  # the op --pass-pipeline is anchored on
    actions: list[tuple[str, str]] = field(default_factory=list)  # (name, value)


class UsageError(PolyError):
    """A malformed command line (exit status 1, as mlir-opt; nothing is read or written)."""


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
        if name == "pass-pipeline":
            if not has_value:
                raise UsageError("option '--pass-pipeline' requires a value")
            opts.anchor = pipeline_anchor(value)
            opts.passes.extend(parse_pipeline(value))
            continue
        flag = _BY_NAME.get(name)
        if flag is not None and name != "help":
            if flag.field is not None:
                setattr(opts, flag.field, _flag_value(name, value, bool(has_value)))
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
    for pass_name, option_text in opts.passes:  # every option value is checked up front
        entry = registry.lookup(pass_name)
        assert entry is not None
        registry.parse_options(entry.load(), option_text)
    return opts


def _flag_value(name: str, value: str, has_value: bool) -> bool:
    flag = registry.parse_bool(value, has_value)
    if flag is None:
        raise UsageError(
            f"for the --{name} option: '{value}' is invalid value for boolean argument! Try 0 or 1"
        )
    return flag


_UNANCHORED = (
    "expected pass pipeline to be wrapped with the anchor operation type, "
    "e.g. 'builtin.module(...)'"
)


def pipeline_anchor(text: str) -> str:
    """The op a pipeline is anchored on: ``builtin.module`` in ``builtin.module(...)``."""
    name, paren, _ = text.strip().partition("(")
    if not paren or not name or any(ch in name for ch in " ,{}"):
        raise UsageError(_UNANCHORED)
    return name


def parse_pipeline(text: str) -> list[tuple[str, str]]:
    """``builtin.module(func.func(a{x=1}, b))`` -> ``[("a", "x=1"), ("b", "")]``, read as
    mlir-opt reads it: the whole text, wrapped in an anchor op; anything unbalanced or
    unknown is a :class:`PipelineError` pointing into the text.

    Anchors (``builtin.module``, ``func.func``, ...) are otherwise ignored: every pass here
    runs on every function-like op it can handle.
    """
    return _PipelineParser(text).parse()


class PipelineError(UsageError):
    """A malformed ``--pass-pipeline``: the message, the pipeline and a caret."""

    def __init__(self, text: str, offset: int, message: str) -> None:
        super().__init__(f"--pass-pipeline:1:{offset + 1}: {message}\n{text}\n{' ' * offset}^")


class _PipelineParser:
    """Recursive descent over ``element (',' element)*`` where an element is a pass
    ``name{options}`` or an anchor ``op.name(pipeline)``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.passes: list[tuple[str, str]] = []

    def parse(self) -> list[tuple[str, str]]:
        self.elements(nested=False)
        if self.pos < len(self.text):
            if self.text[self.pos] == ")":
                self.fail("encountered extra closing ')' creating unbalanced parentheses")
            self.fail("expected ',' after parsing pipeline")
        return self.passes

    def fail(self, message: str, offset: int | None = None) -> NoReturn:
        where = self.pos if offset is None else offset
        if message.startswith("encountered"):
            message += " while parsing pipeline"
        raise PipelineError(self.text, where, message)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def elements(self, nested: bool) -> None:
        while True:
            self.element(nested)
            self.skip_space()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                self.pos += 1
                continue
            return

    def element(self, nested: bool) -> None:
        text = self.text
        self.skip_space()
        start = self.pos
        while self.pos < len(text) and text[self.pos] not in ",(){}":
            self.pos += 1
        name = text[start : self.pos].strip()
        options: str | None = None
        if self.pos < len(text) and text[self.pos] == "{":
            options = text[self.pos + 1 : self.closing_brace()]
        self.skip_space()
        if self.pos < len(text) and text[self.pos] == "(" and options is None and name:
            self.pos += 1
            self.elements(nested=True)
            self.skip_space()
            if self.pos >= len(text):
                self.fail("encountered unbalanced parentheses")
            if text[self.pos] != ")":
                self.fail("expected ',' after parsing pipeline")
            self.pos += 1
            return
        if not nested:
            raise UsageError(_UNANCHORED)
        if self.pos < len(text) and text[self.pos] == "(":
            self.fail("expected ',' after parsing pipeline")
        if registry.lookup(name) is None:
            self.fail(f"'{name}' does not refer to a registered pass or pass pipeline", start)
        self.passes.append((name, options or ""))

    def closing_brace(self) -> int:
        """Moves past the ``}`` matching the ``{`` at the cursor (braces in quoted text, such
        as an ISL schedule given as an option, do not count); returns its offset."""
        opening = self.pos
        end = _closing_brace(self.text, opening)
        if end < 0:
            self.fail("missing closing '}' while processing pass options", opening)
        self.pos = end + 1
        return end


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
    print(usage())
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
) -> tuple[list[str | Iterable[str]] | None, list[Diagnostic]]:
    """Parse, verify, run passes and print one buffer; returns (output, diagnostics), the
    output in pieces: strings, or iterables of strings an action writes as it goes."""

    module = parse_module(text, filename, line_offset)
    gc.freeze()  # the module lives until exit: later collections need not scan it
    verify(module)
    top = top_level_op(module, filename, opts.no_implicit_module)
    bare = top is not module.operation  # passes return new modules: decided before them
    if opts.anchor is not None and opts.anchor != top.name:
        raise DiagnosticError(f"can't run '{opts.anchor}' pass manager on '{top.name}' op", top.loc)
    diagnostics: list[Diagnostic] = []
    show_op = opts.print_op_on_diagnostic and not opts.verify_diagnostics
    for name, option_text in opts.passes:
        entry = registry.lookup(name)
        assert entry is not None
        pass_obj: registry.Pass = registry.parse_options(entry.load(), option_text)
        context = registry.PassContext(filename, print_op_on_diagnostic=show_op)
        module = pass_obj.run(module, context)
        diagnostics.extend(context.diagnostics)
        if opts.verify_each:
            verify(module)
    replacement: list[str | Iterable[str]] | None = None
    for name, value in opts.actions:
        entry = registry.lookup_action(name)
        assert entry is not None
        context = registry.PassContext(
            filename,
            print_op_on_diagnostic=show_op,
            multithreading=not opts.disable_threading,
        )
        output = entry.load()(module, value, context)
        diagnostics.extend(context.diagnostics)
        if output is not None:
            replacement = [*(replacement or []), output]
    if replacement is not None:
        return replacement, diagnostics
    printed = module.ops[0] if bare else module
    return [print_module(printed, generic=opts.generic)], diagnostics


def top_level_op(module: Module, filename: str, no_implicit_module: bool) -> Operation:
    """The op passes are anchored on: the module; with ``--no-implicit-module`` the one op
    the text holds at top level (mlir-opt's rule: exactly one)."""
    if not (no_implicit_module and module.implicit):
        return module.operation
    ops = module.ops
    if len(ops) != 1:
        message = f"source must contain a single top-level operation, found: {len(ops)}"
        if not ops:
            raise PolyError(message)
        raise DiagnosticError(message, ops[1].loc)
    return ops[0]


def process_reporting(
    chunk: str, filename: str, opts: Options, line_offset: int
) -> tuple[list[str | Iterable[str]] | None, list[Diagnostic]]:
    """:func:`process`, with every error turned into a diagnostic (no output then)."""

    try:
        return process(chunk, filename, opts, line_offset)
    except DiagnosticError as e:
        errors = e.diagnostics()
        if not opts.print_op_on_diagnostic or opts.verify_diagnostics:
            for d in errors:
                d.op_text = None
        return None, errors
    except PolyError as e:
        return None, [Diagnostic("error", str(e), filename=filename)]
    except RecursionError:
        return None, [Diagnostic("error", "input nested too deeply to process", filename=filename)]


def run(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except PolyError as e:
        print(f"poly-opt: error: {e}", file=sys.stderr)
        return 1
    try:
        detect()  # a wrong $POLY_MACHINE stops here, before anything is read
    except ValueError as e:
        print(f"poly-opt: error: {e}", file=sys.stderr)
        return 1
    try:
        if opts.input == "-":
            text = read_source(sys.stdin.buffer)
            filename = "<stdin>"
        else:
            with open(opts.input, "rb") as f:
                text = read_source(f)
            filename = opts.input
    except OSError as e:
        print(
            f"poly-opt: cannot read '{opts.input}': {getattr(e, 'strerror', None) or e}",
            file=sys.stderr,
        )
        return 1

    chunks = _split_chunks(text) if opts.split else [(text, 0)]
    outputs: list[list[str | Iterable[str]]] = []
    failed = False
    for chunk, line_offset in chunks:
        output, diagnostics = process_reporting(chunk, filename, opts, line_offset)
        if opts.verify_diagnostics:
            diagnostics = verify_expected(SourceFile(filename, chunk, line_offset), diagnostics)
        for d in diagnostics:
            print(d.render(), file=sys.stderr)
        if any(d.severity == "error" for d in diagnostics):
            failed = True
        outputs.append(output or [])
    result = _pieces(outputs)
    if failed and opts.output not in (None, "-"):
        return 1  # keep whatever the user had in the output file
    if opts.output is None or opts.output == "-":
        for piece in result:
            _write_stdout(piece)
    else:
        try:
            write_atomically(opts.output, result)
        except OSError as e:
            print(f"poly-opt: cannot write '{opts.output}': {e.strerror or e}", file=sys.stderr)
            return 1
    return 1 if failed else 0


def _pieces(outputs: list[list[str | Iterable[str]]]) -> Iterator[str]:
    """The outputs of the chunks in order, separated as the input was, one string at a time
    (an action's iterable is consumed as it is written)."""
    for k, output in enumerate(outputs):
        if k:
            yield "// -----\n"
        for piece in output:
            if isinstance(piece, str):
                yield piece
            else:
                yield from piece


def read_source(stream: BinaryIO) -> str:
    """The text of an MLIR file: UTF-8, with any other byte kept as a lone surrogate (as
    mlir-opt, which reads bytes, accepts them in comments and string literals, and they
    are written back unchanged)."""
    return stream.read().decode("utf-8", errors="surrogateescape")


def _write_stdout(piece: str) -> None:
    """``piece`` on standard output, a byte the input held that is not UTF-8 written back
    as it was (the text layer refuses lone surrogates; it encodes a piece before writing
    any of it)."""
    try:
        sys.stdout.write(piece)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(piece.encode("utf-8", errors="surrogateescape"))


def write_atomically(path: str, text: str | Iterable[str]) -> None:
    """Write ``text`` (a string, or strings one after the other) to ``path`` through a
    temporary file, so that a failed write leaves what was there."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".poly-opt-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            for piece in [text] if isinstance(text, str) else text:
                f.write(piece)
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
    except BrokenPipeError:
        # the reader closed early (``| head``): stop quietly, as a Unix filter does, and keep
        # Python from reporting the failed flush of stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a filter killed by the signal
    except Exception as e:
        print(f"poly-opt: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
