"""What a quiz counts: first tries, retries and the streak (pure functions, no database).

A quiz's places hold exercise refs; each place has the learner's tries there, oldest first.

* The **first try** at a place is the one the results count; trying again at the same place after
  the feedback ("Try again") does not change it.
* A place is a **retry** when the same question was asked and answered at an earlier place of the
  quiz: its feedback showed the answer, so a retry never counts as a first try. It is drawn as a
  retry on its question page and in the results, left out of the score and of the score by kind,
  and does not move the ratings (:func:`tutor.domain.record.record_answer`, ``rated``).
* The **streak** is the number of first tries answered right in a row, as Lichess counts a puzzle
  streak: a wrong first try ends it, a place not answered ends it, a retry neither adds to it nor
  ends it (it is not a first try).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Place", "places", "score", "streak"]


@dataclass(frozen=True)
class Place:
    """One place of a quiz: its number ``n`` (from 1) and ``ref``; ``tries`` there; ``first`` the
    first try's verdict (None: not answered); ``retry``: the question was answered at an earlier
    place (its answer shown)."""

    n: int
    ref: str
    tries: int
    first: bool | None
    retry: bool

    @property
    def counts(self) -> bool:
        """Whether this place counts as a first try (answered, and not a retry)."""
        return self.first is not None and not self.retry


def places(refs: Sequence[str], tries: Mapping[int, Sequence[bool]]) -> list[Place]:
    """The quiz's places from its ``refs`` and the verdicts of the tries at each place number
    (oldest first; a place missing or empty: not answered)."""
    shown: set[str] = set()
    out = []
    for n, ref in enumerate(refs, 1):
        verdicts = list(tries.get(n) or ())
        out.append(Place(n, ref, len(verdicts), verdicts[0] if verdicts else None, ref in shown))
        if verdicts:
            shown.add(ref)
    return out


def score(quiz: Sequence[Place]) -> tuple[int, int]:
    """``(right, questions)``: the first tries answered right, of the places that are not retries."""
    firsts = [p for p in quiz if not p.retry]
    return sum(1 for p in firsts if p.first), len(firsts)


def streak(quiz: Sequence[Place], upto: int | None = None) -> int:
    """The streak after place ``upto`` (None: the last place): first tries right in a row,
    counted back from it; retries are passed over."""
    count = 0
    for p in reversed([p for p in quiz if upto is None or p.n <= upto]):
        if p.retry and p.first is not None:
            continue
        if not p.first:
            break
        count += 1
    return count
