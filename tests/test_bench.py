"""``tutor bench``: the calls the app makes beside the bare ones, and the cost of a reason (issue 7)."""

from __future__ import annotations

import random
import re
import sys

import pytest
from test_reason_fast_path import old_follow

from tutor.bench import (
    REASON_CALLS_LIMIT,
    REASON_ROWS,
    call_costs,
    count_calls,
    reason_call_ratios,
    reason_verdict,
)
from tutor.cli import main


@pytest.mark.parametrize("ruleset", ["hokm", "all-fours", "trinidad"])
def test_a_reason_makes_at_most_eight_times_the_bare_calls(ruleset):
    """Legal plays and trick winner with their reason, as the app calls them, against the bare
    legal set / winner on the same 1000 inputs, counted in function calls (deterministic, so the
    machine's load cannot move it; the timed twin is ``tutor bench``'s reason-cost line)."""
    ratios = reason_call_ratios(ruleset)
    assert list(ratios) == [r for r in REASON_ROWS if ruleset == "hokm" or r != "card reason"]  # Hokm explains cards
    assert all(1.5 < r <= REASON_CALLS_LIMIT for r in ratios.values()), ratios


def test_the_reason_code_before_issue_7_is_over_the_call_limit():
    """The reason code as it was before issue 7 (``tests/test_reason_fast_path.old_follow``: sorted
    card lists, Enum letters, one dict per reason) on the same decision points as the test above:
    it makes more than :data:`REASON_CALLS_LIMIT` times the bare calls, so that test can fail."""
    from tutor.bench.calls import CALLS
    legal, _winner, decisions, _tricks = CALLS["hokm"](random.Random(1), 1000)
    bare = legal[0]
    points = [(hand, [int(c) for c in trick], int(trump)) for hand, trick, trump in decisions]

    def bare_pass():
        for hand, trick, trump in decisions:
            bare(hand, trick, trump)

    def old_pass():
        for (hand, trick, trump), (_, ints, t) in zip(decisions, points, strict=True):
            bare(hand, trick, trump)
            old_follow(None, hand, ints, t)

    ratio = count_calls(old_pass) / count_calls(bare_pass)
    assert ratio > REASON_CALLS_LIMIT, ratio


def test_count_calls_counts_python_and_c_calls():
    def two_calls():
        len([])
        abs(-1)

    def nested():
        two_calls()

    assert count_calls(two_calls) == 2
    assert count_calls(nested) == 3
    assert count_calls(lambda: None) == 0


def test_call_costs_rows_per_ruleset():
    costs = call_costs("trinidad", repeats=2, items=100)
    assert list(costs) == ["legal plays + reason", "trick winner + reason", "solve first-lead", "solve hand-score",
                           "solve legal-plays", "solve make-trump", "solve next-lead", "solve trick-winner",
                           "solve turn-up"]
    for label, c in costs.items():
        assert c["bare ns"] > 0 and c["ns"] > 0, label
        assert c["ratio"] > 0, label  # timings: how they compare on a busy machine is the benchmark's to say


def test_reason_verdict():
    ok, over = reason_verdict({"hokm": {"calls": {REASON_ROWS[0]: {"ratio": 3.0}, "solve legal-plays": {"ratio": 50.0}}},
                               "trinidad": {"trick winners/s": 1e6}})
    assert ok and over == []
    ok, over = reason_verdict({"hokm": {"calls": {REASON_ROWS[1]: {"ratio": 17.2}}}})
    assert not ok and over == ["hokm trick winner + reason: 17.2x the bare call"]


def test_bench_prints_the_calls_beside_the_bare_ones(capsys):
    status = main(["bench", "hokm", "--seconds", "0.01", "--scenarios", "0", "--repeats", "3", "--items", "300"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("hokm ") and " ratio " in line]
    assert [" ".join(r[1:r.index("bare")]) for r in rows] == [
        "legal plays + reason", "trick winner + reason", "card reason", "solve first-lead", "solve legal-plays",
        "solve next-lead", "solve round-playout", "solve round-score", "solve trick-winner"]
    assert all(float(r[-1]) > 0 for r in rows)  # timings (not asserted against each other: see above)
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("reason cost")
    assert status == (0 if "at most 10x" in verdict else 1)


def test_bench_pages_prints_a_ratio_per_page(capsys):
    """``tutor bench --pages`` times the references (a bare Flask route, a Flask app with a session and
    CSRF), /healthz and the learner's mix in process and prints one row each: the references' cost, and
    per page its ratios to each reference and to /healthz (the figures depend on the machine: only
    their presence is asserted)."""
    from tutor.bench.pages import PAGES, REFERENCES, TARGETS

    status = main(["bench", "--pages", "--repeats", "1", "--requests", "3"])
    out = capsys.readouterr().out
    assert status == 0
    refs = [line for line in out.splitlines() if line.startswith("reference ")]
    assert [line[10:41].strip() for line in refs] == list(REFERENCES) == ["bare Flask route", "Flask + session + CSRF"]
    assert all(re.search(r" [\d,]+ us$", line) for line in refs), refs
    rows = {line[5:39].strip(): line for line in out.splitlines() if line.startswith("page ")}
    assert list(rows) == list(PAGES)
    for name, line in rows.items():
        found = re.search(r"x bare +([\d.]+) +x session\+csrf +([\d.]+) +ratio +([\d.]+)", line)
        assert found and all(float(x) > 0 for x in found.groups()), line
        assert ("target <=" in line) == (name in TARGETS), line
    assert "target <= 2x bare Flask route" in rows["/healthz"] and "target <= 3x bare Flask route" in rows["step page"]
    assert "target <= 1.5x floor: answer" in rows["answer (fetch)"]
    assert "10,000 attempts" in out and "review cards" in out
    beside = re.search(r"^beside its floor: answer \(fetch\) ([\d.]+)x floor: answer, step page ([\d.]+)x floor: page$",
                       out, re.MULTILINE)
    assert beside and float(beside[1]) > 0 and float(beside[2]) > 0, out


def test_the_references_are_what_they_say():
    """The bare reference has one route and no hook; the session reference checks CSRF on a post and
    gives a token that passes it."""
    from tutor.bench.pages import BARE, SESSION_CSRF, reference_apps

    refs = reference_apps("r" * 40)
    bare, path = refs[BARE]
    assert [r.rule for r in bare.url_map.iter_rules() if r.endpoint != "static"] == [path] == ["/healthz"]
    assert not any(bare.before_request_funcs.values()) and not any(bare.after_request_funcs.values())
    assert bare.test_client().get(path).get_json() == {"status": "ok"}
    app, path = refs[SESSION_CSRF]
    app.add_url_rule("/post", "post", lambda: "ok", methods=["POST"])
    c = app.test_client()
    page = c.get(path)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert page.status_code == 200 and token and c.get_cookie("session") is not None
    assert c.post("/post", data={}).status_code == 400  # CSRF checked
    assert c.post("/post", data={"csrf_token": token[1]}).status_code == 200


def test_the_floor_routes_are_only_in_the_benchmarks_app(tmp_path):
    """The floor routes answer in the app the benchmarks make (:func:`tutor.bench.pages.add_floor_routes`)
    — each post checked for CSRF and counted against the answer's limit, the answer committing one
    attempt — and nowhere else."""
    from sqlalchemy import create_engine, func, select

    from tutor.bench.pages import FLOOR_ANSWER, FLOOR_PAGE, FLOOR_POST, add_floor_routes
    from tutor.domain.models import Attempt
    from tutor.migrations import upgrade
    from tutor.web import create_app

    url = f"sqlite:///{tmp_path / 'f.sqlite3'}"
    upgrade(url)
    config = {"TUTOR_ENV": "development", "SECRET_KEY": "t" * 40, "DATABASE_URL": url,
              "INSTANCE_PATH": str(tmp_path / "instance"), "SESSION_COOKIE_SECURE": False,
              "RATE_LIMITS": {"answer": "2/minute"}}
    plain = create_app(dict(config)).test_client()
    assert plain.get(FLOOR_PAGE).status_code == 404
    app = create_app(dict(config))
    add_floor_routes(app)
    c = app.test_client()
    page = c.get(FLOOR_PAGE)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert page.status_code == 200 and token
    assert c.post(FLOOR_ANSWER, data={}).status_code == 400  # no CSRF token
    assert c.post(FLOOR_POST, data={}).status_code == 400
    assert c.post(FLOOR_POST, data={"csrf_token": token[1]}).status_code == 200  # counted: one answer left
    assert [c.post(FLOOR_ANSWER, data={"csrf_token": token[1]}).status_code for _ in range(2)] == [200, 429]
    with create_engine(url).connect() as conn:
        assert conn.scalar(select(func.count()).select_from(Attempt).where(Attempt.exercise_ref == "floor")) == 1


def test_load_without_locust_names_the_bench_extra(monkeypatch, capsys):
    """A production install has no locust (the `bench` extra): `tutor bench --load` says how to get
    it and exits 2 before starting any server."""
    monkeypatch.setitem(sys.modules, "locust", None)  # what importlib finds for a missing module
    assert main(["bench", "--load", "--seconds", "0.1"]) == 2
    assert capsys.readouterr().err == "tutor bench --load needs locust: pip install 'tutor[bench]'\n"


def test_the_mixed_file_has_every_ask_of_every_ruleset_and_its_engine_call():
    """The mixed file (issue 21) holds every ask of every ruleset, and the minimal loop has the engine
    call of each: the verdict the handler gives, from the same engine functions."""
    from tutor.bench.mixed import ENGINE_CALLS, engine_call, mixed_scenarios
    from tutor.engine.rulesets import RULESETS
    from tutor.solve import solve
    from tutor.solve.common import asks_of, parse_scenario

    scenarios = mixed_scenarios(2000)
    assert len(scenarios) == 2000
    assert {(s["ruleset"], s["ask"]) for s in scenarios} == {(r, a) for r in RULESETS for a in asks_of(r)}
    assert set(ENGINE_CALLS) == {a for r in RULESETS for a in asks_of(r)}
    for s in scenarios[:300]:
        parsed, _ = parse_scenario(s)
        got = engine_call(parsed)()
        why = solve(s)["why"]
        # the loop's reasons are the answer's (hand-score and round-playout: the tricks' ones first, the
        # answer numbering them)
        params = got if isinstance(got, list) else [got]
        assert [dict(p) for p in params] == [{k: v for k, v in w["params"].items() if k != "trick" or
                                              s["ask"] not in ("hand-score", "round-playout")}
                                             for w in why][:len(params)], s
        assert len(params) >= (len(why) - (s.get("scores") is not None)), s


def test_bench_prints_tutor_solve_beside_the_minimal_loop_per_ask(capsys):
    """``tutor bench --mixed N`` prints the mixed file's row and one row per ruleset and ask, each with
    the minimal loop's time, solve's and their ratio (timings: present, not compared)."""
    from tutor.bench.mixed import mixed_scenarios

    status = main(["bench", "--seconds", "0.01", "--scenarios", "0", "--repeats", "0", "--mixed", "600",
                   "--worksheets", "0"])
    out = capsys.readouterr().out
    assert status == 0
    assert "tutor solve on a mixed file of 600 scenarios" in out
    rows = re.findall(r"^solve (.+?) +([\d,]+) +loop +([\d.]+) us +solve +([\d.]+) us +ratio +([\d.]+)", out, re.MULTILINE)
    names = [r[0] for r in rows]
    kinds = sorted({f"{s['ruleset']} {s['ask']}" for s in mixed_scenarios(600)})
    assert names == ["mixed file", *kinds]
    assert int(rows[0][1].replace(",", "")) == 600 == sum(int(r[1].replace(",", "")) for r in rows[1:])
    assert all(float(r[2]) > 0 and float(r[3]) > 0 and float(r[4]) > 0 for r in rows)
    assert "target <= 2x" in out.splitlines()[out.splitlines().index(next(x for x in out.splitlines() if x.startswith("solve mixed file")))]


def test_bench_prints_the_worksheet_rows(capsys):
    """``tutor bench`` ends with the worksheet PDFs: per language the 20-question key's CPU and pages
    (each game's), and the 81-question Trinidad key in Telugu (timings present, not compared)."""
    status = main(["bench", "--seconds", "0.01", "--scenarios", "0", "--repeats", "0", "--mixed", "0",
                   "--worksheets", "1"])
    out = capsys.readouterr().out
    assert status == 0
    rows = re.findall(r"^worksheet  20q key (\w\w) +cpu +([\d.]+) s \((\S+)\) +pages at most +(\d+) +\[(.+)\]$", out, re.M)
    assert [r[0] for r in rows] == ["en", "fa", "bg", "te"]
    for _lang, cpu, game, pages, each in rows:
        assert float(cpu) > 0 and 1 <= int(pages) <= 8 and game in ("hokm", "all-fours", "trinidad")
        assert re.fullmatch(r"hokm [\d.]+ s/\d+ p, all-fours [\d.]+ s/\d+ p, trinidad [\d.]+ s/\d+ p", each)
    long = re.search(r"^worksheet  (\d+)q Trinidad key te +cpu +([\d.]+) s +wall +([\d.]+) s +pages (\d+)", out, re.M)
    from tutor.content.quizzes import load_quiz

    whole = len(load_quiz("trinidad").questions)  # the whole quiz file: 81 questions when the issue was filed
    assert long and int(long.group(1)) == whole >= 81 and float(long.group(2)) > 0 and 20 <= int(long.group(4)) <= 40


def test_tutor_solve_makes_at_most_seven_and_a_half_times_the_minimal_loops_calls():
    """The deterministic twin of the mixed file's row: function calls (Python and C) of ``tutor solve``
    on 2000 mixed scenarios over those of the minimal loop on the same scenarios parsed. Before issue
    21 the ratio was 9.7 (132 calls a scenario); now 6.8 (92)."""
    from tutor.bench.mixed import _pair, mixed_scenarios

    loop, solve = _pair(mixed_scenarios(2000))
    solve()
    ratio = count_calls(solve) / count_calls(loop)
    assert 1.0 < ratio <= 7.5, ratio
