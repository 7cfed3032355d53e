"""The two registries — exercise kinds (tutor.content.kinds) and rulesets (tutor.engine.rulesets) —
bring every piece each entry needs, and nothing outside their modules branches on a kind's or a
ruleset's name."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from jinja2 import Environment, FileSystemLoader, meta
from werkzeug.datastructures import MultiDict

from tutor import i18n
from tutor.content import generators
from tutor.content.exercise import Exercise
from tutor.content.kinds import KINDS, SCENARIO_INPUTS, EditorField, ExerciseKind, grade, kinds_for
from tutor.engine.errors import UnknownRulesetError
from tutor.engine.rulesets import RULESETS, Ruleset, get_ruleset

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "tutor" / "web" / "templates"
LANGS = i18n.LANGUAGES


def _catalog(lang):
    with open(ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh)


CATALOGS = {lang: _catalog(lang) for lang in LANGS}


def _translated(message: str) -> None:
    for lang, cat in CATALOGS.items():
        m = cat.get(message)
        assert m is not None and m.string and not m.fuzzy, (lang, message)


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_declares_every_piece(name):
    kind = KINDS[name]
    assert isinstance(kind, ExerciseKind) and kind.name == name
    assert isinstance(kind.order, int) and [k.order for k in KINDS.values()].count(kind.order) == 1
    assert kind.asks and set(kind.asks) <= set(SCENARIO_INPUTS)
    assert kind.rulesets and set(kind.rulesets) <= set(RULESETS)
    assert kind.answer_fields and kind.expect_fields
    assert kind.answer_help and isinstance(kind.answer_schema, dict) and kind.answer_schema
    for message in (kind.label, kind.prompt) + ((kind.hint,) if kind.hint else ()):
        _translated(message)
    assert kind.picks in ("", "hand", "trick", "tricks")
    # its template partial exists and defines the widgets macro
    partial = TEMPLATES / kind.template
    assert partial.is_file(), partial
    assert "{% macro widgets(x, fb) %}" in partial.read_text(encoding="utf-8")
    # editor fields are input fields of its asks
    inputs = {f for ask in kind.asks for f in SCENARIO_INPUTS[ask]}
    for f in kind.editor_fields:
        assert isinstance(f, EditorField) and f.name in inputs, (name, f)
        _translated(f.label)
    # its own module, named after it
    assert type(kind).__module__ == "tutor.content.kinds." + name.replace("-", "_")
    # every method the web and the content check call is its own or the base's, and not abstract
    for method in ("parse", "read_form", "form_fields", "distractor", "feedback_lines", "generate",
                   "measure", "level", "answer_class", "answer_classes", "situation"):
        assert getattr(type(kind), method) is not getattr(ExerciseKind, method), (name, method)
    assert kind.features  # the measurable features its difficulty is made of (tutor check --quality)
    # and takes what the base's callers pass (no parameter of an older signature left, e.g. a language)
    for method in ("parse", "read_form", "form_fields", "distractor", "feedback_lines", "view_context",
                   "generate", "details", "expected", "public_extra", "measure", "level", "answer_class",
                   "answer_classes", "condition", "situation"):
        own, base = inspect.signature(getattr(type(kind), method)), inspect.signature(getattr(ExerciseKind, method))
        assert len(own.parameters) == len(base.parameters), (name, method, str(own))


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_generates_and_grades_at_every_difficulty(name):
    kind = KINDS[name]
    for ruleset in kind.rulesets:
        for d in (1, 2, 3):
            ex = generators.generate(ruleset, name, 11, d)
            assert ex.kind == name and ex.ruleset == ruleset and ex.ask in kind.asks
            assert set(ex.expect) <= set(kind.expect_fields)
            value = _as_given(kind, ex)
            right = grade(ex, value)
            assert right.correct is True, (ruleset, d)
            # the form fields of the right answer read back to it, and a distractor is wrong
            raw = kind.read_form(ex, MultiDict(kind.form_fields(ex, value)))
            assert grade(ex, raw).correct is True, (ruleset, d)
            wrong = grade(ex, kind.distractor(ex, value))
            assert wrong.correct is False and wrong.expected == right.expected, (ruleset, d)


def _as_given(kind: ExerciseKind, ex: Exercise) -> object:
    """The engine's own right answer written as a learner would send it (JSON)."""
    from tutor.content.kinds import expected_answer

    value, _ = expected_answer(ex)
    return value


def test_the_registry_lists_kinds_in_their_order():
    orders = [k.order for k in KINDS.values()]
    assert orders == sorted(orders)
    assert next(iter(KINDS)) == "legal-cards" and list(KINDS).index("trick-winner") < list(KINDS).index("walk-through")


def test_the_kind_lists_come_from_the_registry():
    from tutor.web.views.practice import RULESET_KINDS

    for ruleset in RULESETS:
        assert list(RULESET_KINDS[ruleset]) == kinds_for(ruleset)
        assert kinds_for(ruleset), ruleset
    # every kind's template is the only place its widgets are drawn
    exercise_html = (TEMPLATES / "_exercise.html").read_text(encoding="utf-8")
    for name in KINDS:
        assert name not in exercise_html
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), extensions=["jinja2.ext.i18n"])
    for name, kind in KINDS.items():
        src = (TEMPLATES / kind.template).read_text(encoding="utf-8")
        env.parse(src)  # it compiles
        assert meta.find_undeclared_variables(env.parse(src)) <= {"_", "num"}, name


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_ruleset_declares_every_piece(name):
    r = get_ruleset(name)
    assert isinstance(r, Ruleset) and r.name == name
    assert r.players and r.default_players == r.players[0]
    assert r.default_target > 0
    _translated(r.title)
    points = r.rule_points()
    assert points and all(re.fullmatch(rf"{r.rule_prefix}\d+", p) for p in points)
    coverage = (ROOT / "lessons" / "COVERAGE.md").read_text(encoding="utf-8")
    for p in points:
        assert re.search(rf"\b{p}\b", coverage), p
    for lang in LANGS:
        assert (ROOT / "lessons" / name / lang).is_dir(), (name, lang)
    assert (ROOT / "quizzes" / f"{name}.yaml").is_file()
    for players in r.players:
        assert r.sides(players) == (2 if players == 4 else players)
        assert {r.side_of(s, players) for s in range(players)} == set(range(r.sides(players)))
    if r.turnup_option:
        assert r.option_names() and r.turnup_option in r.option_names()
        for scale in r.turnup_scales():
            assert r.turnup_scale(scale) and all(2 <= rank <= 14 for rank in r.turnup_scale(scale))


def test_every_ruleset_answers_every_ask_of_its_kinds():
    from tutor.solve import answer

    for name in RULESETS:
        for k in kinds_for(name):
            ex = generators.generate(name, k, 3, 1)
            assert "error" not in answer(ex.scenario_copy()), (name, k)


def test_unknown_ruleset_is_refused():
    with pytest.raises(UnknownRulesetError):
        get_ruleset("whist")


#: Where a kind's or a ruleset's name may be compared: their own modules (and the engine and the
#: contract, which are the rulesets' modules).
_OWN = ("tutor/content/kinds/", "tutor/engine/", "tutor/solve/")
_NAMES = "|".join(re.escape(n) for n in list(KINDS) + list(RULESETS))
_BRANCH = re.compile(
    rf"""(\bkind\b|\bruleset\b|\.kind\b|\.ruleset\b|\["ruleset"\]|get\(["']ruleset["']\))\s*(==|!=|\bin\b|\bnot in\b)\s*[\(\[{{]?\s*["'](?:{_NAMES})["']"""
    rf"""|["'](?:{_NAMES})["']\s*(==|!=)""")


def test_no_branch_on_a_kind_or_ruleset_name_outside_its_module():
    offenders = []
    for path in sorted((ROOT / "tutor").rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix not in (".py", ".html", ".js") or rel.startswith(_OWN):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _BRANCH.search(line):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert offenders == []


def test_the_branch_pattern_finds_what_it_must():
    for line in ('if ex.kind == "legal-cards":', "{% if x.kind == 'trick-winner' %}",
                 'if ruleset != "hokm":', 'x = sc.get("ruleset") == "trinidad"', 'if kind in ("beg", "turn-up"):',
                 '"hokm" == ruleset'):
        assert _BRANCH.search(line), line
    for line in ('if kind == "html":', "if q.ruleset == ruleset:", 'name = "hokm"'):
        assert not _BRANCH.search(line), line


def test_every_one_class_per_concept_table_is_one_registry_type():
    """Exercise kinds, assignment kinds and export formats share :class:`tutor.registry.Registry`
    (issue 20: one ``register`` helper, not three copies)."""
    from tutor.domain.assignments import KINDS as ASSIGNMENT_KINDS
    from tutor.export.formats import FORMATS
    from tutor.registry import Registry

    for table, names in ((KINDS, {"legal-cards", "trick-winner"}), (ASSIGNMENT_KINDS, {"quiz", "lesson", "unit"}),
                         (FORMATS, {"yaml", "moodle", "gift", "html", "pdf"})):
        assert isinstance(table, Registry)
        assert names <= set(table)
        assert all(item.name == name for name, item in table.items())


def test_a_name_registered_twice_is_refused():
    from tutor.registry import Registry

    table: Registry = Registry("widget")

    @table.register
    class One:
        name = "one"

    assert type(table["one"]) is One
    with pytest.raises(ValueError, match="widget 'one' is registered twice"):
        @table.register
        class Again:
            name = "one"
    assert type(table["one"]) is One and len(table) == 1
