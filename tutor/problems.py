"""Problems found in content files, reported as ``file:line: message``.

A :class:`Problems` list collects every problem a loader or ``tutor check`` finds, so one run
reports them all; :class:`ContentError` carries them when a caller asked the loader to raise
instead (no collector given).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ContentError", "Problem", "Problems", "display_path"]


@dataclass(frozen=True, order=True, slots=True)
class Problem:
    """One problem: ``path`` (as given to the loader), 1-based ``line`` (0 = whole file), ``message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class Problems(list[Any]):
    """A list of :class:`Problem` with helpers; ``bool(problems)`` is true when any was found."""

    def add(self, path: str | Path, line: int | None, message: str) -> None:
        """Record a problem at ``path:line`` (``line`` ``None`` → 0, the file as a whole)."""
        self.append(Problem(str(path), int(line or 0), message))

    def raise_if_any(self) -> None:
        """Raise :class:`ContentError` carrying every problem, if there is any."""
        if self:
            raise ContentError(list(self))


class ContentError(Exception):
    """Broken content: ``problems`` is the list of :class:`Problem` (printed one per line)."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def display_path(path: str | Path) -> str:
    """``path`` relative to the current directory when it lies below it, else as given."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
