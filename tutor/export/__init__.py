"""Quizzes out of the app and back in: the content files' own format (:mod:`.files`), Moodle XML
and GIFT for a school's learning management system (:mod:`.lms`), and printable worksheets with
their answer keys, as HTML and PDF (:mod:`.worksheet`). ``tutor export`` is the command line.

Every function works on a *quiz document*: the mapping of a ``quizzes/<ruleset>.yaml`` file
(``ruleset``, ``questions``: each ``id, kind, difficulty, teaches, scenario, expect``, optional
``prompt`` ``{lang: text}``, ``you`` and ``points``), as the built-in quizzes and a teacher's
quizzes are stored. Every answer key in an export is computed by the engine, never copied from
``expect``.
"""
