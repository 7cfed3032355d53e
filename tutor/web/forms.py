"""Flask-WTF forms of the teacher pages and of joining a class (CSRF token included).

Labels are translated lazily (the request's language); choices that depend on the registries
(kinds, rulesets, languages) are filled in where a form is made, from those registries.
"""

from __future__ import annotations

from typing import cast

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, PasswordField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp

from tutor import i18n
from tutor.content.exercise import LANGUAGES
from tutor.engine.rulesets import RULESETS

from .accounts import MIN_PASSWORD
from .authoring import MAX_POINTS, kind_names

__all__ = ["AssignForm", "AuthoredForm", "ClassForm", "GeneratedForm", "JoinForm", "LessonForm", "LoginForm",
           "QuizForm", "SignupForm"]

def _l(message: str) -> str:
    """A label translated when shown (a lazy string, typed as the text it becomes)."""
    return cast(str, lazy_gettext(message))


_DIFFICULTIES = [("1", _l("Easy")), ("2", _l("Medium")), ("3", _l("Hard"))]


def _rulesets() -> list[tuple[str, str]]:
    return [(r.name, i18n.gettext(r.title)) for r in RULESETS.values()]


class LoginForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])


class SignupForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Regexp(r"^[\w.\-]{2,40}$", message=_l(
        "Use 2 to 40 letters, digits, dots, dashes or underscores."))])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=MIN_PASSWORD, max=200)])


class QuizForm(FlaskForm):
    title = StringField(_l("Title"), validators=[DataRequired(), Length(max=120)])


class _QuestionBase(FlaskForm):
    difficulty = SelectField(_l("Difficulty"), choices=_DIFFICULTIES, default="1")
    points = IntegerField(_l("Points"), default=1, validators=[InputRequired(), NumberRange(1, MAX_POINTS)])
    prompt_en = StringField(_l("Question in English (optional)"), validators=[Optional(), Length(max=300)])
    prompt_fa = StringField(_l("Question in Persian (optional)"), validators=[Optional(), Length(max=300)])
    prompt_bg = StringField(_l("Question in Bulgarian (optional)"), validators=[Optional(), Length(max=300)])
    prompt_te = StringField(_l("Question in Telugu (optional)"), validators=[Optional(), Length(max=300)])

    def prompts(self) -> dict[str, str]:
        return {lang: getattr(self, f"prompt_{lang}").data or "" for lang in LANGUAGES}

    def prompt_fields(self) -> list:
        return [getattr(self, f"prompt_{lang}") for lang in LANGUAGES]


class AuthoredForm(_QuestionBase):
    kind = SelectField(_l("Kind of question"))
    scenario = TextAreaField(_l("Scenario (JSON)"), validators=[DataRequired(), Length(max=20000)])
    key = StringField(_l("Your answer key"), validators=[DataRequired(), Length(max=2000)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.kind.choices = kind_names()


class GeneratedForm(_QuestionBase):
    ruleset = SelectField(_l("Game"))
    gkind = SelectField(_l("Kind of question"))
    seed = IntegerField(_l("Seed"), validators=[Optional(), NumberRange(0, 10**9 - 1)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = _rulesets()
        self.gkind.choices = kind_names()


class LessonForm(FlaskForm):
    title = StringField(_l("Title"), validators=[DataRequired(), Length(max=120)])
    goal = StringField(_l("Goal"), validators=[DataRequired(), Length(max=300)])
    ruleset = SelectField(_l("Game"))
    lang = SelectField(_l("Language"))
    body = TextAreaField(_l("Lesson text (Markdown with exercise blocks)"),
                         validators=[DataRequired(), Length(max=30000)])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = _rulesets()
        self.lang.choices = [(lang, i18n.LANGUAGE_NAMES[lang]) for lang in LANGUAGES]


class ClassForm(FlaskForm):
    name = StringField(_l("Class name"), validators=[DataRequired(), Length(max=80)])


class AssignForm(FlaskForm):
    what = SelectField(_l("Quiz or lesson unit"))
    due = DateField(_l("Due date (optional)"), validators=[Optional()])


class JoinForm(FlaskForm):
    code = StringField(_l("Class code"), validators=[DataRequired(), Length(max=20)])
    nickname = StringField(_l("Nickname"), validators=[DataRequired(), Length(max=40)])
