"""A teacher's account pages: log-in (rate-limited, 429 with the log-in page again), sign-up
(only while ``TEACHER_SIGNUP`` is on; a 404 otherwise) and log-out."""

from __future__ import annotations

from flask import abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_user, logout_user
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException

from tutor.domain.models import Teacher
from tutor.web.record import write

from ... import accounts
from ...db import get_session
from ...forms import LoginForm, SignupForm
from ...limits import limited
from ...security import http_error
from ..common import safe_next
from ._common import bp


@bp.get("/login")
def login(form: LoginForm | None = None, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    form = form or LoginForm()
    return render_template("teach/login.html", form=form, error=error,
                           asked=bool(request.args.get("next")),
                           signup=current_app.config.get("TEACHER_SIGNUP")), status


@bp.post("/login")
@limited("login", "login-name")
def login_post() -> ResponseReturnValue:
    form = LoginForm()
    if not form.validate():
        return login(form, status=400)
    db = get_session()
    teacher = accounts.find_teacher(db, form.name.data or "")
    if not accounts.check_password(teacher.password_hash if teacher else None, form.password.data or ""):
        return login(form, error=_("The name or the password is wrong."), status=400)
    login_user(teacher)
    return redirect(safe_next(request.args.get("next"), url_for("teach.home")))


@bp.errorhandler(429)
def too_many(e: HTTPException) -> ResponseReturnValue:
    """A log-in over its limit: the log-in page again (429, with Retry-After) with the message
    above the form and the name kept, so the teacher stays in place; other views of these
    pages: the app's error page (:mod:`tutor.web.security`)."""
    if request.endpoint != "teach.login_post":
        return http_error(e)
    form = LoginForm()
    form.password.data = ""
    return login(form, error=_("Too many log-in attempts in a short time. Wait a little, then try again."),
                 status=429)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    logout_user()
    return redirect(url_for("teach.login"))


@bp.get("/signup")
def signup_page() -> ResponseReturnValue:
    return signup()


@bp.post("/signup")
@limited("login")
def signup() -> ResponseReturnValue:
    if not current_app.config.get("TEACHER_SIGNUP"):
        abort(404)
    form = SignupForm()
    if request.method == "POST" and form.validate():
        def work(db: Session) -> Teacher:
            return accounts.add_teacher(db, form.name.data or "", form.password.data or "")
        try:
            teacher = write(work)
        except (accounts.AccountError, IntegrityError):
            form.name.errors = [_("This name is taken.")]
        else:
            login_user(teacher)
            return redirect(url_for("teach.home"))
    status = 400 if request.method == "POST" else 200
    return render_template("teach/signup.html", form=form), status
