"""Lesson text shown to learners teaches the rules without authoring notes.

Learners see a step's title, goal, unit title, prose and exercise prompts, and the prompts of
quiz questions. None of it may talk
about the source documents ("the source document does not say…", "the article…") or about what
the course filled in: a fact is stated as a fact, a decision as the rule used (the rules reference
page says which points are decisions). The phrases are looked for in each language, on the text
with its line breaks joined (a phrase may be wrapped over two lines).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tutor.content.exercise import RULESETS
from tutor.content.store import ContentStore
from tutor.i18n import LANGUAGES

#: Authoring notes, per language: the documents, the article, the course and what it filled in.
AUTHORING_NOTES: dict[str, str] = {
    "en": r"source document|the document|document's|the article|article's|this course|the course\b"
          r"|filled in|pagat|sources checked|the seeds?\b",
    "fa": r"متن منبع|سند منبع|این دوره|مقاله|pagat",
    "bg": r"документ|статия|курс|pagat",
    "te": r"మూల పత్రం|పత్రం|వ్యాసం|కోర్సు|pagat",
}


def _texts(step):
    """Every learner-visible text of a step: title, unit title, goal, prose (HTML), prompts."""
    yield "title", step.title
    yield "unit_title", step.unit_title
    yield "goal", step.goal
    yield "body", re.sub(r"<[^>]+>", " ", step.html)
    for ex in step.exercises:
        prompt = ex.prompt_in(step.lang)
        if isinstance(prompt, str):
            yield f"prompt {ex.id}", prompt


def _own_steps(lang: str):
    store = ContentStore.shared()
    for ruleset in RULESETS:
        for step in store.lesson_path(ruleset, lang).steps:
            if step.lang == lang:  # the language's own file, not an English stand-in
                yield step


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_authoring_notes_in_lesson_text(lang):
    pattern = re.compile(AUTHORING_NOTES[lang], re.IGNORECASE)
    found = []
    count = 0
    for step in _own_steps(lang):
        count += 1
        for where, text in _texts(step):
            flat = " ".join(text.split())
            for m in pattern.finditer(flat):
                found.append(f"{step.path} {where}: …{flat[max(0, m.start() - 40):m.end() + 40]}…")
    assert count >= 25 * len(RULESETS)  # every step of the language was looked at
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_authoring_notes_in_quiz_prompts(lang):
    """Quiz questions are shown to learners too: their prompts teach the rule they use."""
    pattern = re.compile(AUTHORING_NOTES[lang], re.IGNORECASE)
    questions = list(ContentStore.shared().questions.values())
    assert len(questions) > 200
    found = [f"{q.id}: {q.prompt_in(lang)}" for q in questions
             if q.prompt_in(lang) and pattern.search(" ".join(q.prompt_in(lang).split()))]
    assert found == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phrases_would_be_found(lang):
    """The patterns match the notes they are meant for (so the test above can fail)."""
    samples = {"en": "The source document does not say; this course filled in tricks 3 to 9.",
               "fa": "متن منبع چیزی نمی‌گوید؛ این دوره آن را ساخته است.",
               "bg": "Изходният документ не казва; курсът го допълва.",
               "te": "మూల పత్రం చెప్పదు; ఈ కోర్సు పూరించింది."}
    assert len(re.findall(AUTHORING_NOTES[lang], samples[lang], re.IGNORECASE)) >= 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sample_round_does_not_state_its_answer(lang):
    """The Hokm sample round asks for the result (7-2, one point, the hakem stays): the prose above
    the exercise must not give it away."""
    step = ContentStore.shared().find_step("hokm-sample-round", lang)
    assert step is not None and step.lang == lang
    prose = " ".join(re.sub(r"<[^>]+>", " ", step.html).split()) + " " + step.goal
    result = re.compile(r"[7۷]\s*(?:-|–|:|بر|to|на)\s*[2۲]|seven to two|هفت بر دو|седем на две|ఏడు-రెండు",
                        re.IGNORECASE)
    assert not result.search(prose), prose
    expect = step.exercises[0].expect
    assert expect["team_tricks"] == [7, 2] and expect["points"] == 1  # what must stay unsaid


def test_tutor_check_passes():
    done = subprocess.run([sys.executable, "-m", "tutor.cli", "check"], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tutor check: OK" in done.stdout + done.stderr
