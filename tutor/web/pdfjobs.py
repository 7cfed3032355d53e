"""Worksheet PDFs on the web: built once, in the background, with a page that shows the progress.

A PDF is known by its content (:func:`tutor.export.worksheet.pdf_key`: the quiz, the language, the
key flag, the title and the code's version) and kept as a file in the app's PDF folder
(``PDF_CACHE_DIR``, default ``<instance>/pdfs``; :class:`~tutor.export.worksheet.PdfCache`), so
every worker and every restart finds it: the second request for the same PDF is served from there.

:func:`pdf_download` is what a PDF view returns. A PDF in the folder is the download. Otherwise its
build starts on this process's one builder thread (one PDF at a time: a build is CPU-bound) and
the request waits up to ``PDF_WAIT`` seconds (default 1) for it; a PDF not ready by then is
answered ``202`` with a page that says how far the build is ("Page 7") and reloads itself every two
seconds (``<meta http-equiv="refresh">``: no script needed) with ``?wait=1`` until the reload is the
download; the worksheet page's script asks with ``Accept: application/json`` and gets the progress
as JSON (``{"state", "progress", "poll"}``: the URL to ask next) until the answer is the PDF. A
request with ``wait=1`` never starts a build (one that finds none is sent back to the URL without
it, 303): it is not counted by the rate limits.

Another worker asked for a PDF that one is building sees that build's progress: the builder claims
a build with ``<key>.lock`` (made exclusively) and writes its progress to ``<key>.json``; a lock
left by a process that died (not touched for :data:`STALE` seconds) is taken over. A build that
fails is answered ``503`` with the message and a link to try again (the next request builds anew).

The rate limits ``pdf`` and ``pdf-all`` count only the requests that start a build (their outcome
``pdf-build``; the ``wait=1`` reloads are not even checked): a PDF already built costs nothing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlencode

from flask import Flask, Response, current_app, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from tutor.content.quizzes import Quiz
from tutor.export.worksheet import PdfCache, Progress, build_pdf, pdf_key
from tutor.i18n import fmt_number

from .limits import note

__all__ = ["STALE", "Job", "PdfJobs", "jobs_of", "pdf_download"]

#: Seconds after which a build's lock that nobody touched is taken to be a dead process's.
STALE = 120.0


@dataclass
class Job:
    """What one build is doing: ``state`` (``queued``, ``building``, ``ready``, ``failed``),
    ``stage``/``n``/``total`` (the last :data:`~tutor.export.worksheet.Progress` call)."""

    state: str
    stage: str = ""
    n: int = 0
    total: int = 0

    def words(self) -> str:
        """The progress in the page's language (its digits)."""
        if self.state == "queued":
            return _("Waiting for its turn…")
        if self.stage == "question":
            return _("Question %(n)s of %(total)s", n=fmt_number(self.n), total=fmt_number(self.total))
        if self.stage == "page":
            return _("Page %(n)s", n=fmt_number(self.n))
        if self.stage == "pdf":
            return _("Writing the PDF…")
        return _("Preparing PDF…")


class PdfJobs:
    """The PDFs of one app: the folder (``cache``) and this process's builds."""

    def __init__(self, directory: str | Path) -> None:
        self.cache = PdfCache(directory)
        self.directory = Path(directory)
        self._jobs: dict[str, Job] = {}
        self._done: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tutor-pdf")

    def _file(self, key: str, ext: str) -> Path:
        return self.directory / f"{key}.{ext}"

    def status(self, key: str) -> Job | None:
        """The build of ``key`` here or in another process (``None``: none is running)."""
        with self._lock:
            job = self._jobs.get(key)
        if job is not None:
            return job
        try:
            lock = self._file(key, "lock")
            if time.time() - lock.stat().st_mtime < STALE:
                try:
                    return Job(**json.loads(self._file(key, "json").read_text(encoding="utf-8")))
                except (OSError, ValueError, TypeError):
                    return Job("building")
        except OSError:
            pass
        return None

    def forget(self, key: str) -> None:
        """Drop a failed build's record, so that the next request builds anew."""
        with self._lock:
            if key in self._jobs and self._jobs[key].state == "failed":
                del self._jobs[key]

    def start(self, key: str, build: Callable[[Progress], bytes]) -> Job | None:
        """Start building ``key`` with ``build(progress)`` (``None`` if it is already being built,
        here or elsewhere)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        lock = self._file(key, "lock")
        with self._lock:
            if key in self._jobs:
                return None
            try:
                if time.time() - lock.stat().st_mtime >= STALE:
                    lock.unlink(missing_ok=True)  # a dead process's
            except OSError:
                pass
            try:
                os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                return None
            job = self._jobs[key] = Job("queued")
            self._done[key] = threading.Event()
        self._write(key, job)
        self._pool.submit(self._run, key, build)
        return job

    def wait(self, key: str, seconds: float) -> bytes | None:
        """The PDF of ``key`` if this process's build of it ends within ``seconds``."""
        with self._lock:
            done = self._done.get(key)
        if done is not None and seconds > 0:
            done.wait(seconds)
        return self.cache.get(key)

    def _write(self, key: str, job: Job) -> None:
        tmp = self._file(key, f"json.{os.getpid()}")
        try:
            tmp.write_text(json.dumps(asdict(job)), encoding="utf-8")
            os.replace(tmp, self._file(key, "json"))
            os.utime(self._file(key, "lock"))
        except OSError:
            pass

    def _run(self, key: str, build: Callable[[Progress], bytes]) -> None:
        job = self._jobs[key]

        def progress(stage: str, n: int, total: int) -> None:
            job.state, job.stage, job.n, job.total = "building", stage, n, total
            self._write(key, job)

        try:
            job.state = "building"
            self.cache.put(key, build(progress))
            job.state = "ready"
            with self._lock:
                del self._jobs[key]
        except Exception:  # any failure of a build is shown as such (503), and logged
            logging.getLogger(__name__).exception("worksheet PDF %s failed", key[:12])
            job.state = "failed"
        finally:
            for ext in ("lock", "json"):
                self._file(key, ext).unlink(missing_ok=True)
            with self._lock:
                event = self._done.pop(key, None)
            if event is not None:
                event.set()


def jobs_of(app: Flask) -> PdfJobs:
    """The app's :class:`PdfJobs` (made at the first PDF)."""
    jobs = app.extensions.get("tutor_pdfjobs")
    if jobs is None:
        folder = app.config.get("PDF_CACHE_DIR") or os.path.join(app.instance_path, "pdfs")
        jobs = app.extensions.setdefault("tutor_pdfjobs", PdfJobs(folder))
    return jobs


def pdf_download(quiz: Quiz, lang: str, key: bool, name: str, *, title: str | None = None) -> ResponseReturnValue:
    """The worksheet PDF of ``quiz`` as the download ``name`` if it is built (or gets built within
    ``PDF_WAIT`` seconds), else its build's progress (see the module docstring)."""
    jobs = jobs_of(current_app)
    digest = pdf_key(quiz, lang, key, title=title)
    data = jobs.cache.get(digest)
    polling = request.args.get("wait") == "1"
    if data is None:
        if jobs.status(digest) is None:
            if polling:  # a reload that finds no build (it ended elsewhere, or never was): ask anew
                return redirect(_url(wait=False), 303)
            if jobs.start(digest, lambda tell: build_pdf(quiz, lang, key, title=title, progress=tell)) is not None:
                note("pdf-build")
        data = jobs.wait(digest, float(current_app.config.get("PDF_WAIT", 1.0)))
    if data is None:
        job = jobs.status(digest) or Job("building")
        if job.state == "failed":  # told once (this answer), then forgotten: the next request builds anew
            jobs.forget(digest)
            return _progress(job, 503)
        return _progress(job, 202)
    return Response(data, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


def _url(wait: bool) -> str:
    """This request's URL with ``wait=1`` (a reload of the progress page) or without it."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "wait"] + ([("wait", "1")] if wait else [])
    return request.path + ("?" + urlencode(args) if args else "")


def _progress(job: Job, status: int) -> Response:
    failed = job.state == "failed"
    words = _("The PDF could not be made. Try again.") if failed else job.words()
    poll = _url(wait=True)
    if request.accept_mimetypes.best == "application/json":
        response = Response(json.dumps({"state": job.state, "progress": words, "poll": poll}, ensure_ascii=False),
                            mimetype="application/json")
    else:
        response = Response(render_template("worksheet_wait.html", job=job, words=words, failed=failed,
                                            poll=poll, again=_url(wait=False)))
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
