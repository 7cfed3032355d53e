"""One registry type for every "one class per concept" table: exercise kinds
(:data:`tutor.content.kinds.KINDS`), assignment kinds (:data:`tutor.domain.assignments.KINDS`) and
export formats (:data:`tutor.export.formats.FORMATS`).

A :class:`Registry` is a ``dict`` from name to one instance of each registered class, in the order
the classes were registered; :meth:`Registry.register` is the class decorator. A leaf module: it
imports nothing of tutor.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

__all__ = ["Registry"]


class _Named(Protocol):
    name: str


T = TypeVar("T")
C = TypeVar("C", bound=type[Any])


class Registry(dict[str, T]):
    """``name -> instance`` for one concept. ``what`` names the concept in errors
    (e.g. ``"exercise kind"``)."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def register(self, cls: C) -> C:
        """Class decorator: add one instance of ``cls`` under ``cls.name``. Raises
        :class:`ValueError` when the name is already registered (a name used twice is a bug)."""
        name = cls.name
        if name in self:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self[name] = cls()
        return cls
