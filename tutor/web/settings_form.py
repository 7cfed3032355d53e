"""The fields of an assignment's settings (:mod:`tutor.domain.settings`), on the form that assigns
(:class:`AssignSettingsForm`: :class:`tutor.web.forms.AssignForm` with them) and on the form that edits them later
(:class:`SettingsForm`): Flask-WTF with its CSRF token, every message beside its field.

Dates are typed as ``datetime-local`` inputs and read as naive UTC (the labels say so); the
checks that compare fields (close after open, a test's attempts) are
:func:`tutor.domain.settings.problems`', put beside the fields by :func:`check`.
"""

from __future__ import annotations

from datetime import datetime

from wtforms import BooleanField, DateField, DateTimeLocalField, IntegerField, SelectField
from wtforms.validators import Optional

from tutor.domain import settings as S
from tutor.engine.reasons import N_

from .forms import AssignForm, Form, WholeNumber, choices, lazy_gettext

__all__ = ["AssignSettingsForm", "SettingsFields", "SettingsForm", "check", "fill", "read"]

#: WTForms' message for a date and time that is not one, extracted into the app's catalogue.
WTFORMS_MESSAGES = (N_("Not a valid datetime value."),)

_MODES = [("practice", lazy_gettext("Practice")), ("test", lazy_gettext("Test"))]
_WHEN = "%Y-%m-%dT%H:%M"


class SettingsFields:
    """The settings fields (a mixin of a :class:`~tutor.web.forms.Form`); field names are the keys of
    :func:`tutor.domain.settings.problems`."""

    mode = SelectField(lazy_gettext("Mode"), choices=choices(_MODES), default="practice")
    attempts = IntegerField(lazy_gettext("Attempts allowed at each question (empty: unlimited, practice only)"),
                            validators=[Optional(), WholeNumber(1, S.MAX_ATTEMPTS)])
    time_limit = IntegerField(lazy_gettext("Time limit in minutes (optional)"),
                              validators=[Optional(), WholeNumber(1, S.MAX_TIME_LIMIT)])
    opens_at = DateTimeLocalField(lazy_gettext("Opens (optional, UTC)"), format=_WHEN, validators=[Optional()])
    closes_at = DateTimeLocalField(lazy_gettext("Closes (optional, UTC)"), format=_WHEN, validators=[Optional()])
    shuffle_questions = BooleanField(lazy_gettext("Shuffle the questions (each learner's own order)"))
    shuffle_options = BooleanField(lazy_gettext("Shuffle the options of each question"))


class SettingsForm(SettingsFields, Form):
    """An assignment's settings and its soft due date, edited on its own page."""

    due = DateField(lazy_gettext("Due date (optional)"), validators=[Optional()])


class AssignSettingsForm(SettingsFields, AssignForm):
    """What to assign, its soft due date and its settings."""


def read(form: SettingsFields) -> S.Settings:
    """The settings typed in a validated form."""
    return S.Settings(form.mode.data or "practice", form.attempts.data, form.time_limit.data, form.opens_at.data,
                      form.closes_at.data, bool(form.shuffle_questions.data), bool(form.shuffle_options.data))


def check(form: SettingsFields, *, now: datetime, new: bool) -> S.Settings | None:
    """The settings of a validated form, or None with the messages of
    :func:`tutor.domain.settings.problems` put beside their fields."""
    s = read(form)
    found = S.problems(s, now=now, new=new)
    for name, message in found.items():
        getattr(form, name).errors = [message]
    return None if found else s


def fill(form: SettingsFields, s: S.Settings) -> None:
    """Show the settings ``s`` in a form not sent."""
    form.mode.data, form.attempts.data, form.time_limit.data = s.mode, s.attempts, s.time_limit
    form.opens_at.data, form.closes_at.data = s.opens_at, s.closes_at
    form.shuffle_questions.data, form.shuffle_options.data = s.shuffle_questions, s.shuffle_options
