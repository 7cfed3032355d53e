"""The play pages through the Flask test client: every table played to the end by following the
page's own buttons (no JavaScript), the score explanation equal to the engine's, a refusal kept
in the address with its reason, bad addresses answered with 400 and a message, and a finished
deal counted toward mastery once (on SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest
from sqlalchemy import select
from web_support import dispose, make_app, one_app_per_module

from tutor import i18n
from tutor.domain import mastery as skills
from tutor.domain.models import Learner, PlayedDeal, SkillMastery
from tutor.engine.cards import CARDS
from tutor.engine.play import played_deal_observations, replay, try_action
from tutor.engine.rulesets import RULESETS

TABLES = [(name, p, role) for name, info in RULESETS.items() for p in info.players
          for role, _label in info.coach({"players": p} if name != "hokm" else {}).ROLES]


app = one_app_per_module()


def buttons(html: str) -> list[str]:
    return re.findall(r'name="do" value="([^"]+)"', html)


def rebuilt(url: str, ruleset: str):
    q = parse_qs(urlparse(url).query)
    info = RULESETS[ruleset]
    players = int(q["players"][0])
    coach = info.coach({"players": players} if "players" in info.options_model.__pydantic_fields__ else {})
    actions = [t for t in q.get("a", [""])[0].split(".") if t]
    return coach, replay(coach, int(q["seed"][0]), None, actions, q["role"][0])


@pytest.mark.parametrize(("ruleset", "players", "role"), TABLES)
def test_every_table_is_played_to_the_end_through_its_forms(client, ruleset, players, role):
    url = f"/en/play/{ruleset}?players={players}&role={role}&seed=21"
    rng = random.Random(5)
    for _ in range(150):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.get_data(as_text=True)
        if "story-h" in html:
            break
        choices = buttons(html)
        assert choices, url
        r = client.get(url + "&do=" + rng.choice(choices))
        assert r.status_code == 303
        url = r.headers["Location"]
    else:
        pytest.fail("the deal did not end")
    coach, d = rebuilt(url, ruleset)
    assert d.over
    with i18n.using("en"):
        story = [i18n.render_reason(r, you=d.you, players=coach.players, ruleset=ruleset) for r in d.story()]
    shown = [unescape(re.sub(r"\s+", " ", li)).strip()
             for li in re.findall(r"<li>(.*?)</li>", html.split('class="story-lines"')[1].split("</ol>")[0], re.S)]
    assert shown == story
    # the replay shows each trick with its winner
    r = client.get(url + "&replay=1")
    assert r.status_code == 200 and "replay-nav" in r.get_data(as_text=True)


def test_a_refused_card_stays_in_the_address_with_its_reason(client):
    url = "/en/play/hokm?players=4&role=opponent&seed=11"
    coach, d = rebuilt(url, "hokm")
    bad = d.hand(d.you) & ~coach.legal_cards(d.state, d.you)
    card = (bad & -bad).bit_length() - 1
    token = "p" + str(__import__("tutor.engine.cards", fromlist=["CARDS"]).CARDS[card])
    r = client.get(url + "&do=" + token)
    assert r.status_code == 303 and "r=0%3A" + token in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    try:
        coach.engine.apply(d.state, coach.parse(token, d.state, d.you))
    except Exception as e:  # noqa: BLE001 - IllegalPlayError
        why = e.reason
    assert why.rule == "H14"
    with i18n.using("en"):
        text = i18n.render_reason(why, you=d.you, players=4, ruleset="hokm")
    refusal = unescape(html.split('id="refusal"')[1].split("</div>")[0])
    assert text in refusal and "The two of spades is refused." in refusal
    # the language menu keeps the deal
    assert re.search(r'href="/fa/play/hokm\?players=4&amp;role=opponent&amp;seed=11&amp;r=0(:|%3A)' + token + '"', html)
    # in Bulgarian the card is the object of "play", so no adjective has to agree with its gender
    bg = client.get(r.headers["Location"].replace("/en/", "/bg/")).get_data(as_text=True)
    refusal = unescape(bg.split('id="refusal"')[1].split("</div>")[0])
    assert "<strong>Не можете да изиграете двойка пика.</strong>" in refusal


@pytest.mark.parametrize("query", ["seed=abc", "seed=1&a=zz", "seed=1&a=pAS.pAS.pAS", "seed=1&players=5",
                                   "seed=1&role=king", "seed=1&replay=99", "seed=1&r=x", "seed=1&do=tQ"])
def test_a_bad_address_is_a_400_with_a_message(client, query):
    r = client.get("/en/play/hokm?" + query)
    assert r.status_code == 400
    assert 'class="form-error"' in r.get_data(as_text=True)


def test_unknown_game_and_new_seed(client):
    assert client.get("/en/play/whist?seed=1").status_code == 404
    r = client.get("/fa/play/trinidad?players=2&role=dealer")
    assert r.status_code == 302 and re.search(r"seed=\d+", r.headers["Location"])
    assert client.get("/fa/play/").status_code == 200


# ----------------------------------------------------------------------------- mastery from play

@pytest.fixture
def db_app(tmp_path, app_database):
    app = make_app(tmp_path, DATABASE_URL=app_database)
    yield app
    dispose(app)


def play_to_end(client, url: str, first: str | None = None) -> tuple[str, str]:
    """Play the deal at ``url`` to its end by the page's first legal button each time (``first``, a
    token, tried once at the start); the finished address and the address of the last move."""
    last = None
    if first is not None:
        last = url + "&do=" + first
        r = client.get(last)
        assert r.status_code == 303
        url = r.headers["Location"]
    for _ in range(150):
        html = client.get(url).get_data(as_text=True)
        if "story-h" in html:
            assert last is not None, "the deal was over before any move"
            return url, last
        coach, d = rebuilt(url, "hokm")
        legal = [t for t in buttons(html) if try_action(coach, d, t)[0] is not None]
        last = url + "&do=" + legal[0]
        r = client.get(last)
        assert r.status_code == 303
        url = r.headers["Location"]
    pytest.fail("the deal did not end")


def played_skills(app) -> dict[tuple[int, str], tuple[float, int, int]]:
    with app.app_context(), app.extensions["tutor_db"]() as db:
        rows = db.scalars(select(SkillMastery).where(SkillMastery.kind == skills.PLAY_KIND))
        return {(m.learner_id, m.rule): (m.p_known, m.attempts, m.right) for m in rows}


def learner_id(app, client) -> int:
    with client.session_transaction() as s:
        anon = s["learner"]
    with app.app_context(), app.extensions["tutor_db"]() as db:
        return db.scalar(select(Learner.id).where(Learner.anon_id == anon))


@pytest.mark.both_databases
def test_a_played_deal_counts_toward_mastery_once(db_app):
    """Two learners play the same Hokm deal to the same end, one after a refused card. Each card
    and decision moves the played skill of its rule (BKT, as skills.update_mastery), the refusal
    lowers the rule it broke; sending the last move again or opening the finished address counts
    nothing."""
    url = "/en/play/hokm?players=4&role=opponent&seed=11"
    coach, d = rebuilt(url, "hokm")
    bad = d.hand(d.you) & ~coach.legal_cards(d.state, d.you)
    token = "p" + str(CARDS[(bad & -bad).bit_length() - 1])
    careless, careful = db_app.test_client(), db_app.test_client()
    end_a, last_a = play_to_end(careless, url, first=token)
    assert "r=0%3A" + token in end_a
    end_b, last_b = play_to_end(careful, url)
    q = parse_qs(urlparse(end_b).query)
    actions = q["a"][0].split(".")
    assert parse_qs(urlparse(end_a).query)["a"][0] == q["a"][0]  # the same deal, the same cards
    a, b = learner_id(db_app, careless), learner_id(db_app, careful)
    got = played_skills(db_app)
    # the engine's observations, replayed through BKT by hand, are what was stored
    for who, refused in ((a, [(0, token)]), (b, [])):
        obs = played_deal_observations(RULESETS["hokm"], coach.options, 11, None, actions, refused, "opponent")
        assert len(obs) == len(actions) + len(refused)
        expect: dict[str, list] = {}
        for _g, rule, ok in obs:
            p, n, right = expect.get(rule, [skills.PRIOR, 0, 0])
            expect[rule] = [skills.bkt_update(p, ok), n + 1, right + ok]
        mine = {rule: v for (lid, rule), v in got.items() if lid == who}
        assert set(mine) == set(expect) and "H14" in mine
        for rule, (p, n, right) in expect.items():
            assert mine[rule] == (pytest.approx(p), n, right), rule
    # the refused card lowered the rule it broke: same deal, same cards, less mastery of H14
    assert got[(a, "H14")][0] < got[(b, "H14")][0]
    assert got[(a, "H14")][1] == got[(b, "H14")][1] + 1 and got[(a, "H14")][2] == got[(b, "H14")][2]
    assert all(got[(b, r)][0] > skills.PRIOR for (lid, r) in got if lid == b)  # right moves raise it
    # replaying the finished deal counts nothing: the last move sent again, the end reloaded
    assert careful.get(last_b).status_code == 303
    assert careful.get(end_b).status_code == 200
    assert careless.get(last_a).status_code == 303
    assert played_skills(db_app) == got
    with db_app.app_context(), db_app.extensions["tutor_db"]() as db:
        deals = db.scalars(select(PlayedDeal).order_by(PlayedDeal.learner_id)).all()
        assert [(x.learner_id, x.refused, x.cards) for x in deals] == [(a, 1, len(actions)), (b, 0, len(actions))]
    # the dashboard names the played skills in the learner's language
    page = careless.get("/fa/progress/").get_data(as_text=True)
    assert "دست‌های بازی‌شده" in page and "Played deals" not in page and " play<" not in page


@pytest.mark.both_databases
def test_a_deal_taken_up_from_a_shared_address_counts_only_the_moves_made(db_app):
    """One learner plays a deal to one move before its end and shares the address; another opens
    it and makes the last move: that finishes the deal for them, and it counts that one move, not
    the first learner's cards (a leftover of the last session's review)."""
    url = "/en/play/hokm?players=4&role=opponent&seed=11"
    first, taker = db_app.test_client(), db_app.test_client()
    _end, last = play_to_end(first, url)
    shared, final_move = last.split("&do=")
    assert taker.get(shared).status_code == 200
    r = taker.get(shared + "&do=" + final_move)
    assert r.status_code == 303
    mine = {rule: v for (lid, rule), v in played_skills(db_app).items() if lid == learner_id(db_app, taker)}
    assert sum(n for _p, n, _r in mine.values()) == 1  # one move observed: the last card
    with db_app.app_context(), db_app.extensions["tutor_db"]() as db:
        row = db.scalars(select(PlayedDeal).where(PlayedDeal.learner_id == learner_id(db_app, taker))).one()
        assert (row.cards, row.refused) == (1, 0)
