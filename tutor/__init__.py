"""tutor: an interactive rules tutor for Hokm, All Fours (classic) and All Fours (Trinidad).

The rule engine lives in :mod:`tutor.engine` (pure Python, no web imports); the scenario
contract of ``tutor solve`` and ``POST /api/v1/solve`` in :mod:`tutor.solve`.
"""

from pathlib import Path

__version__ = "0.1.0"


def shipped_content() -> Path:
    """The folder holding the content that ships with the code: ``lessons/``, ``quizzes/`` and
    ``locales/`` (compiled ``.mo`` catalogues). In an installed wheel that is
    ``tutor/_content/`` (pyproject.toml maps the repository's top-level folders there); in a
    checkout (editable install) it is the repository's root."""
    package = Path(__file__).resolve().parent
    packaged = package / "_content"
    return packaged if (packaged / "lessons").is_dir() else package.parent
