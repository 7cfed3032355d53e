"""The language registry: one entry per language, as data, in ``locales/<code>/language.yaml``.

Each language of the app is one folder of the locales directory (:data:`LOCALES_DIR`):
``language.yaml`` (this module's :class:`Language`, validated with pydantic) beside its
``LC_MESSAGES/messages.po`` and compiled ``messages.mo``. Adding a language is adding a folder:
every table of :mod:`tutor.i18n` (names, directions, fonts, digits, card and seat words), the
forms' prompt fields, the languages' stylesheet (:func:`language_css`), the routes and
``tutor check`` derive from :data:`REGISTRY`.

The locales directory is ``$TUTOR_LOCALES_DIR`` if set, else ``locales/`` of the shipped content
(:func:`tutor.shipped_content`). It is read once, when :mod:`tutor.i18n` is first imported. A
malformed ``language.yaml`` never stops the import: its language is left out and the problem,
``file:line: message``, is kept in :data:`REGISTRY_PROBLEMS`, which start-up
(:func:`tutor.i18n.init_app`) raises and ``tutor check`` prints. Only an unusable English entry
(the default language, the fallback of every other) raises :class:`ContentError` at import.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tutor import shipped_content
from tutor.engine.cards import Suit
from tutor.problems import ContentError, Problems, display_path
from tutor.yamllines import field_line, load_yaml

__all__ = [
    "BY_SEAT_WORDS",
    "DEFAULT_LANGUAGE",
    "LANGUAGE_FILE",
    "LOCALES_DIR",
    "REGISTRY",
    "REGISTRY_PROBLEMS",
    "SEAT_WORDS",
    "CardGrammar",
    "Language",
    "language",
    "language_css",
    "load_registry",
    "locales_dir",
]

DEFAULT_LANGUAGE = "en"
#: The name of a language's entry inside its folder.
LANGUAGE_FILE = "language.yaml"
#: The keys of ``seats``: a seat relative to the learner, its roles, the teams.
SEAT_WORDS = ("you", "partner", "right", "left", "opponent", "seat", "dealer", "hakem", "your-team", "other-team",
              "team")
#: The keys of ``by_seats``: a seat as the one who did something ("played by your partner").
BY_SEAT_WORDS = ("you", "partner", "right", "left", "opponent", "seat")
#: The placeholders each seat word must hold (the others hold none).
_SEAT_PLACEHOLDERS = {"seat": "%(n)s", "team": "%(n)s", "dealer": "%(who)s", "hakem": "%(who)s"}
_CODE = re.compile(r"^[a-z]{2,3}$")
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")

Text = Annotated[str, Field(min_length=1, max_length=200)]


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


class CardGrammar(BaseModel):
    """How the language names cards (:mod:`tutor.i18n.cards`).

    ``pattern``: a full card name from ``%(rank)s`` and ``%(suit)s`` in the language's order
    ("%(rank)s of %(suit)s"); ``in_prose``: that name inside a sentence, ``%(card)s`` with the
    language's article if it has one ("the %(card)s"); ``suit_plural_in_name`` /
    ``suit_plural_in_prose``: whether the suit's plural stands in a card's name ("ten of hearts")
    and in running prose ("hearts were led"); ``ranks``: rank number (2-14) -> full name;
    ``letters``: rank number -> index on the card face, for the ranks that have a letter (the
    others show the number in the language's digits); ``suits``: suit letter -> [singular, plural].
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: Text
    in_prose: Text
    suit_plural_in_name: bool
    suit_plural_in_prose: bool
    ranks: dict[Annotated[int, Field(ge=2, le=14)], Text]
    letters: dict[Annotated[int, Field(ge=2, le=14)], Annotated[str, Field(min_length=1, max_length=3)]]
    suits: dict[Literal["S", "H", "D", "C"], tuple[Text, Text]]

    @field_validator("pattern")
    @classmethod
    def _pattern(cls, v: str) -> str:
        if _placeholders(v) != {"rank", "suit"}:
            raise ValueError("must hold %(rank)s and %(suit)s and no other placeholder")
        return v

    @field_validator("in_prose")
    @classmethod
    def _in_prose(cls, v: str) -> str:
        if _placeholders(v) != {"card"}:
            raise ValueError("must hold %(card)s and no other placeholder")
        return v

    @field_validator("ranks")
    @classmethod
    def _ranks(cls, v: dict[int, str]) -> dict[int, str]:
        missing = sorted(set(range(2, 15)) - set(v))
        if missing:
            raise ValueError(f"every rank 2-14 needs its name (missing {', '.join(map(str, missing))})")
        return v

    @field_validator("suits")
    @classmethod
    def _suits(cls, v: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
        missing = [s for s in "SHDC" if s not in v]
        if missing:
            raise ValueError(f"every suit S H D C needs its names (missing {', '.join(missing)})")
        return v

    def suit(self, suit: Suit) -> tuple[str, str]:
        """(singular, plural) name of ``suit``."""
        return self.suits[suit.name]  # type: ignore[index]  # the keys are the suit letters


class Avoid(BaseModel):
    """A word or form a text of the language must not use: its register (the learner is
    addressed one way: Persian تو, never شما; Bulgarian вие, never ти) or its glossary (one term
    per concept: Telugu తురుపు for trump, not the loan ట్రంప్). ``tutor check`` reports every
    match in the catalogue, and in the language's lessons when ``lessons`` is true.

    ``pattern``: a Python regular expression (searched, not matched); ``why``: what to write
    instead, shown in the problem; ``lessons``: whether the lessons are checked too (a lesson may
    have reason to name the avoided word, e.g. to say that the app does not use it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: Annotated[str, Field(min_length=1, max_length=400)]
    why: Text
    lessons: bool = False

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"not a regular expression: {e}") from e
        return v

    def found(self, text: str) -> str | None:
        """The first match of :attr:`pattern` in ``text``, or None."""
        m = re.search(self.pattern, text)
        return m.group(0) if m else None


class Language(BaseModel):
    """One language of the app, as ``locales/<code>/language.yaml`` writes it.

    ``name``: the language's name in itself (the language menu, the prompt fields' labels);
    ``english_name``: its name in English (for the project's own reports); ``order``: its place
    in the menu (ties by code); ``direction``: ``ltr`` or ``rtl`` (the HTML ``dir``);
    ``partial``: the language falls back to English where its own lessons or content are missing
    (``tutor check`` does not ask for its translations); ``babel_locale``: the CLDR locale Babel
    formats numbers, dates and lists with; ``interval_locale``: the one for spans of days (default
    ``babel_locale``); ``numbering``: the CLDR numbering system (``latn``, ``arabext``);
    ``digits``: the ten digits shown for 0-9 (default ASCII); ``percent_sign``: replaces ``%``;
    ``calendar``: ``gregorian`` (the one Babel formats); ``font``: the CSS font stack;
    ``line_height``: a taller line for the script (CSS, unitless), if it needs one;
    ``list_style``: the CSS counter style of numbered lists and page numbers, if not decimal;
    ``separator``: what stands between two items of one line, with its spaces (" · ");
    ``cards``: :class:`CardGrammar`; ``seats`` / ``by_seats``: the words of :data:`SEAT_WORDS` /
    :data:`BY_SEAT_WORDS` (``%(n)s`` a seat or team number, ``%(who)s`` the seat a role is added to);
    ``avoid``: the register's and the glossary's forbidden forms (:class:`Avoid`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(exclude=True)
    name: Text
    english_name: Text
    order: Annotated[int, Field(ge=0)] = 100
    direction: Literal["ltr", "rtl"]
    partial: bool
    babel_locale: Text
    interval_locale: str | None = None
    numbering: Literal["latn", "arabext", "arab", "beng", "deva", "telu", "tamldec", "thai", "mymr"] = "latn"
    digits: Annotated[str, Field(min_length=10, max_length=10)] = "0123456789"
    percent_sign: Annotated[str, Field(min_length=1, max_length=2)] | None = None
    calendar: Literal["gregorian"] = "gregorian"
    font: Annotated[str, Field(min_length=1, max_length=300, pattern=r"^[\w\s\",\-.]+$")]
    line_height: Annotated[float, Field(ge=1, le=3)] | None = None
    list_style: Annotated[str, Field(pattern=r"^[a-z][a-z\-]{1,40}$")] | None = None
    separator: Annotated[str, Field(min_length=1, max_length=5)]
    cards: CardGrammar
    seats: dict[str, Text]
    by_seats: dict[str, Text]
    avoid: tuple[Avoid, ...] = ()

    @field_validator("babel_locale", "interval_locale")
    @classmethod
    def _locale(cls, v: str | None) -> str | None:
        if v is None:
            return v
        from babel import Locale, UnknownLocaleError

        try:
            Locale.parse(v)
        except (UnknownLocaleError, ValueError) as e:
            raise ValueError(f"Babel knows no locale {v!r}") from e
        return v

    @model_validator(mode="after")
    def _words(self) -> Language:
        for field, keys in (("seats", SEAT_WORDS), ("by_seats", BY_SEAT_WORDS)):
            words: dict[str, str] = getattr(self, field)
            missing = [k for k in keys if k not in words]
            unknown = [k for k in words if k not in keys]
            if missing or unknown:
                raise ValueError(f"{field} must give exactly {', '.join(keys)}" + (
                    f" (missing {', '.join(missing)})" if missing else f" (unknown {', '.join(unknown)})"))
            for key, text in words.items():
                want = {_SEAT_PLACEHOLDERS[key][2:-2]} if key in _SEAT_PLACEHOLDERS else set()
                if _placeholders(text) != want:
                    raise ValueError(f"{field}.{key}: must hold " + (
                        f"{_SEAT_PLACEHOLDERS[key]} and no other placeholder" if want else "no placeholder"))
        return self

    @property
    def rtl(self) -> bool:
        """True for a language written right to left."""
        return self.direction == "rtl"

    @property
    def dates_locale(self) -> str:
        """The Babel locale of spans of days (``interval_locale``, else ``babel_locale``)."""
        return self.interval_locale or self.babel_locale

    def to_digits(self, text: str) -> str:
        """``text`` with its ASCII digits written in the language's :attr:`digits`."""
        return text if self.digits == "0123456789" else text.translate(str.maketrans("0123456789", self.digits))

    def from_digits(self, text: str) -> str:
        """``text`` with the language's digits written as ASCII ones (for numbers typed back)."""
        return text if self.digits == "0123456789" else text.translate(str.maketrans(self.digits, "0123456789"))


def locales_dir() -> Path:
    """The locales directory: ``$TUTOR_LOCALES_DIR``, else ``locales/`` of the shipped content."""
    env = os.environ.get("TUTOR_LOCALES_DIR", "").strip()
    return Path(env) if env else shipped_content() / "locales"


def _read(path: Path, code: str, problems: Problems) -> Language | None:
    """The :class:`Language` of one ``language.yaml``, or None with its problems added."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        problems.add(shown, 0, f"cannot read the language file: {e}")
        return None
    found = Problems()
    value, lines = load_yaml(text, shown, found)
    problems.extend(found)
    if found:
        return None
    if not isinstance(value, dict):
        problems.add(shown, 1, "a language file is a mapping of fields (name, direction, cards, seats, ...)")
        return None
    try:
        return Language.model_validate({**value, "code": code})
    except ValidationError as e:
        for err in e.errors():
            where = ".".join(str(p) for p in err["loc"] if not str(p).startswith(("function-", "constrained-")))
            message = err["msg"].removeprefix("Value error, ")
            problems.add(shown, field_line(lines, where, 1), f"{where}: {message}" if where else message)
        return None


def load_registry(root: Path, problems: Problems) -> dict[str, Language]:
    """Every language of ``root`` (a locales directory), in menu order: each subfolder with a
    ``language.yaml``. A folder name that is not a language code (2 or 3 lowercase letters), a
    malformed file, or a missing English entry add to ``problems``."""
    found: list[Language] = []
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for folder in folders:
        path = folder / LANGUAGE_FILE
        if not path.is_file():
            if (folder / "LC_MESSAGES").is_dir():
                problems.add(display_path(path), 0, f"language file missing: {folder.name} has a catalogue "
                                                    f"but no {LANGUAGE_FILE}")
            continue
        if not _CODE.match(folder.name):
            problems.add(display_path(path), 0, f"{folder.name!r} is not a language code (2 or 3 lowercase letters)")
            continue
        entry = _read(path, folder.name, problems)
        if entry is not None:
            found.append(entry)
    if not any(e.code == DEFAULT_LANGUAGE for e in found):
        problems.add(display_path(root / DEFAULT_LANGUAGE / LANGUAGE_FILE), 0,
                     "the default language en has no valid entry (every language falls back to it)")
    return {e.code: e for e in sorted(found, key=lambda e: (e.order, e.code))}


#: The catalogue and registry directory (``locales/`` of the checkout or of the installed package,
#: or ``$TUTOR_LOCALES_DIR``).
LOCALES_DIR: Path = locales_dir()
#: The problems found in the registry when it was read (``file:line: message``).
REGISTRY_PROBLEMS: Problems = Problems()
#: Language code -> its entry, in menu order.
REGISTRY: dict[str, Language] = load_registry(LOCALES_DIR, REGISTRY_PROBLEMS)
#: The code of every folder that declares a language (holds a ``language.yaml``), valid or not: what
#: content may name as a language (a malformed entry is reported as itself, not in every lesson and
#: rule text written in that language).
DECLARED: frozenset[str] = frozenset(p.parent.name for p in LOCALES_DIR.glob(f"*/{LANGUAGE_FILE}")) | set(REGISTRY)
if DEFAULT_LANGUAGE not in REGISTRY:
    raise ContentError(list(REGISTRY_PROBLEMS))


def check_languages(root: Path | None = None, lessons: Path | None = None) -> Problems:
    """The problems of the languages of ``root`` (default :data:`LOCALES_DIR`), read afresh (for
    ``tutor check``): every ``language.yaml`` valid (:func:`load_registry`), every language with
    its catalogue, ``LC_MESSAGES/messages.po``, compiled to ``messages.mo``, and no translation in
    it, nor (for an :class:`Avoid` with ``lessons``) a line of the language's lessons under
    ``lessons`` (default the shipped ``lessons/``: ``<ruleset>/<code>/*.md``), that uses a form
    the language avoids (``file:line: ...``)."""
    root = root or LOCALES_DIR
    lessons = lessons or shipped_content() / "lessons"
    problems = Problems()
    for code, entry in load_registry(root, problems).items():
        messages = root / code / "LC_MESSAGES"
        if not (messages / "messages.po").is_file():
            problems.add(display_path(messages / "messages.po"), 0, f"catalogue missing: {code} has a {LANGUAGE_FILE} "
                                                                   "but no messages.po")
            continue
        if not (messages / "messages.mo").is_file():
            problems.add(display_path(messages / "messages.mo"), 0,
                         "compiled catalogue missing (pybabel compile -d locales)")
        if entry.avoid:
            _check_avoided(entry, messages / "messages.po", lessons, problems)
    return problems


def _check_avoided(entry: Language, po: Path, lessons: Path, problems: Problems) -> None:
    """Add a problem for every translation in ``po`` and every lesson line of ``entry``'s
    language under ``lessons`` that holds a form ``entry`` avoids."""
    from babel.messages.pofile import read_po

    shown = display_path(po)
    try:
        with po.open("rb") as f:
            catalogue = read_po(f)
    except (OSError, ValueError) as e:
        problems.add(shown, 0, f"cannot read the catalogue: {e}")
        return
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        text = " ".join(s for s in strings if s)
        for avoid in entry.avoid:
            word = avoid.found(text)
            if word is not None:
                problems.add(shown, message.lineno, f"{entry.english_name} avoids {word!r}: {avoid.why}")
    in_lessons = [a for a in entry.avoid if a.lessons]
    for path in sorted(lessons.glob(f"*/{entry.code}/*.md")) if in_lessons else ():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for avoid in in_lessons:
                word = avoid.found(line)
                if word is not None:
                    problems.add(display_path(path), n, f"{entry.english_name} avoids {word!r}: {avoid.why}")


def language(code: str) -> Language:
    """The registry entry of ``code`` (a code of :data:`REGISTRY`); English for any other."""
    return REGISTRY.get(code) or REGISTRY[DEFAULT_LANGUAGE]


def language_css() -> str:
    """The languages' stylesheet, made from the registry (served as ``/languages.css``, and given
    to WeasyPrint with the worksheet's): per language, the root element's font stack and line
    height (``html:lang(xx)``), the taller line of its seats' labels and links where it needs one,
    and its numbered lists' counter style."""
    out = ["/* Made from locales/*/language.yaml (tutor.i18n.registry.language_css): do not edit. */"]
    for lang in REGISTRY.values():
        root = f'html[lang="{lang.code}"]'
        rule = f"font-family: {lang.font};"
        if lang.line_height:
            rule += f" line-height: {lang.line_height};"
        out.append(f"{root} {{ {rule} }}")
        if lang.line_height:
            out.append(f"{root} a {{ text-underline-offset: 0.4em; }}")
            out.append(f"@media (max-width: 40rem) {{ {root} .seat .who {{ line-height: 1.75; padding-block: 0.05rem; }} }}")
        if lang.list_style:
            out.append(f":where(:lang({lang.code})) ol {{ list-style-type: {lang.list_style}; }}")
            out.append(f"html:lang({lang.code}) body {{ page: digits-{lang.code}; }}")
            out.append(f'@page digits-{lang.code} {{ @bottom-center {{ content: "\\2066" counter(page, {lang.list_style}) '
                       f'" / " counter(pages, {lang.list_style}) "\\2069"; }} }}')
    return "\n".join(out) + "\n"
