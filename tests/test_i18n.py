"""Catalogues (complete, in sync with the code, compiled) and the localisers of tutor.i18n."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from tutor import i18n
from tutor.content.kinds import kind_prompt
from tutor.engine import REASON_TEXTS, Reason
from tutor.solve import answer

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
TRANSLATED = ("fa", "bg", "te")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sd]")


def _po(lang: str):
    with open(LOCALES / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh, locale=lang)


def _pot():
    with open(LOCALES / "messages.pot", "rb") as fh:
        return read_po(fh)


def _ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def _key(value):
    return tuple(value) if isinstance(value, list | tuple) else value


def _placeholders(text: str) -> list[str]:
    return sorted(set(PLACEHOLDER.findall(text)))


# ------------------------------------------------------------------------------------ catalogues


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_translated_and_not_fuzzy(lang):
    catalog = _po(lang)
    assert len(catalog) > 100
    untranslated = []
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(s.strip() for s in strings):
            untranslated.append(m.id)
    assert untranslated == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_placeholders_preserved(lang):
    for m in _po(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        expected = _placeholders(ids[-1])
        for s in strings:
            assert _placeholders(s) == expected, (lang, m.id, s)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_are_in_the_language(lang):
    """fa/te msgstrs are written in their scripts; bg in Cyrillic (not left in English)."""
    script = {"fa": r"[\u0600-\u06FF]", "bg": r"[\u0400-\u04FF]", "te": r"[\u0C00-\u0C7F]"}[lang]
    for m in _po(lang):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            text = PLACEHOLDER.sub("", s)
            if re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", m.id[0] if isinstance(m.id, tuple) else m.id)):
                assert re.search(script, text), (lang, m.id, s)


@pytest.mark.parametrize(("lang", "nplurals", "expr"), [
    ("en", 2, "(n != 1)"), ("fa", 2, "(n > 1)"), ("bg", 2, "(n != 1)"), ("te", 2, "(n != 1)"),
])
def test_plural_forms_header(lang, nplurals, expr):
    catalog = _po(lang)
    assert catalog.num_plurals == nplurals
    assert catalog.plural_expr == expr


def test_catalogues_have_the_same_msgids_as_the_template():
    pot = _ids(_pot())
    for lang in i18n.LANGUAGES:
        assert _ids(_po(lang)) == pot, lang


def test_template_in_sync_with_the_code(tmp_path):
    """Re-extract exactly as locales/babel.cfg says and compare the msgid sets with messages.pot."""
    out = tmp_path / "messages.pot"
    CommandLineInterface().run([
        "pybabel", "-q", "extract", "-F", str(LOCALES / "babel.cfg"), "-k", "N_", "-k", "_", "-k", "gettext",
        "-k", "ngettext:1,2", "-k", "lazy_gettext", "-o", str(out), str(ROOT),
    ])
    with open(out, "rb") as fh:
        fresh = _ids(read_po(fh))
    committed = _ids(_pot())
    assert fresh - committed == set(), "strings in the code missing from locales/messages.pot"
    assert committed - fresh == set(), "stale strings in locales/messages.pot"


def test_every_reason_template_and_kind_prompt_is_in_the_template():
    i18n.render_reason({"code": "lead-any", "params": {}})  # loads every ruleset's reasons
    pot = _ids(_pot())
    for code, template in REASON_TEXTS.items():
        assert template in pot, code
    from tutor.content.kinds import KINDS

    for name, kind in KINDS.items():
        for message in (kind.prompt, kind.label, kind.hint):
            assert message is None or message in pot, (name, message)
    assert len(REASON_TEXTS) >= 40


def test_one_placeholder_style():
    """Every message, reason templates included, uses gettext's ``%(name)s`` (never ``{name}``)."""
    i18n.render_reason({"code": "lead-any", "params": {}})  # loads every ruleset's reasons
    brace = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
    for lang in i18n.LANGUAGES:
        for m in _po(lang):
            texts = (m.id if isinstance(m.id, tuple) else (m.id,)) + (
                m.string if isinstance(m.string, tuple) else (m.string,))
            assert not any(brace.search(t) for t in texts), (lang, m.id)
    assert not [code for code, template in REASON_TEXTS.items() if brace.search(template)]
    assert sum("%(" in t for t in REASON_TEXTS.values()) >= 40


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_mo_files_up_to_date(lang):
    """Compiling the .po now gives the same messages as the committed .mo."""
    buf = io.BytesIO()
    write_mo(buf, _po(lang))
    buf.seek(0)
    fresh = {_key(m.id): _key(m.string) for m in read_mo(buf) if m.id}
    with open(LOCALES / lang / "LC_MESSAGES" / "messages.mo", "rb") as fh:
        committed = {_key(m.id): _key(m.string) for m in read_mo(fh) if m.id}
    assert committed == fresh
    assert len(committed) == len(_ids(_po(lang)))


# ------------------------------------------------------------------------------------ locale choice


def test_select_locale_order():
    assert i18n.select_locale("bg", "fa", "te") == "bg"            # URL first
    assert i18n.select_locale(None, "fa", "te,bg") == "fa"         # then cookie
    assert i18n.select_locale("xx", "nope", "te;q=0.5, bg;q=0.9") == "bg"  # then Accept-Language by q
    assert i18n.select_locale(None, None, "de-DE, fa-IR;q=0.8") == "fa"    # regional tag -> language
    assert i18n.select_locale(None, None, "de, en;q=0, te;q=0.1") == "te"  # q=0 refused
    assert i18n.select_locale(None, None, "de, fr") == "en"                # fallback
    assert i18n.select_locale(None, None, None) == "en"
    assert i18n.select_locale("TE", None, None) == "te"


def test_languages_and_directions():
    assert i18n.LANGUAGES == ("en", "fa", "bg", "te")
    assert i18n.LANGUAGE_NAMES == {"en": "English", "fa": "فارسی", "bg": "Български", "te": "తెలుగు"}
    assert [i18n.is_rtl(lang) for lang in i18n.LANGUAGES] == [False, True, False, False]
    assert i18n.text_direction("fa") == "rtl" and i18n.text_direction("te") == "ltr"
    assert "Noto Sans Telugu" in i18n.font_family("te")
    assert "Noto Naskh Arabic" in i18n.font_family("fa")


def _in(lang: str, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` rendered in ``lang``."""
    with i18n.using(lang):
        return fn(*args, **kwargs)


def test_flask_babel_follows_the_locale_selector_and_reads_the_one_loader():
    from flask import Flask, g
    from flask_babel import force_locale, get_translations
    from flask_babel import gettext as flask_gettext

    from tutor.web import lang

    app = Flask(__name__)
    lang.init_app(app)
    with app.test_request_context("/", headers={"Accept-Language": "bg"}):
        assert i18n.current_lang() == "bg"
        assert flask_gettext("Which side wins the game, if any?") == "Коя страна печели партията, ако някоя я печели?"
        assert i18n.gettext("Trump") == flask_gettext("Trump") == "Коз"
        assert get_translations() is i18n.get_translations("bg")  # one catalogue loading path
        with force_locale("te"):  # Flask-Babel's own switch moves tutor.i18n too
            assert i18n.current_lang() == "te" and i18n.fmt_number(3) == "3"
        with i18n.using("fa"):  # and i18n.using moves Flask-Babel
            assert flask_gettext("Trump") == "حکم" and i18n.card_label("10H") == "ده دل"
        assert i18n.current_lang() == "bg"
    with app.test_request_context("/", headers={"Accept-Language": "bg"}):
        g.lang = "fa"  # the URL prefix chose Persian
        assert flask_gettext("Trump") == "حکم" and i18n.fmt_number(12) == "۱۲"
    with app.app_context():  # no request: English unless told
        assert i18n.current_lang() == "en" and flask_gettext("Trump") == "Trump"
        with force_locale("bg"):
            assert i18n.seat_label(2, 0, 4, "hokm") == "партньорът ви"


def test_a_request_sets_the_current_language_once_and_leaves_nothing_behind(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from web_support import make_app

    from tutor.web import lang

    seen = []
    app = make_app(tmp_path)
    app.before_request(lambda: seen.append((i18n.current_lang(), lang.locale())))
    client = app.test_client()
    html = client.get("/fa/practice/").get_data(as_text=True)
    assert seen == [("fa", "fa")] and 'lang="fa" dir="rtl"' in html
    assert i18n.current_lang() == "en" and i18n.CURRENT.get() is None  # reset when the request ended
    client.get("/", headers={"Accept-Language": "te"})  # no prefix: the cookie (fa, set above) wins
    assert seen[-1] == ("fa", "fa") and i18n.CURRENT.get() is None


def test_using_without_flask_nests_and_restores():
    assert i18n.current_lang() == "en"
    with i18n.using("fa") as code:
        assert code == "fa" and i18n.gettext("Trump") == "حکم"
        with i18n.using("bg-BG"):
            assert i18n.current_lang() == "bg"
        with i18n.using("xx"):  # unsupported: English
            assert i18n.gettext("Trump") == "Trump"
        assert i18n.current_lang() == "fa"
    assert i18n.current_lang() == "en"
    with pytest.raises(KeyError), i18n.using("te"):
        raise KeyError("left by an exception")
    assert i18n.current_lang() == "en"


# ------------------------------------------------------------------------------------ numbers, plurals


def test_fmt_number():
    assert _in("fa", i18n.fmt_number, 1234) == "۱٬۲۳۴"
    assert _in("fa", i18n.fmt_number, 7) == "۷"
    assert i18n.fmt_number(1234) == "1,234"
    assert _in("te", i18n.fmt_number, 1234) == "1,234"
    assert _in("bg", i18n.fmt_number, 12345) == "12\xa0345"


@pytest.mark.parametrize(("lang", "week", "across"), [
    ("en", "24\u2009–\u200930 Nov", "28 Nov\u2009–\u20094 Dec"),  # day first, as the app's other dates
    ("fa", "۲۴ تا ۳۰ نوامبر", "۲۸ نوامبر تا ۴ دسامبر"),
    ("bg", "24.11. – 30.11.", "28.11. – 4.12."),
    ("te", "24–30 నవం", "28 నవం – 4 డిసెం"),
])
def test_fmt_day_range_is_the_span_in_the_language(lang, week, across):
    from datetime import date
    assert _in(lang, i18n.fmt_day_range, date(2025, 11, 24), date(2025, 11, 30)) == week
    assert _in(lang, i18n.fmt_day_range, date(2025, 11, 28), date(2025, 12, 4)) == across


def test_plurals_pick_the_right_form():
    assert [i18n.points_label(n) for n in (1, 2)] == ["1 point", "2 points"]
    assert [_in("bg", i18n.points_label, n) for n in (1, 3)] == ["1 точка", "3 точки"]
    assert [_in("bg", i18n.tricks_label, n) for n in (1, 7)] == ["1 взятка", "7 взятки"]
    assert [_in("te", i18n.cards_count_label, n) for n in (1, 6)] == ["1 కార్డు", "6 కార్డులు"]
    assert [_in("fa", i18n.points_label, n) for n in (0, 1, 3)] == ["۰ امتیاز", "۱ امتیاز", "۳ امتیاز"]
    t = i18n.get_translations("bg")
    assert t.ngettext("%(num)s point", "%(num)s points", 1) == "%(num)s точка"
    assert t.ngettext("%(num)s point", "%(num)s points", 5) == "%(num)s точки"
    assert _in("te", i18n.ngettext, "%(num)s trick", "%(num)s tricks", 2) == "2 ట్రిక్కులు"


def test_gettext_helper_outside_flask():
    assert _in("fa", i18n.gettext, "Trump") == "حکم"
    assert _in("bg", i18n.gettext, "Trick %(n)s", n="3") == "Взятка 3"
    assert _in("xx", i18n.gettext, "Trump") == "Trump"
    assert kind_prompt("legal-cards") == "Which cards may you play? Select every legal card."
    assert _in("fa", kind_prompt, "legal-cards") == "کدام کارت‌ها را می‌توانی بازی کنی؟ همهٔ کارت‌های مجاز را انتخاب کن."
    assert _in("bg", kind_prompt, "trick-winner") == "Кой взима тази взятка? Щракнете върху печелившата карта."
    for lang in i18n.LANGUAGES:
        for kind in ("legal-cards", "trick-winner", "round-score", "next-hakem", "turn-up", "beg", "hand-score",
                     "game-winner", "walk-through"):
            assert _in(lang, kind_prompt, kind) != kind


# ------------------------------------------------------------------------------------ cards, seats


@pytest.mark.parametrize(("card", "lang", "label", "short"), [
    ("10H", "en", "ten of hearts", "10♥"),
    ("AS", "en", "ace of spades", "A♠"),
    ("QC", "en", "queen of clubs", "Q♣"),
    ("10H", "fa", "ده دل", "۱۰♥"),
    ("AS", "fa", "آس پیک", "آ♠"),
    ("JD", "fa", "سرباز خشت", "س♦"),
    ("KC", "fa", "شاه گشنیز", "ش♣"),
    ("10H", "bg", "десетка купа", "10♥"),
    ("KC", "bg", "поп спатия", "П♣"),
    ("JD", "bg", "вале каро", "В♦"),
    ("AS", "bg", "асо пика", "А♠"),
    ("10H", "te", "ఆటీను పది", "10♥"),
    ("AS", "te", "ఇస్పేటు ఏస్", "A♠"),
    ("QD", "te", "డైమను రాణి", "Q♦"),
    ("KC", "te", "కళావరు రాజు", "K♣"),
])
def test_card_names(card, lang, label, short):
    with i18n.using(lang):
        assert i18n.card_label(card) == label
        assert i18n.card_short(card) == short


def test_suit_and_rank_names():
    assert i18n.suit_name("H") == "heart" and i18n.suit_name("H", plural=True) == "hearts"
    assert _in("fa", i18n.suit_name, "♣") == "گشنیز"
    assert _in("bg", i18n.suit_name, "D", plural=True) == "кара"
    assert _in("te", i18n.suit_name, "S") == "ఇస్పేటు"
    assert _in("bg", i18n.rank_name, 11) == "вале" and _in("fa", i18n.rank_name, "Q") == "بی‌بی"
    assert i18n.cards_label(["AS", "10H"]) == "ace of spades and ten of hearts"
    assert _in("bg", i18n.cards_label, ["AS", "10H"]) == "асо пика и десетка купа"


def test_card_names_in_a_sentence():
    """In prose English gives each card its article; the label (aria-label, lists) stays bare, and
    the other languages name a card the same way in both."""
    assert i18n.card_label("QS", prose=True) == "the queen of spades"
    assert i18n.card_label("QS") == "queen of spades"
    assert i18n.cards_label(["QS", "4S"], prose=True) == "the queen of spades and the four of spades"
    assert _in("bg", i18n.card_label, "JD", prose=True) == "вале каро"
    assert _in("fa", i18n.cards_label, ["QS", "4S"], prose=True) == "بی‌بی پیک و چهار پیک"
    assert _in("te", i18n.card_label, "AS", prose=True) == "ఇస్పేటు ఏస్"


@pytest.mark.parametrize("ruleset", ["hokm", "trinidad"])
def test_seat_labels_anticlockwise(ruleset):
    # seat 2 is the learner: seat 3 plays next and so sits on the learner's RIGHT
    labels = [i18n.seat_label(s, 2, 4, ruleset) for s in range(4)]
    assert labels == ["your partner", "your left-hand opponent", "you", "your right-hand opponent"]


def test_seat_labels_clockwise_classic():
    labels = [i18n.seat_label(s, 2, 4, "all-fours") for s in range(4)]
    assert labels == ["your partner", "your right-hand opponent", "you", "your left-hand opponent"]
    assert [i18n.seat_label(s, 0, 3, "all-fours") for s in range(3)] == [
        "you", "your left-hand opponent", "your right-hand opponent"]
    assert [i18n.seat_label(s, 1, 2, "all-fours") for s in range(2)] == ["your opponent", "you"]


def test_seat_labels_roles_and_languages():
    assert i18n.seat_label(1, 0, 4, "hokm", hakem=1) == "your right-hand opponent (hakem)"
    assert i18n.seat_label(0, 0, 4, "all-fours", dealer=0) == "you (dealer)"
    assert _in("fa", i18n.seat_label, 1, 0, 4, "hokm", hakem=1) == "حریف سمت راستت (حاکم)"
    assert _in("bg", i18n.seat_label, 2, 0, 4, "trinidad") == "партньорът ви"
    assert _in("te", i18n.seat_label, 3, 0, 4, "hokm") == "మీ ఎడమ వైపు ప్రత్యర్థి"
    assert _in("fa", i18n.seat_label, 3, None, 4, "hokm") == "جایگاه ۴"  # counted from 1


def test_seat_labels_after_by():
    """"played by <seat>": each language's own form of the seat after its "by" (Bulgarian: the
    short article and the pronoun "вас" after "от")."""
    assert [i18n.seat_label(s, 0, 4, "hokm", by=True) for s in range(4)] == [
        "by you", "by your right-hand opponent", "by your partner", "by your left-hand opponent"]
    assert [_in("bg", i18n.seat_label, s, 0, 4, "hokm", by=True) for s in range(4)] == [
        "от вас", "от противника отдясно", "от партньора ви", "от противника отляво"]
    assert _in("bg", i18n.seat_label, 1, 0, 2, "all-fours", by=True) == "от противника ви"
    assert _in("bg", i18n.seat_label, 2, None, 4, "hokm", by=True) == "от място 3"
    assert _in("fa", i18n.seat_label, 2, 0, 4, "hokm", by=True) == "از طرف یارت"
    assert _in("fa", i18n.seat_label, 2, None, 4, "hokm", by=True) == "از جایگاه ۳"
    assert _in("te", i18n.seat_label, 0, 0, 4, "hokm", by=True) == "మీరు"


def test_who_won_a_trick_reads_for_every_seat_in_persian():
    """Persian's verb agrees with its subject ("تو بردی", "یارت برد"): the sentence names the
    winner without a verb, so it reads for "you" as for any other seat."""
    with i18n.using("fa"):
        said = [i18n.gettext("Trick %(n)s was won by %(who)s.", n=i18n.fmt_number(5),
                             who=i18n.seat_label(s, 0, 4, "hokm")) for s in (0, 2)]
    assert said == ["برندهٔ دست ۵: تو.", "برندهٔ دست ۵: یارت."]


def test_separator_never_reads_as_a_persian_digit():
    """Between a name and a number: a middle dot, but not in Persian, where "·" beside Persian
    digits looks like the digit zero."""
    assert [_in(lang, i18n.separator) for lang in i18n.LANGUAGES] == [" · ", "، ", " · ", " · "]
    with i18n.using("fa"):
        line = "حکم" + i18n.separator() + i18n.fmt_percent(0.19)
    assert line == "حکم، ۱۹٪" and "·" not in line and "۰" not in line


def test_side_labels():
    assert [i18n.side_label(s, 3, 4) for s in (0, 1)] == ["the other team", "your team"]
    assert [_in("bg", i18n.side_label, s, 0, 2) for s in (0, 1)] == ["вие", "противникът ви"]
    assert _in("fa", i18n.side_label, None, 0, 4) == "هیچ‌کس"
    assert _in("te", i18n.side_label, 1, None, 4) == "జట్టు 2"  # counted from 1


# ------------------------------------------------------------------------------------ reasons


def test_render_reason_from_the_engine():
    scenario = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}
    why = answer(scenario)["why"]
    assert why[0]["code"] == "must-follow-suit"
    en, fa, bg, te = (_in(lang, i18n.render_reason, why[0]) for lang in i18n.LANGUAGES)
    assert en == ("The suit led is clubs and you hold the king of clubs and the three of clubs, "
                  "so you must play one of them.")
    assert fa == "خال زمینه گشنیز است و تو شاه گشنیز و سه گشنیز داری، پس باید یکی از آن‌ها را بازی کنی."
    assert bg == "Изведеният цвят е спатия, а вие имате поп спатия и тройка спатия, затова трябва да изиграете карта от този цвят."
    assert te == ("మొదట ఆడిన సూట్ కళావరు, అది మీ దగ్గర ఉంది (కళావరు రాజు మరియు కళావరు మూడు), "
                  "కాబట్టి ఆ సూట్ కార్డే వేయాలి.")


def test_render_reason_seats_relative_to_the_learner():
    scenario = {"ruleset": "hokm", "ask": "trick-winner", "trump": "H", "trick": ["10C", "2H", "AC", "KH"]}
    result = answer(scenario)
    assert result["winner"] == 3
    reason = result["why"][0]
    assert i18n.render_reason(reason, you=0, players=4, ruleset="hokm") == (
        "The king of hearts is the highest trump (hearts) played, so the trick goes to your left-hand opponent.")
    assert _in("fa", i18n.render_reason, reason, you=2, players=4, ruleset="hokm").endswith("حریف سمت راستت.")
    assert _in("bg", i18n.render_reason, reason).endswith("победител във взятката е: място 4.")


def test_render_reason_numbers_lists_and_unknown_params():
    r = Reason("game-tie-nobody", "K3", {"totals": [10, 10]})
    assert _in("fa", i18n.render_reason, r) == "جمع ارزش کارت‌ها برابر است (۱۰ – ۱۰): «گیم» به کسی نمی‌رسد."
    assert i18n.render_reason(r.to_json()) == "Game is tied (10 – 10): nobody scores it."
    assert _in("fa", i18n.render_reason, {"code": "no-such-code", "params": {}}) == "no-such-code"
    # a template whose params are missing keeps the placeholder rather than failing
    assert "%(card)s" in i18n.render_reason({"code": "card-not-in-hand", "params": {}})


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_reason_renders_with_every_placeholder_filled(lang):
    i18n.render_reason({"code": "lead-any", "params": {}})
    sample = {"card": "JH", "cards": ["2H", "9H"], "led": "C", "trump": "H", "suit": "S", "refused": "D",
              "seat": 1, "winner": 2, "hakem": 0, "next_hakem": 1, "player": 3, "holder": 3, "dealer": 0,
              "team": 0, "side": 1, "totals": [12, 8], "phase": "discard"}
    for code, template in REASON_TEXTS.items():
        names = re.findall(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)s", template)
        assert names or "%" not in template, code
        params = {n: sample.get(n, 5) for n in names}
        text = _in(lang, i18n.render_reason, {"code": code, "rule": "X", "params": params}, you=0, players=4,
                   ruleset="hokm")
        assert "%(" not in text, (lang, code, text)


def test_no_english_message_is_its_own_text_run_into_another():
    """An English message given its own wording keeps it whole: never the msgid with a second
    sentence run onto it (what a merge that filled ``msgstr ""`` of a wrapped message left: the
    learner read "…one of them.The suit led is…" twice over)."""
    joined = [m.id for m in _po("en") if m.id and isinstance(m.id, str) and isinstance(m.string, str)
              and m.string != m.id and m.string.startswith(m.id)]
    assert joined == []
