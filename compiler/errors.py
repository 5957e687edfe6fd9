"""The compiler's one error type, carrying every problem found with its location."""

from __future__ import annotations

from collections.abc import Iterable

from .records import FrozenRecord


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


class Report:
    """Collects problems across compiler stages; a stage that added problems stops the pipeline."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def add(self, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, column, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise VariantError(self.problems)
