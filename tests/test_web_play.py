"""The play pages through the Flask test client: every table played to the end by following the
page's own buttons (no JavaScript), the score explanation equal to the engine's, a refusal kept
in the address with its reason, and bad addresses answered with 400 and a message."""

from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest
from web_support import make_app

from tutor import i18n
from tutor.engine.play import replay
from tutor.engine.rulesets import RULESETS

TABLES = [(name, p, role) for name, info in RULESETS.items() for p in info.players
          for role, _label in info.coach({"players": p} if name != "hokm" else {}).ROLES]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("play"))
    return app.test_client()


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
    assert text in refusal and "Two of spades is refused." in refusal
    # the language menu keeps the deal
    assert re.search(r'href="/fa/play/hokm\?players=4&amp;role=opponent&amp;seed=11&amp;r=0(:|%3A)' + token + '"', html)


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
