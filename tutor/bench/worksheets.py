"""``tutor bench``'s worksheet rows: what a printed worksheet PDF costs (:mod:`tutor.export.worksheet`).

* per language, the 20-question answer key of each game's built-in quiz, drawn as the web's
  ``/<lang>/worksheet/<game>/pdf?count=20&key=1`` draws it (seed 1): the CPU seconds of one build
  (``time.process_time``, the median of ``repeats`` builds, none from a cache) and the pages, the
  game that costs most shown;
* the 81-question Trinidad quiz's key in Telugu (``tutor export quizzes/trinidad.yaml --format pdf
  --lang te --key``): one build's CPU and wall seconds and its pages.

The targets (issue 21): at most 1 s of CPU and 8 pages for 20 questions in every language; the
Trinidad key in Telugu under 20 s.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

__all__ = ["LANGS", "TWENTY", "main_rows", "worksheet_costs"]

#: The languages measured (every language of the app).
LANGS = ("en", "fa", "bg", "te")
#: The questions of the short case.
TWENTY = 20


def _cpu(quiz: Any, lang: str) -> tuple[float, float, int]:
    """One build of ``quiz``'s key in ``lang``: (CPU s, wall s, pages: the count WeasyPrint reports
    when it writes the file, :data:`tutor.export.worksheet.Progress`)."""
    from ..export.worksheet import build_pdf

    pages = [0]

    def told(stage: str, n: int, total: int) -> None:
        if stage == "pdf":
            pages[0] = total

    t, w = time.process_time(), time.perf_counter()
    build_pdf(quiz, lang, True, progress=told)
    return time.process_time() - t, time.perf_counter() - w, pages[0]


def worksheet_costs(repeats: int = 3, long_case: bool = True) -> dict[str, Any]:
    """``{"twenty": {lang: {"cpu s", "pages", "game", "games": {game: {"cpu s", "pages"}}}},
    "trinidad te key": {"cpu s", "wall s", "pages", "questions"}}`` (see the module docstring)."""
    from ..content.quizzes import load_quiz
    from ..engine.rulesets import RULESETS
    from ..export.worksheet import drawn

    quizzes = {game: load_quiz(game) for game in RULESETS}
    _cpu(drawn(quizzes["hokm"], 1, 1), "en")  # the first build pays the imports and font set-up
    twenty: dict[str, Any] = {}
    for lang in LANGS:
        games = {}
        for game, quiz in quizzes.items():
            sheet = drawn(quiz, TWENTY, 1)
            runs = [_cpu(sheet, lang) for _ in range(max(1, repeats))]
            games[game] = {"cpu s": statistics.median(r[0] for r in runs), "pages": runs[-1][2]}
        worst = max(games, key=lambda g: games[g]["cpu s"])
        twenty[lang] = {"cpu s": games[worst]["cpu s"], "pages": max(g["pages"] for g in games.values()),
                        "game": worst, "games": games}
    out: dict[str, Any] = {"twenty": twenty}
    if long_case:
        trinidad = quizzes["trinidad"]
        cpu, wall, pages = _cpu(trinidad, "te")
        out["trinidad te key"] = {"cpu s": cpu, "wall s": wall, "pages": pages,
                                  "questions": len(trinidad.questions)}
    return out


def main_rows(costs: dict[str, Any], repeats: int) -> list[str]:
    """The printed rows of :func:`worksheet_costs`."""
    rows = [f"worksheet PDFs: {TWENTY}-question answer key of each game (drawn as the web draws, seed 1), "
            f"CPU of one build (median of {repeats}), the costliest game shown; target at most 1 s and 8 pages:"]
    for lang, f in costs["twenty"].items():
        each = ", ".join(f"{g} {v['cpu s']:.2f} s/{v['pages']} p" for g, v in f["games"].items())
        rows.append(f"worksheet  {TWENTY}q key {lang:3} cpu {f['cpu s']:5.2f} s ({f['game']})   pages at most "
                    f"{f['pages']:2}   [{each}]")
    long = costs.get("trinidad te key")
    if long:
        rows.append(f"worksheet  {long['questions']}q Trinidad key te   cpu {long['cpu s']:5.2f} s   wall "
                    f"{long['wall s']:5.2f} s   pages {long['pages']}   (target under 20 s)")
    return rows
