"""The rule-point reference (``tutor/rules/points.yaml``, ``tutor rule``): every rule point that
a reason, a lesson, the coverage table or the code cites is documented in the repository.

The rules that reasons cite are collected two ways: from the source (every string constant of
``tutor/`` shaped like a rule field, e.g. ``"H14"`` or ``"C21,K20"``, which covers the ``RULE``
tables and every ``Reason(...)``), and by running the engine: random Hokm matches and All Fours /
Trinidad games through the state machines (with many option sets, and illegal actions tried on
the way), legal plays and trick winners at every decision point, and ``solve`` over the worked
examples in ``tests/data``, every lesson and quiz scenario and generated scenarios of each ask.
"""

from __future__ import annotations

import ast
import random
import re
from itertools import islice
from pathlib import Path

import pytest
import yaml

from tutor import bench, rules
from tutor.cli import main
from tutor.content.lessons import load_lesson_path
from tutor.content.quizzes import load_quiz_file
from tutor.engine.allfours_classic import AllFours
from tutor.engine.allfours_state import RUN_HAND_METHODS, Action, AllFoursOptions
from tutor.engine.cards import CARDS, Suit
from tutor.engine.errors import IllegalPlayError, TutorError
from tutor.engine.hokm import ChooseTrump, Hokm, HokmGame, Play
from tutor.engine.hokm_rules import HokmOptions
from tutor.engine.rulesets import RULESETS
from tutor.engine.trinidad import Trinidad
from tutor.i18n import LANGUAGES
from tutor.solve import answer

ROOT = Path(__file__).resolve().parent.parent
RULE_FIELD = re.compile(r"^[CTHK]\d{1,2}(,[CTHK]\d{1,2})*$")


def rules_in_source() -> set[str]:
    """String constants of tutor/**/*.py shaped like a reason's rule field."""
    found = set()
    for path in (ROOT / "tutor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_FIELD.match(node.value):
                found.add(node.value)
    return found


def _why(out: set[str], reasons) -> None:
    for r in reasons:
        out.add(r["rule"] if isinstance(r, dict) else r.rule)


def hokm_rules(matches: int = 30) -> set[str]:
    """Rules of the reasons of random Hokm matches, of every decision point, and of illegal
    actions tried along the way."""
    out: set[str] = set()
    rng = random.Random(3)
    for m in range(matches):
        game = HokmGame(seed=m, options=HokmOptions(stop_at_seven=m % 3 != 0, target=(7, 3)[m % 2]))
        while not game.over:
            rd = game.round
            if rd.phase == "trump":  # a card before trump is named
                with pytest.raises(IllegalPlayError) as e:
                    rd.copy().push(Play(CARDS[0]))
                _why(out, [e.value.reason])
            if rd.phase == "play":
                hand, trick = rd.hands[rd.trick.to_play], rd.trick.cards
                _why(out, [Hokm().legal(hand, trick, rd.trump)[1]])
                _why(out, [Hokm().why(c, hand, trick, rd.trump) for c in rng.sample(range(52), 6)])
                illegal = hand & ~rd.legal_mask()
                for bad in (Play(CARDS[(illegal & -illegal).bit_length() - 1]) if illegal else None,
                            ChooseTrump(Suit.S)):
                    if bad is not None:
                        with pytest.raises(IllegalPlayError) as e:
                            rd.copy().push(bad)
                        _why(out, [e.value.reason])
            before = len(game.results)
            game.push(rng.choice(game.legal_actions()))
            if len(game.results) > before:
                _why(out, game.results[-1].why)
                if game.rounds[-1].phase == "over":  # a card after the round is decided
                    with pytest.raises(IllegalPlayError) as e:
                        game.rounds[-1].copy().push(Play(CARDS[0]))
                    _why(out, [e.value.reason])
                trump = game.rounds[-1].trump
                assert trump is not None
                for t in game.rounds[-1].tricks:
                    _why(out, [Hokm().trick_winner(t.cards, trump, t.leader)[2]])
        with pytest.raises(IllegalPlayError) as e:
            game.push(Play(CARDS[0]))
        _why(out, [e.value.reason])
    return out


ALL_FOURS_RULESETS = [
    *(AllFours(players=n, run_hand_method=m) for n in (2, 3, 4) for m in RUN_HAND_METHODS),
    AllFours(low="captured", game_tie="nobody", void_rule="must_trump", gift_may_win=False, players=3),
    AllFours(AllFoursOptions.running_all_fours(players=2)),
    Trinidad(), Trinidad(players=2),
    Trinidad(jack="plain", kick_scale="tobago", no_undertrump=True, same_suit_kick_scores=True,
             beg_point_may_win=False, void_rule="must_trump", target=7),
]


def all_fours_rules(games_each: int = 3) -> set[str]:
    """Rules of every award and hand count of random games through the state machine, of legal
    plays and trick winners at every step of play, and of illegal actions tried on the way."""
    out: set[str] = set()
    rng = random.Random(5)
    for rs in ALL_FOURS_RULESETS:
        for g in range(games_each):
            state = rs.new_game(seed=g)
            while not state.over:
                seat = state.to_act
                assert seat is not None
                if state.phase == "play":
                    assert state.trump is not None
                    _why(out, [rs.legal(state.hands[seat], state.trick, state.trump)[1]])
                    if rs.has_calling and rng.random() < 0.05:
                        other = (seat + 1) % rs.players
                        if state.hands[other]:
                            state = state.expose(other, (state.hands[other] & -state.hands[other]).bit_length() - 1)
                tries = [Action("bunch" if state.phase == "play" else "play", seat, CARDS[0]),
                         Action("play", (seat + 1) % rs.players, CARDS[1]), Action("give", seat)]
                if state.phase == "play" and state.trump is not None:
                    illegal = state.hands[seat] & ~rs.legal_mask(state.hands[seat], state.trick, state.trump)
                    if illegal:
                        tries.append(Action("play", seat, CARDS[(illegal & -illegal).bit_length() - 1]))
                    tries.append(Action("call", (seat + 1) % rs.players, CARDS[rng.randrange(52)]))
                for bad in tries:
                    try:
                        state.apply(bad)
                    except IllegalPlayError as e:
                        _why(out, [e.reason])
                before = state.hands_done
                state = state.apply(rng.choice(state.legal_actions()))
                if state.hands_done > before and state.last_hand is not None:
                    _why(out, state.last_hand.why)
            _why(out, [a.reason for a in state.awards])
    return out


def scenarios() -> list[dict]:
    """Worked examples (tests/data), every lesson and quiz scenario, generated scenarios."""
    found: list[dict] = []

    def walk(v: object) -> None:
        if isinstance(v, dict):
            if "ruleset" in v and "ask" in v:
                found.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for path in sorted((ROOT / "tests" / "data").glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    for ruleset in rules.GAMES:
        for step in load_lesson_path(ruleset, "en", ROOT):
            found += [ex.scenario_copy() for ex in step.exercises]
        quiz = load_quiz_file(ROOT / "quizzes" / f"{ruleset}.yaml")
        assert quiz is not None
        found += [q.scenario_copy() for q in quiz]
        found += list(islice(bench.SCENARIO_SOURCES[ruleset](random.Random(9)), 600))
    return found


def solve_rules() -> set[str]:
    out: set[str] = set()
    for s in scenarios():
        a = answer(s)
        if "error" not in a:
            _why(out, a["why"])
    return out


def play_rules(seeds: int = 3) -> set[str]:
    """Rules of the end-of-deal stories of whole deals played by bots (tutor.engine.play), every
    game and table size: the next dealer or hakem is only told there."""
    from tutor.engine.play import bot_deal

    out: set[str] = set()
    for info in RULESETS.values():
        for players in info.players:
            opts = {"players": players} if "players" in info.options_model.__pydantic_fields__ else {}
            coach = info.coach(opts)
            for seed in range(seeds):
                _why(out, coach.story(bot_deal(coach, seed)))
    return out


@pytest.fixture(scope="module")
def cited_by_engine() -> dict[str, set[str]]:
    return {"source": rules_in_source(), "hokm": hokm_rules(), "all fours": all_fours_rules(),
            "solve": solve_rules(), "play": play_rules()}


def test_every_rule_a_reason_can_cite_is_documented(cited_by_engine):
    for where, found in cited_by_engine.items():
        for rule in sorted(found):
            points = rules.cited(rule)  # raises UnknownRulePoint for an undocumented id
            assert [p.id for p in points] == rule.split(","), (where, rule)
    # the collection reaches the reasons of every part of the engine (so this test can fail)
    # a reason's rule may join points ("H16,H3": the trick's winner, decided by the rank order), some
    # joined at run time: compare the points
    ran = {part for v in (v for k, v in cited_by_engine.items() if k != "source") for r in v for part in r.split(",")}
    source = {part for r in cited_by_engine["source"] for part in r.split(",")}
    for rule in ("H6", "H8", "H20", "K6", "H14", "H15", "H16", "H19", "H21", "H23", "H24", "H25", "K12", "C8", "C11", "C13",
                 "C15", "C18", "C20", "H3", "H18", "H22", "C3", "C14", "C16", "T1", "T11", "T17", "T21", "H10", "T5", "C21", "C23", "C25", "C27", "C30", "C32", "K1", "K2", "K3", "K4", "K9",
                 "K20", "K22", "T7", "T9", "T13", "T14", "T15", "T16", "T18", "T22"):
        assert rule in ran, rule
    assert ran <= source  # every rule cited at run time is a literal in the code
    assert source <= ran, source - ran  # and every literal is reached by the runs above


def test_coverage_table_and_lessons_cite_documented_points():
    coverage = (ROOT / "lessons" / "COVERAGE.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*([A-Za-z][\w-]*)\s*\|", coverage, re.MULTILINE)
    rows = [r for r in rows if r != "rule"]
    assert len(rows) >= 33 + 22 + 27
    for rule in rows:
        assert rules.get(rule).id == rule
    for path in sorted((ROOT / "lessons").rglob("*.md")):
        m = re.search(r"^rules:\s*\[(.*)\]\s*$", path.read_text(encoding="utf-8"), re.MULTILINE)
        if m:
            for rule in (x.strip() for x in m.group(1).split(",") if x.strip()):
                assert rules.get(rule).id == rule, path


def test_every_decision_referenced_anywhere_exists():
    texts = [p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "lessons").rglob("*.md"),
                                                      *(ROOT / "quizzes").glob("*.yaml"),
                                                      *(ROOT / "tutor").rglob("*.py")]]
    ks = {k for t in texts for k in re.findall(r"\bK\d{1,2}\b", t)}
    assert "K12" in ks and len(ks) > 15
    for k in sorted(ks):
        assert rules.get(k).decision, k


def test_the_rulesets_rule_points_are_the_points_the_documents_state():
    """The engine's registry lists each game's rule points (what the lessons must cover): they
    are the reference's points of that game that a document states, not its reading list (T23),
    definitions or decisions."""
    for name, info in RULESETS.items():
        stated = tuple(p.id for p in rules.points_for(name) if p.kind in ("rule", "variant", "background"))
        assert info.rule_points() == stated, name


def test_the_reference_is_complete_and_well_formed():
    ids = [p.id for p in rules.all_points()]
    expected = ([f"C{i}" for i in range(1, 34)] + [f"T{i}" for i in range(1, 24)] + [f"H{i}" for i in range(1, 28)])
    assert [i for i in ids if i[0] in "CTH" and i[1:].isdigit()] == expected
    assert [i for i in ids if i.startswith("K")] == [f"K{i}" for i in range(1, 28)]
    assert len(ids) == len(set(ids))
    for p in rules.all_points():
        assert p.decision == p.id.startswith("K") == (p.kind == "decision"), p.id
        assert p.decision == bool(p.reason_in()), p.id
        assert p.text_in().endswith((".", ".\"", ")")) and len(p.text_in()) > 40, p.id
        # one declaration per point, in every language of the app (the reference pages show them)
        assert set(p.title) == set(p.text) == set(LANGUAGES), p.id
        assert not p.decision or set(p.reason) == set(LANGUAGES), p.id
        for lang in LANGUAGES[1:]:
            assert p.text_in(lang) != p.text_in() and p.title_in(lang) != p.title_in(), (p.id, lang)
        assert p.sources or p.decision, p.id
        for place in p.sources:
            assert place.document in rules.documents() and place.lines, p.id
    assert {p.id for p in rules.points_for("hokm") if p.id[0] in "CTHK"} == (
        {f"H{i}" for i in range(1, 28)} | {"K12", "K13", "K14", "K15"})
    assert rules.points_for("trinidad")[0].id == "T1"
    with pytest.raises(ValueError):
        rules.points_for("bridge")
    with pytest.raises(KeyError, match="unknown rule point 'X9'"):
        rules.get("X9")
    assert [p.id for p in rules.cited("C21,K20")] == ["C21", "K20"]
    assert rules.get("h14") is rules.get("H14")


#: Errors of the source documents (RULES.md §4) that a rule statement must never teach.
SOURCE_ERRORS = {
    "T15": re.compile(r"(cannot|may not|can't) play any card", re.IGNORECASE),  # the Telugu negation
    "T21": re.compile(r"usually 14|14 or so", re.IGNORECASE),
    "T17": re.compile(r"6 or 12 tricks|maybe more|perhaps more|or more tricks", re.IGNORECASE),
    "T22": re.compile(r"cheerful", re.IGNORECASE),
    "T18": re.compile(r"team that dealt", re.IGNORECASE),
    "C13": re.compile(r"(face down|back) on (top of )?(the rest of )?the pack", re.IGNORECASE),
    "C8": re.compile(r"highest card (of|in|from) the (rest of the )?pack|turns? up the highest", re.IGNORECASE),
}


def test_no_statement_teaches_an_error_of_the_sources():
    for p in rules.all_points():
        for lang in p.text:
            for rule, pattern in SOURCE_ERRORS.items():
                assert not pattern.search(p.text[lang]), (p.id, rule)
                assert not pattern.search(p.title[lang]), (p.id, rule)
    assert "out of turn" in rules.get("T22").text_in()
    assert "set aside" in rules.get("C13").text_in()
    assert "14" in rules.get("T21").text_in()
    assert "any card" in rules.get("T15").text_in()


def test_malformed_data_is_refused():
    good = {"documents": {"d.txt": {"language": "English", "about": {"en": "a test"}}},
            "points": [{"id": "H1", "games": ["hokm"], "kind": "rule", "title": {"en": "T"}, "text": {"en": "X."},
                        "sources": [{"document": "d.txt", "section": "S", "lines": [1]}]}]}
    points, docs = rules.parse(good)
    assert points["H1"].sources[0].lines == (1,) and docs["d.txt"].language == "English"

    def bad(change: dict, message: str) -> None:
        raw = {"documents": good["documents"], "points": [{**good["points"][0], **change}]}
        with pytest.raises(rules.RuleDataError, match=message):
            rules.parse(raw)

    bad({"games": ["bridge"]}, "games must name")
    bad({"kind": "law"}, "kind must be one of")
    bad({"text": {"fa": "x"}}, "English text")
    bad({"text": {"en": "x", "xx": "y"}}, "not a language")
    bad({"sources": []}, "needs its sources")
    bad({"sources": [{"document": "e.txt", "section": "S", "lines": [1]}]}, "not listed")
    bad({"sources": [{"document": "d.txt", "section": "S", "lines": [0]}]}, "positive line numbers")
    bad({"see": ["H2"]}, "not a point")
    bad({"reason": {"en": "why"}}, "only a decision")
    bad({"kind": "decision", "sources": []}, "English text")  # a decision needs its reason
    bad({"colour": "red"}, "unknown field")
    with pytest.raises(rules.RuleDataError, match="twice"):
        rules.parse({"documents": good["documents"], "points": good["points"] * 2})


def test_cli_prints_a_point(capsys):
    assert main(["rule", "H14"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("H14  Follow suit\nhokm - rule\n")
    assert "002_6b3c4be3ebb5cc63.txt (Persian" in out and "lines 42, 43" in out
    assert "See also: H19 (Leading trump)" in out
    assert main(["rule", "k12", "C21,K20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("K12  The next hakem after a lost round\nhokm - decision")
    assert "\nWhy: " in out and "Settles: H25 (The next hakem)" in out
    assert "\n\nC21  No card of the suit led\n" in out and "\n\nK20  Void in the suit led: any card, or must trump as an option\n" in out


def test_cli_lists_points(capsys):
    assert main(["rule", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(rules.all_points())
    assert lines[0].split()[:3] == ["C1", "rule", "all-fours"]
    assert main(["rule", "--list", "trinidad", "--lang", "bg"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [p.id for p in rules.points_for("trinidad")]


@pytest.mark.parametrize(("argv", "message"), [
    (["rule", "X9"], "tutor: unknown rule point 'X9'"),
    (["rule", "H14,H99"], "tutor: unknown rule point 'H99'"),
    (["rule", "--list", "bridge"], "tutor: unknown ruleset 'bridge'"),
    (["rule"], "tutor: give a rule point id"),
    (["rule", "H14", "--list"], "tutor: give rule point ids or --list, not both"),
    (["rule", "H14", "--lang", "de"], "tutor: unknown language 'de'"),
])
def test_cli_errors(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message) and captured.out == ""


def test_solve_errors_are_not_counted_as_reasons():
    """Scenarios that fail (e.g. an illegal transcript) give an error object and no reasons."""
    a = answer({"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3Z"], "trick": []})
    assert a["error"]["code"] == "bad-card"
    with pytest.raises(TutorError):
        from tutor.solve import solve
        solve({"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3Z"]})
