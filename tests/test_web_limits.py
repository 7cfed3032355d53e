"""Rate limits (tutor.web.limits): answers, quizzes, the API, and the hook for log-in and code
redemption; 429 with Retry-After as JSON or as a page in the learner's language; counters in
memory and in a real Redis shared by several app processes."""

from __future__ import annotations

import re
import secrets

import pytest
from flask import Blueprint
from web_support import HIGH_LIMITS, counted, csrf_of, expected, form_for, lesson_exercise, make_app, rows

from tutor.domain.models import Attempt, Quiz
from tutor.web import ConfigError, csrf, limits
from tutor.web import exercises as X

SCENARIO = {"ruleset": "hokm", "ask": "legal-plays", "trump": "H", "hand": ["3C", "AH", "KC"], "trick": ["10C"]}


@pytest.fixture(params=["memory", "redis"])
def storage(request):
    """Rate-limit settings for make_app: memory, or a real Redis under a prefix of the test's own."""
    if request.param == "memory":
        yield {}
        return
    import redis

    url = request.getfixturevalue("redis_url")
    prefix = "tutor-test-" + secrets.token_hex(6)
    yield {"RATELIMIT_STORAGE_URI": url, "RATELIMIT_KEY_PREFIX": prefix}
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"*{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


def app_with(tmp_path, storage, name="app", **chosen):
    return make_app(tmp_path / name, RATE_LIMITS=HIGH_LIMITS | chosen, **storage)


def answer_page(client, lang="en"):
    step, ex = lesson_exercise("hokm", "trick-winner")
    page = client.get(f"/{lang}/learn/hokm/{step.id}").get_data(as_text=True)
    return f"/{lang}/learn/hokm/{step.id}/{ex.id}", form_for(ex, expected(ex)) | {"csrf_token": csrf_of(page)}


def retry_after(r) -> int:
    value = int(r.headers["Retry-After"])
    assert 0 <= value <= 86_400  # the tests limit per day: no window boundary falls inside a test
    return value


def test_answers_over_the_limit_get_a_localised_429_page_and_are_not_written(tmp_path, storage):
    app = app_with(tmp_path, storage, answer=counted("3/day"))
    client = app.test_client()
    url, data = answer_page(client, "fa")
    assert [client.post(url, data=data).status_code for _ in range(3)] == [302] * 3
    r = client.post(url, data=data)
    assert r.status_code == 429
    retry_after(r)
    html = r.get_data(as_text=True)
    assert "در زمانی کوتاه درخواست‌های زیادی رسید" in html and '<html lang="fa" dir="rtl">' in html
    assert rows(app, Attempt) == 3
    # another learner (another browser) has a budget of its own
    other = app.test_client()
    url2, data2 = answer_page(other, "bg")
    assert other.post(url2, data=data2).status_code == 302
    r = client.post(url, data=data)
    assert r.status_code == 429


def test_quiz_creation_is_limited_per_learner(tmp_path, storage):
    app = app_with(tmp_path, storage, quiz=counted("2/day"))
    client = app.test_client()
    page = client.get("/en/practice/").get_data(as_text=True)
    form = {"csrf_token": csrf_of(page), "game": "hokm", "count": "5", "difficulty": "1", "seed": "7"}
    statuses = [client.post("/en/practice/", data=form).status_code for _ in range(4)]
    assert statuses == [302, 302, 429, 429]
    assert rows(app, Quiz) == 2


def _api_answer():
    _step, ex = lesson_exercise("hokm", "trick-winner")
    return f"/api/v1/exercises/{X.ref_of(ex)}/answer", {"answer": expected(ex)}


@pytest.mark.parametrize("action", ["solve", "api-answer"])
def test_api_over_the_limit_gets_a_json_429(tmp_path, storage, action):
    path, body = ("/api/v1/solve", SCENARIO) if action == "solve" else _api_answer()
    client = app_with(tmp_path, storage, **{action: counted("2/day")}).test_client()
    assert [client.post(path, json=body).status_code for _ in range(2)] == [200, 200]
    r = client.post(path, json=body)
    assert r.status_code == 429
    assert r.get_json() == {"error": {"code": "too-many-requests",
                                      "message": "Too many requests in a short time. Wait a little, then try again."}}
    retry_after(r)
    assert r.headers["X-RateLimit-Limit"] == "2"


def test_the_defaults_stop_a_flood_of_solve_requests(tmp_path):
    """The default solve limit (10 a second, per address) without any configuration."""
    client = make_app(tmp_path, RATE_LIMITS={}).test_client()
    assert client.get("/healthz").status_code == 200  # warm: an app's first request is its slowest
    counted(limits.ACTIONS["solve"].default)  # the twelve within one second of the limiter's clock
    statuses = [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(12)]
    assert statuses[:10] == [200] * 10 and statuses[10:] == [429, 429]


def test_two_app_processes_share_one_budget_in_redis(tmp_path, redis_url):
    """Two workers (two apps) with one Redis: the third request is refused by the other worker."""
    prefix = "tutor-test-" + secrets.token_hex(6)
    storage = {"RATELIMIT_STORAGE_URI": redis_url, "RATELIMIT_KEY_PREFIX": prefix}
    a = app_with(tmp_path, storage, "a", solve=counted("2/day")).test_client()
    b = app_with(tmp_path, storage, "b", solve=counted("2/day")).test_client()
    assert a.post("/api/v1/solve", json=SCENARIO).status_code == 200
    assert b.post("/api/v1/solve", json=SCENARIO).status_code == 200
    assert a.post("/api/v1/solve", json=SCENARIO).status_code == 429
    assert b.post("/api/v1/solve", json=SCENARIO).status_code == 429
    assert a.get("/readyz").get_json()["limits"] == "redis"
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"*{prefix}*"))
    assert keys  # the counters are in Redis
    client.delete(*keys)
    client.close()


def test_login_and_code_redemption_limits_attach_with_one_decorator(tmp_path, storage):
    app = app_with(tmp_path, storage, login=counted("2/day"), redeem=counted("1/day"))
    bp = Blueprint("account", __name__, url_prefix="/api/v1/account")

    @bp.post("/login")
    @limits.limited("login")
    def login():
        return {"ok": True}

    @bp.post("/redeem")
    @limits.limited("redeem")
    def redeem():
        return {"ok": True}

    app.register_blueprint(bp)
    csrf.exempt(bp)  # JSON endpoints, like the API
    limits.apply(app)
    limits.apply(app)  # idempotent: a view gets its limit once
    client = app.test_client()
    assert [client.post("/api/v1/account/login").status_code for _ in range(3)] == [200, 200, 429]
    assert [client.post("/api/v1/account/redeem").status_code for _ in range(2)] == [200, 429]


def test_limits_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_LIMIT_SOLVE", counted("1/day"))
    monkeypatch.setenv("TUTOR_LIMIT_API_ANSWER", "off")
    app = make_app(tmp_path, RATE_LIMITS={})
    assert limits.limit_of(app, "solve") == "1/day"
    assert limits.limit_of(app, "quiz") == limits.ACTIONS["quiz"].default == "10/minute;100/hour"
    client = app.test_client()
    assert [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(2)] == [200, 429]
    path, body = _api_answer()
    assert {client.post(path, json=body).status_code for _ in range(15)} == {200}  # off


def test_a_bad_limit_is_refused_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_LIMIT_QUIZ", "lots")
    with pytest.raises(ConfigError, match="TUTOR_LIMIT_QUIZ: 'lots' is not a rate limit"):
        make_app(tmp_path, RATE_LIMITS={})


def test_redis_url_from_the_environment_and_fallback_to_memory_when_it_is_down(tmp_path, monkeypatch):
    """TUTOR_REDIS_URL picks Redis; one that does not answer leaves the app serving, counting in memory."""
    monkeypatch.setenv("TUTOR_REDIS_URL", "redis://127.0.0.1:1/0")
    app = make_app(tmp_path, RATE_LIMITS={"solve": counted("2/day")})
    assert app.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:1/0"
    client = app.test_client()
    statuses = [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert client.get("/readyz").get_json() == {"status": "ready", "database": "ok",
                                                "limits": "memory (redis unreachable)"}


def test_the_readme_gives_every_limit_with_its_default():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for name, action in limits.ACTIONS.items():
        row = next(line for line in readme.splitlines() if line.startswith("|") and f"`{limits.env_name(name)}`" in line)
        assert f"`{action.default}`" in row, name


def test_behind_a_proxy_the_forwarded_address_has_the_budget(tmp_path, monkeypatch):
    """TUTOR_PROXIES=1: X-Forwarded-For names the client (its own budget, its log line) and
    X-Forwarded-Proto https gets HSTS; without it the headers are not believed."""
    def solve(client, addr, proto="http"):
        return client.post("/api/v1/solve", json=SCENARIO,
                           headers={"X-Forwarded-For": addr, "X-Forwarded-Proto": proto},
                           base_url="http://localhost")

    monkeypatch.setenv("TUTOR_PROXIES", "1")
    client = make_app(tmp_path / "proxied", RATE_LIMITS={"solve": counted("1/day")}).test_client()
    assert solve(client, "203.0.113.7").status_code == 200
    assert solve(client, "203.0.113.7").status_code == 429
    r = solve(client, "198.51.100.2", "https")
    assert r.status_code == 200 and r.headers["Strict-Transport-Security"] == "max-age=31536000"
    monkeypatch.delenv("TUTOR_PROXIES")
    client = make_app(tmp_path / "direct", RATE_LIMITS={"solve": counted("1/day")}).test_client()
    r = solve(client, "203.0.113.7", "https")
    assert r.status_code == 200 and "Strict-Transport-Security" not in r.headers
    assert solve(client, "198.51.100.2").status_code == 429  # both are 127.0.0.1 to the app
    monkeypatch.setenv("TUTOR_PROXIES", "two")
    with pytest.raises(ConfigError, match="TUTOR_PROXIES must be a whole number from 0 to 10"):
        make_app(tmp_path / "bad")


def test_generated_exercises_have_their_own_budget_and_lesson_ones_none(tmp_path, storage):
    """GET /api/v1/exercises/gen:... makes an exercise with the engine (up to a third of a second
    each for a new seed): 2 a day lets two through per address, then a JSON 429 with
    Retry-After; lesson exercises (kept in memory) do not count, and the answer to a generated
    exercise draws on the same budget."""
    client = app_with(tmp_path, storage, **{"api-generate": counted("2/day")}).test_client()
    lesson_ref = X.ref_of(lesson_exercise("hokm", "trick-winner")[1])
    assert [client.get(f"/api/v1/exercises/{lesson_ref}").status_code for _ in range(4)] == [200] * 4
    gens = [f"/api/v1/exercises/gen:hokm:trick-winner:1:{seed}" for seed in (11, 12, 13)]
    assert [client.get(path).status_code for path in gens[:2]] == [200, 200]
    r = client.get(gens[2])
    assert r.status_code == 429
    assert r.get_json()["error"]["code"] == "too-many-requests"
    retry_after(r)
    assert client.post(gens[0] + "/answer", json={"answer": 1}).status_code == 429
    assert client.get(f"/api/v1/exercises/{lesson_ref}").status_code == 200  # still not counted


def test_a_generated_exercise_is_made_once_and_kept(tmp_path):
    """The second request for the same generated exercise is served from the bounded cache."""
    client = make_app(tmp_path).test_client()
    X._generate.cache_clear()
    path = "/api/v1/exercises/gen:hokm:legal-cards:2:424242"
    first = client.get(path)
    assert first.status_code == 200
    assert X._generate.cache_info().misses == 1 and X._generate.cache_info().hits == 0
    assert client.get(path).get_json() == first.get_json()
    info = X._generate.cache_info()
    assert info.misses == 1 and info.hits == 1 and info.maxsize == 2048


def test_the_limiters_clock_is_the_tests_and_moves_only_when_told(tmp_path, limiter_clock):
    """The tests' own guard (conftest's ``limiter_clock``): a count stands however long the machine
    takes; the window's budget comes back when the clock passes the window's edge, and not before."""
    import time

    client = make_app(tmp_path, RATE_LIMITS={"solve": counted("2/minute")}).test_client()
    assert limiter_clock.time() % 86_400 == 0  # the start of a day, so of every window
    assert [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(3)] == [200, 200, 429]
    time.sleep(0.05)  # real time passing moves nothing
    limiter_clock.advance(59)
    r = client.post("/api/v1/solve", json=SCENARIO)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    # one minute on: the sliding window still weighs the last one's 2 hits fully at its edge ...
    limiter_clock.advance(1)
    assert client.post("/api/v1/solve", json=SCENARIO).status_code == 429
    # ... and half of them half a minute later: one request goes through
    limiter_clock.advance(30)
    assert [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(2)] == [200, 429]
    limiter_clock.advance(120)
    assert [client.post("/api/v1/solve", json=SCENARIO).status_code for _ in range(3)] == [200, 200, 429]


def test_counted_refuses_the_real_clock(monkeypatch):
    import limits.strategies

    monkeypatch.setattr(limits.strategies, "time", __import__("time"))
    with pytest.raises(AssertionError, match=re.escape("limits.strategies reads the real clock")):
        counted("3/day")
