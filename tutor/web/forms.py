"""Flask-WTF forms of the teacher pages and of joining a class (CSRF token included).

Labels are translated lazily (the request's language); choices that depend on the registries
(kinds, rulesets, languages) are filled in where a form is made, from those registries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from flask_babel import lazy_gettext as _lazy
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    Field,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # WTForms 3.3; not in its stubs yet
from wtforms.form import BaseForm
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from tutor import i18n
from tutor.content.exercise import LANGUAGES, MAX_POINTS
from tutor.engine.reasons import N_
from tutor.engine.rulesets import RULESETS

from .accounts import MIN_PASSWORD
from .authoring import MAX_QUESTIONS, kind_names

__all__ = [
    "ActionForm",
    "AssignForm",
    "AuthoredForm",
    "BankFilterForm",
    "ClassForm",
    "DeleteForm",
    "DrawForm",
    "GeneratedForm",
    "JoinForm",
    "LessonForm",
    "LoginForm",
    "NewLessonFileForm",
    "PointsForm",
    "QuizForm",
    "SignupForm",
    "TagForm",
    "choices",
]

def lazy_gettext(message: str) -> str:
    """A label translated when shown (Flask-Babel's lazy string, typed as the text it becomes)."""
    return cast(str, _lazy(message))


#: The message of an empty required field, from the app's own catalogue: WTForms ships its
#: messages in many languages but not in Telugu, where its English default would show.
REQUIRED = lazy_gettext("This field is required.")


#: WTForms' own messages (a number, date or choice that is not one), worded as its fields word
#: them, so that they are extracted into the app's catalogue; :class:`Form` takes them from there.
WTFORMS_MESSAGES = (N_("Not a valid integer value."), N_("Not a valid date value."), N_("Not a valid choice."))


class _Catalogue:
    """WTForms' translations object (``gettext``/``ngettext``), reading the app's catalogue in the
    page's language (:func:`tutor.i18n.gettext`)."""

    def gettext(self, message: str) -> str:
        return i18n.get_translations(i18n.current_lang()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return i18n.get_translations(i18n.current_lang()).ngettext(singular, plural, n)


class Form(FlaskForm):
    """Base of the app's forms (Flask-WTF, CSRF token included). Every message a learner or
    teacher reads beside a field comes from the app's catalogue, in the page's language and its
    digits: WTForms' own catalogues lack Telugu (its English would show) and are not ours to mend."""

    class Meta:
        def get_translations(self, form: FlaskForm) -> _Catalogue:
            return _CATALOGUE


_CATALOGUE = _Catalogue()


class Chars(Length):
    """A text's length in characters, from ``least`` to ``most``, its message in the page's language
    and digits ("At most 80 characters."); ``maxlength`` and ``minlength`` go on the input as with
    WTForms' ``Length``."""

    def __init__(self, least: int = -1, most: int = -1) -> None:
        super().__init__(min=least, max=most)

    def __call__(self, form: BaseForm, field: Field) -> None:
        n = len(field.data or "")
        if self.max != -1 and n > self.max:
            raise ValidationError(i18n.gettext("At most %(n)s characters.", n=i18n.fmt_number(self.max)))
        if n < self.min:
            raise ValidationError(i18n.gettext("At least %(n)s characters.", n=i18n.fmt_number(self.min)))


class WholeNumber(NumberRange):
    """A whole number from ``low`` to ``high``, its message in the page's language and digits."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__(min=low, max=high)
        self.low, self.high = low, high

    def __call__(self, form: BaseForm, field: Field) -> None:
        value = field.data
        if value is None:  # not a number: the field's own message says so
            return
        if not (self.low <= value <= self.high):
            raise ValidationError(i18n.gettext("A whole number from %(low)s to %(high)s.",
                                               low=i18n.fmt_number(self.low, group=False),
                                               high=i18n.fmt_number(self.high, group=False)))


def choices(pairs: Iterable[tuple[str, str]]) -> list[SelectChoice]:
    """Select options from ``(value, label)`` pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


_DIFFICULTIES = [("1", lazy_gettext("Easy")), ("2", lazy_gettext("Medium")), ("3", lazy_gettext("Hard"))]


def _rulesets() -> list[tuple[str, str]]:
    return [(r.name, i18n.gettext(r.title)) for r in RULESETS.values()]


class LoginForm(Form):
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(message=REQUIRED), Chars(most=40)])
    password = PasswordField(lazy_gettext("Password"), validators=[DataRequired(message=REQUIRED), Chars(most=200)])


class SignupForm(Form):
    name = StringField(lazy_gettext("Name"), validators=[DataRequired(message=REQUIRED), Regexp(r"^[\w.\-]{2,40}$", message=lazy_gettext(
        "Use 2 to 40 letters, digits, dots, dashes or underscores."))])
    password = PasswordField(lazy_gettext("Password"), validators=[DataRequired(message=REQUIRED), Chars(least=MIN_PASSWORD, most=200)])


class QuizForm(Form):
    title = StringField(lazy_gettext("Title"), validators=[DataRequired(message=REQUIRED), Chars(most=120)])


def _points() -> IntegerField:
    """A question's points: a whole number from 1 to :data:`~tutor.content.exercise.MAX_POINTS`
    (the quiz files' own limit, so an imported question saves unchanged)."""
    return IntegerField(lazy_gettext("Points"), default=1,
                        validators=[InputRequired(message=REQUIRED), WholeNumber(1, MAX_POINTS)])


class PointsForm(Form):
    """The points of one question, on its row of the quiz page (field ``points``, no prefix)."""

    points = _points()


class _QuestionBase(Form):
    difficulty = SelectField(lazy_gettext("Difficulty"), choices=choices(_DIFFICULTIES), default="1")
    points = _points()
    # prompt_<code>: one optional field per language of the registry, added below the class

    def prompts(self) -> dict[str, str]:
        """Language code -> the question text typed in its field ("" where none)."""
        return {lang: self[f"prompt_{lang}"].data or "" for lang in LANGUAGES}

    def prompt_fields(self) -> list:
        """The prompt fields, one per language in menu order."""
        return [self[f"prompt_{lang}"] for lang in LANGUAGES]

    def prompt_errors(self) -> bool:
        """Whether a prompt field has a message (their section is drawn open then, to show it)."""
        return any(f.errors for f in self.prompt_fields())


# The question's text in each language of the registry (tutor.i18n.registry): field prompt_<code>,
# labelled with the language's name in itself, its text typed in that language and direction.
for _lang in LANGUAGES:
    setattr(_QuestionBase, f"prompt_{_lang}", StringField(
        i18n.LANGUAGE_NAMES[_lang], validators=[Optional(), Chars(most=300)],
        render_kw={"lang": _lang, "dir": i18n.text_direction(_lang)}))


class AuthoredForm(_QuestionBase):
    """A question the teacher writes. Used without a prefix: the scenario is the field named
    ``scenario`` (the card table editor fills it with the scenario's JSON) and the kind ``kind``."""

    kind = SelectField(lazy_gettext("Kind of question"))
    scenario = TextAreaField(lazy_gettext("Scenario (JSON)"), validators=[DataRequired(message=REQUIRED), Chars(most=20000)])
    key = StringField(lazy_gettext("Your answer key"), validators=[DataRequired(message=REQUIRED), Chars(most=2000)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind.choices = choices(kind_names())


class GeneratedForm(_QuestionBase):
    ruleset = SelectField(lazy_gettext("Card game"))
    gkind = SelectField(lazy_gettext("Kind of question"))
    seed = IntegerField(lazy_gettext("Seed"), validators=[Optional(), WholeNumber(0, 10**9 - 1)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = choices(_rulesets())
        self.gkind.choices = choices(kind_names())


class LessonForm(Form):
    title = StringField(lazy_gettext("Title"), validators=[DataRequired(message=REQUIRED), Chars(most=120)])
    goal = StringField(lazy_gettext("Goal"), validators=[DataRequired(message=REQUIRED), Chars(most=300)])
    ruleset = SelectField(lazy_gettext("Card game"))
    lang = SelectField(lazy_gettext("Language"), default=i18n.current_lang)  # the page's, until chosen
    body = TextAreaField(lazy_gettext("Lesson text (Markdown with exercise blocks)"),
                         validators=[DataRequired(message=REQUIRED), Chars(most=30000)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset.choices = choices(_rulesets())
        self.lang.choices = choices((lang, i18n.LANGUAGE_NAMES[lang]) for lang in LANGUAGES)


class ClassForm(Form):
    name = StringField(lazy_gettext("Class name"), validators=[DataRequired(message=REQUIRED), Chars(most=80)])


class AssignForm(Form):
    what = SelectField(lazy_gettext("Quiz or lesson unit"))
    due = DateField(lazy_gettext("Due date (optional)"), validators=[Optional()])


class JoinForm(Form):
    code = StringField(lazy_gettext("Class code"), validators=[DataRequired(message=REQUIRED), Chars(most=20)])
    nickname = StringField(lazy_gettext("Nickname"), validators=[DataRequired(message=REQUIRED), Chars(most=40)])


class ImportForm(Form):
    """A quiz file to add to a teacher's quiz: uploaded, or its text pasted (the upload wins)."""

    upload = FileField(lazy_gettext("Quiz file (YAML, Moodle XML or GIFT)"))
    text = TextAreaField(lazy_gettext("Or paste the file's text"), validators=[Optional(), Chars(most=200000)])


class LessonImportForm(Form):
    """A lesson file (the ``lessons/`` format) to replace a teacher's lesson with: uploaded, or its
    text pasted (the upload wins)."""

    upload = FileField(lazy_gettext("Lesson file (Markdown)"))
    text = TextAreaField(lazy_gettext("Or paste the file's text"), validators=[Optional(), Chars(most=200000)])


class NewLessonFileForm(LessonImportForm):
    """A lesson file to start a new lesson from, with the language it is written in (a file of the
    ``lessons/`` format takes its language from its folder)."""

    lang = SelectField(lazy_gettext("Language of the file"), default=i18n.current_lang)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang.choices = choices((lang, i18n.LANGUAGE_NAMES[lang]) for lang in LANGUAGES)


class BankFilterForm(Form):
    """A category of the question bank (:class:`tutor.domain.bank.Filter`): read from the page's
    query string (``GET``, nothing written, so without a CSRF token); each field's choices (an
    empty value: any) are filled where the form is made, from the registries and the teacher's
    own bank; a value that is not one is "Not a valid choice." beside its field."""

    class Meta:
        csrf = False

    ruleset = SelectField(lazy_gettext("Card game"), default="")
    kind = SelectField(lazy_gettext("Exercise kind"), default="")
    rule = SelectField(lazy_gettext("Rule point"), default="")
    tag = SelectField(lazy_gettext("Tag"), default="")


class TagForm(Form):
    """Add a tag to, or take one off, one question of the teacher's bank: its quiz's row id, its
    id in the quiz, the tag."""

    quiz = IntegerField(validators=[InputRequired(message=REQUIRED)])
    question = StringField(validators=[DataRequired(message=REQUIRED), Chars(most=80)])
    tag = StringField(lazy_gettext("New tag"), validators=[DataRequired(message=REQUIRED), Chars(most=40)])


class DrawForm(Form):
    """Assign a class a random draw of ``n`` questions per learner from the bank's category shown
    (the category comes in the action's query string: :class:`BankFilterForm`)."""

    classroom = SelectField(lazy_gettext("Class"))
    n = IntegerField(lazy_gettext("Questions per learner"), validators=[InputRequired(message=REQUIRED),
                                                                        WholeNumber(1, MAX_QUESTIONS)])
    title = StringField(lazy_gettext("Title (optional)"), validators=[Optional(), Chars(most=120)])
    due = DateField(lazy_gettext("Due date (optional)"), validators=[Optional()])
class ActionForm(Form):
    """A button's form on the management pages (archive, unassign, remove a learner, a new join
    code): the CSRF token only; the button's ``action`` value says what is done."""


class DeleteForm(Form):
    """The confirmation of a delete (:mod:`tutor.web.views.teach.manage`): ``answers``, the number
    of answers the confirmation page said would be destroyed, and ``confirm``, the box that says so
    (its label is set by the page, naming that number)."""

    answers = HiddenField()
    confirm = BooleanField(lazy_gettext("Yes, delete it and the answers given to it"))

    def shown(self) -> int | None:
        """The number of answers the page named, or None if the form did not come from it."""
        text = (self.answers.data or "").strip()
        return int(text) if text.isdigit() and len(text) < 10 else None
