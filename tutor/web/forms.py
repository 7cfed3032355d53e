"""Flask-WTF forms of the teacher pages and of joining a class (CSRF token included).

Labels are translated lazily (the request's language); choices that depend on the registries
(kinds, rulesets, languages) are filled in where a form is made, from those registries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from flask_babel import lazy_gettext as _lazy
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import DateField, IntegerField, PasswordField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # WTForms 3.3; not in its stubs yet
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp

from tutor import i18n
from tutor.content.exercise import LANGUAGES
from tutor.engine.rulesets import RULESETS

from .accounts import MIN_PASSWORD
from .authoring import MAX_POINTS, kind_names

__all__ = [
    "AssignForm",
    "AuthoredForm",
    "ClassForm",
    "GeneratedForm",
    "JoinForm",
    "LessonForm",
    "LoginForm",
    "QuizForm",
    "SignupForm",
    "choices",
]

def lazy_gettext(message: str) -> str:
    """A label translated when shown (Flask-Babel's lazy string, typed as the text it becomes)."""
    return cast(str, _lazy(message))


#: The message of an empty required field, from the app's own catalogue: WTForms ships its
#: messages in many languages but not in Telugu, where its English default would show.
REQUIRED = lazy_gettext("This field is required.")


def choices(pairs: Iterable[tuple[str, str]]) -> list[SelectChoice]:
    """Select options from ``(value, label)`` pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


_DIFFICULTIES = [("1", lazy_gettext("Easy")), ("2", lazy_gettext("Medium")), ("3", lazy_gettext("Hard"))]


def _rulesets() -> list[tuple[str, str]]:
    return [(r.name, i18n.gettext(r.title)) for r in RULESETS.values()]


class LoginForm(FlaskForm):
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(message=REQUIRED), Length(max=40)])
    password = PasswordField(lazy_gettext("Password"), validators=[DataRequired(message=REQUIRED), Length(max=200)])


class SignupForm(FlaskForm):
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(message=REQUIRED), Regexp(r"^[\w.\-]{2,40}$", message=lazy_gettext(
        "Use 2 to 40 letters, digits, dots, dashes or underscores."))])
    password = PasswordField(lazy_gettext("Password"), validators=[DataRequired(message=REQUIRED), Length(min=MIN_PASSWORD, max=200)])


class QuizForm(FlaskForm):
    title = StringField(lazy_gettext("Title"), validators=[DataRequired(message=REQUIRED), Length(max=120)])


class _QuestionBase(FlaskForm):
    difficulty = SelectField(lazy_gettext("Difficulty"), choices=choices(_DIFFICULTIES), default="1")
    points = IntegerField(lazy_gettext("Points"), default=1, validators=[InputRequired(message=REQUIRED), NumberRange(1, MAX_POINTS)])
    prompt_en = StringField(lazy_gettext("Question in English (optional)"), validators=[Optional(), Length(max=300)])
    prompt_fa = StringField(lazy_gettext("Question in Persian (optional)"), validators=[Optional(), Length(max=300)])
    prompt_bg = StringField(lazy_gettext("Question in Bulgarian (optional)"), validators=[Optional(), Length(max=300)])
    prompt_te = StringField(lazy_gettext("Question in Telugu (optional)"), validators=[Optional(), Length(max=300)])

    def prompts(self) -> dict[str, str]:
        return {lang: getattr(self, f"prompt_{lang}").data or "" for lang in LANGUAGES}

    def prompt_fields(self) -> list:
        return [getattr(self, f"prompt_{lang}") for lang in LANGUAGES]


class AuthoredForm(_QuestionBase):
    """A question the teacher writes. Used without a prefix: the scenario is the field named
    ``scenario`` (the card table editor fills it with the scenario's JSON) and the kind ``kind``."""

    kind = SelectField(lazy_gettext("Kind of question"))
    scenario = TextAreaField(lazy_gettext("Scenario (JSON)"), validators=[DataRequired(message=REQUIRED), Length(max=20000)])
    key = StringField(lazy_gettext("Your answer key"), validators=[DataRequired(message=REQUIRED), Length(max=2000)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.kind.choices = choices(kind_names())


class GeneratedForm(_QuestionBase):
    ruleset = SelectField(lazy_gettext("Card game"))
    gkind = SelectField(lazy_gettext("Kind of question"))
    seed = IntegerField(lazy_gettext("Seed"), validators=[Optional(), NumberRange(0, 10**9 - 1)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = choices(_rulesets())
        self.gkind.choices = choices(kind_names())


class LessonForm(FlaskForm):
    title = StringField(lazy_gettext("Title"), validators=[DataRequired(message=REQUIRED), Length(max=120)])
    goal = StringField(lazy_gettext("Goal"), validators=[DataRequired(message=REQUIRED), Length(max=300)])
    ruleset = SelectField(lazy_gettext("Card game"))
    lang = SelectField(lazy_gettext("Language"))
    body = TextAreaField(lazy_gettext("Lesson text (Markdown with exercise blocks)"),
                         validators=[DataRequired(message=REQUIRED), Length(max=30000)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = choices(_rulesets())
        self.lang.choices = choices((lang, i18n.LANGUAGE_NAMES[lang]) for lang in LANGUAGES)


class ClassForm(FlaskForm):
    name = StringField(lazy_gettext("Class name"), validators=[DataRequired(message=REQUIRED), Length(max=80)])


class AssignForm(FlaskForm):
    what = SelectField(lazy_gettext("Quiz or lesson unit"))
    due = DateField(lazy_gettext("Due date (optional)"), validators=[Optional()])


class JoinForm(FlaskForm):
    code = StringField(lazy_gettext("Class code"), validators=[DataRequired(message=REQUIRED), Length(max=20)])
    nickname = StringField(lazy_gettext("Nickname"), validators=[DataRequired(message=REQUIRED), Length(max=40)])


class ImportForm(FlaskForm):
    """A quiz file to add to a teacher's quiz: uploaded, or its text pasted (the upload wins)."""

    upload = FileField(lazy_gettext("Quiz file (YAML)"))
    text = TextAreaField(lazy_gettext("Or paste the file's text"), validators=[Optional(), Length(max=200000)])


class LessonImportForm(FlaskForm):
    """A lesson file (the ``lessons/`` format) to replace a teacher's lesson with: uploaded, or its
    text pasted (the upload wins)."""

    upload = FileField(lazy_gettext("Lesson file (Markdown)"))
    text = TextAreaField(lazy_gettext("Or paste the file's text"), validators=[Optional(), Length(max=200000)])
