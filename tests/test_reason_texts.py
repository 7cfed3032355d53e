"""Reason.text() on every reason code the engine can produce: it never raises and fills every
placeholder, with params of the types the engine uses (lists of cards, per-side totals ...)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import tutor.engine
from tutor.engine.play import bot_deal
from tutor.engine.reasons import REASON_TEXTS, Reason
from tutor.engine.rulesets import RULESETS

for _m in pkgutil.iter_modules(tutor.engine.__path__):  # every engine module adds its templates on import
    importlib.import_module(f"tutor.engine.{_m.name}")

#: A param value per placeholder name, of the type the engine gives it (reasons.py conventions).
SAMPLE: dict[str, object] = {
    "card": "10H", "cards": ["AH", "10H"], "dealer": 1, "hakem": 0, "holder": 2, "later_trick": 5, "leader": 1,
    "led": "C", "next_dealer": 2, "next_hakem": 3, "other": 4, "other_team": 1, "phase": "play", "points": 2,
    "refused": "H", "runs": 1, "score": 6, "size": 9, "score0": 3, "score1": 5, "seat": 3, "side": 0, "suit": "S",
    "target": 7, "team": 0, "totals": [41, 39], "trick": 2, "tricks": 7, "tricks0": 7, "tricks1": 4, "trump": "D",
    "winner": 2,
}
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_LITERAL_CODE = re.compile(r"(?:Reason|make_reason|lazy_reason|_illegal)\(\s*\"([a-z0-9-]+)\"")


def _source_codes() -> set[str]:
    root = Path(tutor.engine.__file__).parent.parent
    return {m.group(1) for f in root.rglob("*.py") for m in _LITERAL_CODE.finditer(f.read_text(encoding="utf-8"))}


def test_every_literal_reason_code_has_a_template():
    assert _source_codes() - set(REASON_TEXTS) == set()


@pytest.mark.parametrize("code", sorted(REASON_TEXTS))
def test_text_of_every_code_fills_its_template(code):
    names = set(_PLACEHOLDER.findall(REASON_TEXTS[code]))
    assert names <= set(SAMPLE), f"add a sample value for {names - set(SAMPLE)}"
    text = Reason(code, "X1", {n: SAMPLE[n] for n in names}).text()
    assert isinstance(text, str) and "%(" not in text


def test_game_reasons_show_the_totals():
    assert Reason("game-most-points", "C26", {"side": 1, "totals": [39, 41]}).text() == (
        "Side 1 has the most points for Game (39 – 41): side 1 scores Game.")
    assert Reason("game-tie-nobody", "K4", {"totals": [40, 40]}).text() == "Game is tied (40 – 40): nobody scores it."
    assert Reason("game-tie-dealer-excluded", "C27", {"side": 1, "totals": [40, 40]}).text() == (
        "Game is tied (40 – 40); the dealer cannot score it, so side 1, nearest the dealer's left, scores Game.")
    assert Reason("follow-or-trump", "C20", {"led": "C", "trump": "H", "cards": ["KC", "3C"]}).text() == (
        "C was led and you hold KC, 3C: play a card of that suit or a trump (H).")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_text_of_every_reason_in_played_deals(name):
    coach = RULESETS[name].coach({})
    for seed in range(5):
        deal = bot_deal(coach, seed)
        for r in [*deal.story(), *deal.told]:
            assert "%(" not in r.text(), r
