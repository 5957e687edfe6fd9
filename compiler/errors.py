"""The compiler's one error type, carrying every problem found with its location."""

from __future__ import annotations

import math
import re
import reprlib
from collections.abc import Iterable
from types import TracebackType

from .records import FrozenRecord

#: The most digits Python turns an integer into text with (sys.get_int_max_str_digits's default).
INT_DIGITS = 4300


def shorten(text: str, width: int = 80) -> str:
    """``text`` for a message: whole when short, else its start and end around an ellipsis."""
    return text if len(text) <= width else f"{text[:width // 2]}...{text[-width // 4:]} ({len(text):,} characters)"


def digits(n: int) -> int:
    """The decimal digits of ``n`` (its sign aside), found without writing it out."""
    if n == 0:
        return 1
    if n.bit_length() <= 64:
        return len(str(abs(n)))
    guess = int(math.log10(abs(n))) + 1  # one too many just below a power of ten
    return guess - 1 if abs(n) < 10 ** (guess - 1) else guess


class HugeNumber:
    """A JSON integer of more than :data:`INT_DIGITS` digits, in place of its value: readers
    give it (``json.loads(text, parse_int=...)``) where Python would raise, so that an
    ignored field holding one stays ignored and a field that is read says what it holds."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits:,} digits"


def json_int(text: str) -> int | HugeNumber:
    """``parse_int`` for ``json.loads``: an int, or a :class:`HugeNumber` beyond Python's limit."""
    return int(text) if len(text) <= INT_DIGITS else HugeNumber(text)


# C0 and C1 controls but the tab (escape sequences start with ESC, U+001B, or CSI, U+009B),
# and the marks that reorder text on screen (bidirectional overrides and isolates).
_UNSEEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m[0])
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def visible(text: str) -> str:
    """``text`` with every control character and text-reordering mark written as an escape
    (``\\x1b``, ``\\u202e``): text from a variant file or the command line shown in a
    terminal shows what it holds and cannot move the cursor, change colours or set the title.
    A line break is escaped too: give one line at a time."""
    return _UNSEEN.sub(_escape, text)


def visible_lines(text: str) -> str:
    """:func:`visible` line by line: the line breaks of ``text`` are kept."""
    return "\n".join(visible(line) for line in text.split("\n"))


class _Short(reprlib.Repr):
    """repr for messages: long texts, lists and numbers cut short, never an exception."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.maxlevel, self.maxlist, self.maxtuple, self.maxdict = 2, 4, 4, 3
        self.maxstring = self.maxother = self.maxlong = width

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 3 * INT_DIGITS:  # repr would raise past the limit
            return f"a number of {digits(x):,} digits"
        return shorten(repr(x), self.maxlong)

    def repr_str(self, x: str, level: int) -> str:
        # inside a list or mapping, shorter: the whole is cut at twice the width
        return shorten(repr(x), self.maxstring if level == self.maxlevel else self.maxstring // 2)


def quoted(value: object, width: int = 60) -> str:
    """``repr(value)`` for a message quoting input: at most about ``width`` characters (a
    long text keeps its start and end and says its length), a number of thousands of digits
    named by its size; never raises."""
    try:
        return shorten(_Short(width).repr(value), 2 * width)
    except Exception:  # a value whose repr fails
        return f"a value of type {type(value).__name__}"


class Problem(FrozenRecord):
    """One problem in a variant file: where (file, 1-based line and column) and what; line
    0 for a problem with no place in a file (a variant name that names none)."""

    file: str
    line: int
    column: int
    message: str

    def __init__(self, file: str, line: int, column: int, message: str) -> None:
        vars(self).update(file=file, line=line, column=column, message=message)

    def __str__(self) -> str:
        if not self.line:
            return self.message
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def did_you_mean(name: object, choices: Iterable[object]) -> str:
    """`` (did you mean 'chows'?)`` for a near miss among ``choices``, else nothing."""
    from difflib import get_close_matches  # here: only a file with a problem needs it

    close = get_close_matches(str(name), [str(c) for c in choices], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class VariantError(Exception):
    """A variant file that cannot be compiled; ``problems`` lists all that were found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line, p.column))
        super().__init__("\n".join(str(p) for p in self.problems))


class EvaluationError(ArithmeticError):
    """An expression of a variant failed on the values it was given (a division by a value
    that was 0, a power beyond its range): the variant file's fault, found only when it
    runs. Its message names the pattern and its line, or the expression's place in the
    file, read from the generated code it was raised in (which carries them)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self._where: str | None = None

    def __str__(self) -> str:
        if self._where is None:
            self._where = _evaluated_in(self.__traceback__) or "an expression of the variant"
        return f"{self._where}: {self.reason}"


#: The comment above each pattern's code in a generated scorer (compiler/scoring/codegen.py).
_PATTERN_COMMENT = re.compile(r"\s*# (\w+) \((.+):(\d+)\)$")


def _evaluated_in(tb: TracebackType | None) -> str | None:
    """The place in the variant file of the innermost generated code in ``tb``: a pattern
    of a scorer (``file:line: pattern 'id'``) or a compiled expression (``file:
    settlement.win[0].amount``)."""
    import linecache

    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        entry = linecache.cache.get(name, ())
        if len(entry) == 4 and entry[1] is None:  # generated code (compiled.py register_source)
            if name.startswith("<"):  # a scorer: the pattern whose comment is above the line
                lines = entry[2][:tb.tb_lineno]
                match = next(filter(None, map(_PATTERN_COMMENT.match, reversed(lines))), None)
                found = f"{match[2]}:{match[3]}: pattern {match[1]!r}" if match else name.strip("<>")
            else:  # an expression compiled under "file:its/path/in/the/file"
                file, _, path = name.removesuffix(" (choices)").rpartition(":")
                parts = [f"[{p}]" if p.isdigit() else f".{p}" for p in path.split("/")]
                found = f"{file}: {''.join(parts).lstrip('.')}"
        tb = tb.tb_next
    return found


class Report:
    """Collects problems across compiler stages; a stage that added problems stops the pipeline."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def add(self, line: int, column: int, message: str, file: str | None = None) -> None:
        self.problems.append(Problem(file or self.file, line, column, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise VariantError(self.problems)
