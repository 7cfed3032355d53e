"""Teacher pages (``/<lang>/teach/...``), one module per concept: accounts (log-in, sign-up,
log-out), the teaching home, quizzes, the question bank, lessons, classes, results and exports; one blueprint
(:data:`bp`, endpoints ``teach.<view>``) and what they share in :mod:`._common`.

Every page but log-in and sign-up needs a logged-in teacher (:func:`flask_login.login_required`;
a visitor is sent to the log-in page). Each teacher's quizzes, lessons and classes are found
only among their own (:func:`._common.mine`): another teacher's id is a 404, as is an id that
does not exist. Bad form input is answered with the page again (status 400), the message beside
the field and the teacher's input kept; nothing is written.
"""

from __future__ import annotations

from . import accounts, bank, classes, exports, gradebook, home, lessons, manage, quizzes, results, settings
from ._common import bdi, bp, isolated

__all__ = ["accounts", "bank", "bdi", "bp", "classes", "exports", "gradebook", "home", "isolated", "lessons", "manage",
           "quizzes", "results", "settings"]
