"""Continue on another device: a learner's personal code (or link) that carries their progress.

There are no accounts: a learner is the random id in the session cookie (:mod:`tutor.web.db`).
To go on in another browser, the learner makes a personal code here. It is 128 random bits
(:func:`secrets.token_bytes`) written as 32 letters and digits in groups of four, shown once, as
text and as a link that fills the form; only its SHA-256 is stored (:class:`~tutor.domain.models.DeviceCode`).
A learner has one code at a time: making a new one revokes the old, and it can be revoked alone.

Redeeming is a form post (CSRF token, rate-limited per address as the ``redeem`` action of
:mod:`tutor.web.limits`, 429 with ``Retry-After`` when over) that asks for a confirmation: the
browser then becomes that learner, and the progress this browser had of its own is no longer
reachable from it (nothing is merged or deleted; it is replaced). A code that is wrong, revoked or
not confirmed gives the form back with the message beside the field (400).
"""

from __future__ import annotations

import hashlib
import re
import secrets

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import select, update

from tutor import i18n
from tutor.domain.db import now
from tutor.domain.models import DeviceCode, Learner

from ..db import current_learner, get_session, learner_for_write
from ..limits import limited

__all__ = ["CODE_BYTES", "code_hash", "new_code", "normalise"]

bp = Blueprint("device", __name__, url_prefix="/<lang>/device")

#: Random bytes in a code (128 bits).
CODE_BYTES = 16
#: Letters and digits of a code (Crockford's base 32: no I, L, O, U, so nothing to misread).
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CODE_LENGTH = 26  # ceil(128 / 5)
_READ = str.maketrans("ILO", "110")


def new_code() -> str:
    """A new code: :data:`CODE_BYTES` random bytes as 26 characters of :data:`_ALPHABET`, in
    groups of four joined by ``-`` (e.g. ``7KQ2-...``)."""
    n = int.from_bytes(secrets.token_bytes(CODE_BYTES), "big")
    chars = "".join(_ALPHABET[(n >> (5 * i)) & 31] for i in range(_CODE_LENGTH))
    return "-".join(chars[i:i + 4] for i in range(0, _CODE_LENGTH, 4))


def normalise(text: str) -> str | None:
    """The code typed or pasted (any case, spaces or dashes, I/L read as 1, O as 0), as its 26
    characters; None if it cannot be a code."""
    raw = re.sub(r"[\s\-]", "", text or "").upper().translate(_READ)
    if len(raw) != _CODE_LENGTH or any(c not in _ALPHABET for c in raw):
        return None
    return raw


def code_hash(code: str) -> str:
    """SHA-256 (hex) of a normalised code: what the database keeps."""
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def _active(learner: Learner | None) -> DeviceCode | None:
    if learner is None:
        return None
    return get_session().scalar(select(DeviceCode).where(DeviceCode.learner_id == learner.id,
                                                         DeviceCode.revoked_at.is_(None)))


def _page(code: str | None = None, error: str | None = None, typed: str = "",
          status: int = 200) -> tuple[str, int]:
    active = _active(current_learner())
    link = url_for("device.page", code=code, _external=True) if code else None
    made = i18n.fmt_datetime(active.created_at) if active is not None else None
    return render_template("device.html", active=active, made=made, code=code, link=link, error=error,
                           typed=typed), status


@bp.get("/")
def page() -> ResponseReturnValue:
    """The page: make or revoke this learner's code; redeem one (``?code=`` from a link fills it in)."""
    typed = request.args.get("code", "")[:64]
    return _page(typed=typed)


@bp.post("/new")
def make() -> ResponseReturnValue:
    """Make a new code for this learner (revoking any other) and show it once."""
    code = new_code()
    db = get_session()
    try:
        learner = learner_for_write(db)
        db.execute(update(DeviceCode).where(DeviceCode.learner_id == learner.id, DeviceCode.revoked_at.is_(None))
                   .values(revoked_at=now()))
        db.add(DeviceCode(learner_id=learner.id, code_hash=code_hash(normalise(code) or ""), created_at=now()))
        db.commit()
    except Exception:
        db.rollback()
        raise
    return _page(code=code)


@bp.post("/revoke")
def revoke() -> ResponseReturnValue:
    """Revoke this learner's code: it is refused from now on."""
    learner = current_learner()
    if learner is not None:
        db = get_session()
        try:
            db.execute(update(DeviceCode).where(DeviceCode.learner_id == learner.id,
                                                DeviceCode.revoked_at.is_(None)).values(revoked_at=now()))
            db.commit()
        except Exception:
            db.rollback()
            raise
    return redirect(url_for("device.page"))


@bp.post("/redeem")
@limited("redeem")
def redeem() -> ResponseReturnValue:
    """Switch this browser to the learner of the code typed, once confirmed."""
    typed = request.form.get("code", "")[:64]
    code = normalise(typed)
    if code is None:
        return _page(error=_("This is not a code: it has 26 letters and digits, in groups of four."),
                     typed=typed, status=400)
    row = get_session().scalar(select(DeviceCode).where(DeviceCode.code_hash == code_hash(code)))
    if row is None or row.revoked_at is not None:
        return _page(error=_("This code is not valid: it may have been typed wrong, or revoked."),
                     typed=typed, status=400)
    if request.form.get("confirm") != "yes":
        return _page(error=_("Tick the box to confirm that this browser's own progress will be replaced."),
                     typed=typed, status=400)
    owner = get_session().get(Learner, row.learner_id)
    if owner is None:  # a code's learner is never deleted; refused all the same
        return _page(error=_("This code is not valid: it may have been typed wrong, or revoked."),
                     typed=typed, status=400)
    session["learner"] = owner.anon_id
    session.permanent = True
    return redirect(url_for("progress.page"))
