"""Play a whole deal with a coach: the learner takes one seat against the engine's bots.

The page is a pure function of its URL — ``/<lang>/play/<ruleset>?players=&role=&seed=&a=&r=`` —
so a deal is replayed and shared by its address: ``seed`` deals the cards (and seeds the bots),
``a`` lists the learner's accepted actions (tokens joined by ``.``) and ``r`` the refused ones
(``n:token``, n = actions accepted before it). The deal is not stored on the server and every form is
a GET (no state changes, so no CSRF token is needed): choosing a card or a decision sends
``do=<token>``; the engine judges it (:func:`tutor.engine.play.try_action`) and the page
redirects to the new address, the refusal and its reason kept in ``r``. The one write: the move
that ends the deal counts it toward the learner's mastery, once (:func:`_count`). ``static/play.js`` does
the same without a page load (fetch, then the new page's ``#play`` swapped in).
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from tutor import i18n
from tutor.domain.table import SeatView, TableView, _positions, card_view
from tutor.engine.cards import CARD_NAMES, CARDS, Suit
from tutor.engine.errors import BadFieldError, IllegalPlayError
from tutor.engine.play import Coach, Deal, played_deal_observations, replay, try_action
from tutor.engine.rulesets import RULESETS, RulesetInfo

from ..record import record_played_deal
from ..security import BadInput
from .common import RULESET_NAMES, ruleset_name

bp = Blueprint("play", __name__, url_prefix="/<lang>/play")

_MAX_SEED = 10**9


def _info(ruleset: str) -> RulesetInfo:
    info = RULESETS.get(ruleset)
    if info is None:
        abort(404)
    return info


def _options(info: RulesetInfo, players: int) -> dict:
    return {"players": players} if "players" in info.options_model.__pydantic_fields__ else {}


def _players(info: RulesetInfo, text: str | None) -> int:
    if not text:
        return info.default_players
    text = i18n.ascii_digits(text)
    if not text.isascii() or not text.isdigit() or int(text) not in info.players:
        allowed = i18n.join_list([i18n.fmt_number(p) for p in info.players], "or")
        raise BadInput(_("Players must be %(allowed)s.", allowed=allowed))
    return int(text)


def _seed(text: str) -> int:
    text = i18n.ascii_digits(text.strip())
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise BadInput(_("The seed must be a whole number (up to nine digits)."))
    return int(text)


def _refused(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for item in filter(None, text.split(",")):
        n, _sep, token = item.partition(":")
        if not n.isascii() or not n.isdigit() or not token or len(token) > 8 or len(out) > 200:
            raise BadInput(_("This deal cannot be rebuilt from its address."))
        out.append((int(n), token))
    return out


def deal_url(ruleset: str, players: int, role: str, seed: int, actions: list[str],
             refused: list[tuple[int, str]], **extra: Any) -> str:
    """The address of a deal (see the module docstring)."""
    args: dict[str, Any] = {"players": players, "role": role, "seed": seed}
    if actions:
        args["a"] = ".".join(actions)
    if refused:
        args["r"] = ",".join(f"{n}:{t}" for n, t in refused)
    args.update(extra)
    return url_for("play.deal", ruleset=ruleset) + "?" + urlencode(args)


@bp.get("/")
def setup() -> ResponseReturnValue:
    games = []
    for r in RULESET_NAMES:
        info = RULESETS[r]
        coach = info.coach()
        games.append({"id": r, "name": ruleset_name(r), "players": info.players,
                      "roles": [(role, _(label)) for role, label in coach.ROLES]})
    return render_template("play_setup.html", games=games)


@bp.get("/<ruleset>")
def deal(ruleset: str) -> ResponseReturnValue:
    info = _info(ruleset)
    args = request.args
    try:
        players = _players(info, args.get("players"))
        coach = info.coach(_options(info, players))
        roles = [r for r, _label in coach.ROLES]
        role = args.get("role") or roles[0]
        if role not in roles:
            raise BadInput(_("Choose a seat at the table."))
        if not args.get("seed"):
            return redirect(deal_url(ruleset, players, role, secrets.randbelow(10**6), [], []))
        seed = _seed(args["seed"])
        actions = [t for t in args.get("a", "").split(".") if t]
        refused = _refused(args.get("r", ""))
        if args["seed"] != str(seed) and not args.get("do"):  # e.g. Persian digits: the address in ASCII
            return redirect(deal_url(ruleset, players, role, seed, actions, refused))
        try:
            d = replay(coach, seed, None, actions, role)
        except (BadFieldError, IllegalPlayError):
            raise BadInput(_("This deal cannot be rebuilt from its address.")) from None
        todo = args.get("do")
        if todo:
            _took_up(ruleset, players, role, seed, len(actions))
            try:
                new, _why = try_action(coach, d, todo)
            except BadFieldError:
                raise BadInput(_("That is not a move of this deal.")) from None
            if new is not None:
                if new.over:  # the learner's action ended the deal: it counts toward mastery, once
                    _count(info, coach, players, role, seed, new, refused)
                return redirect(deal_url(ruleset, players, role, seed, new.learner_actions, refused), 303)
            return redirect(deal_url(ruleset, players, role, seed, actions, [*refused, (len(actions), todo)]), 303)
        step = args.get("replay")
        replay_n = None
        if step is not None:
            if not step.isascii() or not step.isdigit() or not 1 <= int(step) <= max(1, len(d.tricks)):
                raise BadInput(_("There is no such trick in this deal."))
            replay_n = int(step)
    except BadInput as e:
        return render_template("error.html", status=400, message=e.message), 400
    ctx = _context(info, coach, d, players, role, seed, actions, refused, replay_n)
    return render_template("play.html", **ctx)


#: The session's note of the deal this learner is playing: ``{"deal": "ruleset|players|role|seed",
#: "n": the fewest accepted actions at which they sent a move}``, so that a deal taken up part-way
#: from a shared address counts only the moves they made (one note: the deal in hand).
_TAKEN_UP = "play_from"


def _deal_key(ruleset: str, players: int, role: str, seed: int) -> str:
    return f"{ruleset}|{players}|{role}|{seed}"


def _took_up(ruleset: str, players: int, role: str, seed: int, n: int) -> None:
    """Note that this learner sent a move of the deal when ``n`` actions had been accepted."""
    key = _deal_key(ruleset, players, role, seed)
    note = session.get(_TAKEN_UP)
    if not isinstance(note, dict) or note.get("deal") != key or not isinstance(note.get("n"), int) or note["n"] > n:
        session[_TAKEN_UP] = {"deal": key, "n": n}


def _taken_up_at(ruleset: str, players: int, role: str, seed: int) -> int:
    """The fewest accepted actions at which this learner sent a move of the deal (0: from the start)."""
    note = session.get(_TAKEN_UP)
    if isinstance(note, dict) and note.get("deal") == _deal_key(ruleset, players, role, seed):
        n = note.get("n")
        return n if isinstance(n, int) and n >= 0 else 0
    return 0


def _count(info: RulesetInfo, coach: Coach, players: int, role: str, seed: int, d: Deal,
           refused: list[tuple[int, str]]) -> bool:
    """Count the deal the learner has just finished toward their mastery of the rules it exercised
    (skills of kind :data:`tutor.domain.mastery.PLAY_KIND`): each card or decision accepted is a right
    answer on its rule, each refusal in the address a wrong one on the rule it broke. Once per
    learner and deal (:func:`tutor.domain.record.record_played_deal`): sending the last move again,
    or replaying the finished address, counts nothing. Only the move that ends the deal counts it,
    so opening someone's finished deal by its address counts nothing either; and a deal taken up
    part-way from someone's address counts only the moves made here (:func:`_took_up`)."""
    since = _taken_up_at(info.name, players, role, seed)
    observations = played_deal_observations(info, coach.options, seed, d.you, d.learner_actions, refused,
                                            since=since)
    return record_played_deal(info.name, players, role, seed, d.learner_actions, observations)


def _who(seat: int, d: Deal, ruleset: str) -> str:
    return i18n.seat_label(seat, d.you, d.coach.players, ruleset)


def _reason(reason: Any, d: Deal, ruleset: str) -> str:
    return i18n.render_reason(reason, you=d.you, players=d.coach.players, ruleset=ruleset)


def _table(info: RulesetInfo, coach: Coach, d: Deal, trick: list[tuple[int, int]], final: tuple | None) -> TableView:
    ruleset, players, you = info.name, coach.players, d.you
    state = d.last if d.over else d.state
    places = _positions(players, info.anticlockwise)
    dealer, hakem = coach.dealer(state), coach.hakem(state)
    seats = [SeatView(seat=n.seat, pos=places[(n.seat - you) % players], label=n.who, number=n.number,
                      you=n.seat == you, dealer=n.seat == dealer, hakem=n.seat == hakem)
             for n in i18n.seat_names(you, players, ruleset)]
    view = TableView(ruleset=ruleset, players=players, you=you, anticlockwise=info.anticlockwise, seats=seats)
    trump = coach.trump(state)
    if trump is not None:
        s = Suit(trump)
        view.trump = {"letter": s.letter, "symbol": s.symbol, "name": i18n.suit_name(s, plural=True), "red": s.is_red}
    for i, (seat, card) in enumerate(trick):
        cv = card_view(CARD_NAMES[card])
        view.trick.append((seat, cv))
        seats[seat].played = cv
        seats[seat].order = i + 1
    turned = coach.turn_ups(state)
    if trick or coach.phase(state) == "play":  # the felt's centre holds the trick: the turn-up goes beside it
        if turned:
            view.facts.append((_("Turned up"), " ".join(i18n.card_short(CARD_NAMES[c]) for c in turned)))
    else:
        view.center = [card_view(CARD_NAMES[c]) for c in turned]
    scores = final if final is not None else coach.scores(state)
    for side, value in enumerate(scores):
        view.scores.append((i18n.side_label(side, you, players, ruleset), i18n.fmt_number(value)))
    view.facts.append((_("Game to"), i18n.fmt_number(coach.options.target)))
    return view


def _context(info: RulesetInfo, coach: Coach, d: Deal, players: int, role: str, seed: int,
             actions: list[str], refused: list[tuple[int, str]], replay_n: int | None) -> dict:
    ruleset = info.name
    players_n = coach.players
    here = deal_url(ruleset, players, role, seed, actions, refused)
    # the trick on the table: the one being played, else the last one finished
    shown = None
    if replay_n is not None:
        shown = d.tricks[replay_n - 1]
        trick = [(shown.seat_of(i, players_n), c) for i, c in enumerate(shown.cards)]
    elif d.trick:
        trick = [((d.trick_leader + i) % players_n, c) for i, c in enumerate(d.trick)]
    elif d.tricks:
        shown = d.tricks[-1]
        trick = [(shown.seat_of(i, players_n), c) for i, c in enumerate(shown.cards)]
    else:
        trick = []
    final = coach.final_scores(d) if d.over else None
    table = _table(info, coach, d, trick, final)
    mode = "" if d.over else coach.card_mode(d.state)
    hand_mask = d.hand(d.you)
    legal = coach.legal_cards(d.state, d.you) if mode else 0
    hand = [{"view": card_view(CARD_NAMES[c]), "token": "p" + CARD_NAMES[c], "legal": bool(legal >> c & 1)}
            for c in _sorted_hand(hand_mask, coach.trump(d.state if not d.over else d.last))]
    choices = [] if d.over else [(t, _reason(r, d, ruleset)) for t, r in coach.choices(d.state, d.you)]
    refusal = None
    if refused and refused[-1][0] == len(actions) and not d.over:
        token = refused[-1][1]
        try:
            action = coach.parse(token, d.state, d.you)
            coach.engine.apply(d.state, action)
        except IllegalPlayError as e:
            card = coach.action_card(action)
            head = _("%(card)s is refused.", card=i18n.card_label(CARDS[card], prose=True) if card is not None else token)
            refusal = {"head": head[:1].upper() + head[1:],
                       "why": _reason(e.reason, d, ruleset) if e.reason is not None else e.message}
        except BadFieldError:
            refusal = None
    # what happened since the learner's last action (or since the deal began)
    last_own = max((i for i, (_s, _t, bot) in enumerate(d.steps) if not bot), default=-1)
    news = [_reason(r, d, ruleset) for r in d.told[last_own + 1:]] if not d.over else []
    tricks = [{
        "n": t.n,
        "cards": [{"card": card_view(CARD_NAMES[c]), "who": _who(t.seat_of(i, players_n), d, ruleset),
                   "win": t.seat_of(i, players_n) == t.winner} for i, c in enumerate(t.cards)],
        "winner": _who(t.winner, d, ruleset),
        "why": _reason(t.reason, d, ruleset),
        "replay": deal_url(ruleset, players, role, seed, actions, refused, replay=t.n),
    } for t in d.tricks]
    hint = None
    if mode == "play":
        hint = {"cards": i18n.cards_label(CARDS[c] for c in range(52) if legal >> c & 1),
                "why": _reason(coach.play_reason(d.state, d.you), d, ruleset)}
    elif mode == "discard":
        hint = {"cards": i18n.cards_label(CARDS[c] for c in range(52) if legal >> c & 1),
                "why": _("Discard cards of your own hand until you hold six.")}
    story = [_reason(r, d, ruleset) for r in d.story()] if d.over else []
    prompt = None
    if not d.over:
        if mode == "play":
            prompt = _("Your turn: choose a card to play.")
        elif mode == "discard":
            prompt = _("Discard: choose a card to put out of play.")
        elif coach.hakem(d.state) == d.you and coach.trump(d.state) is None:
            prompt = _("You are the hakem: name trump from your first five cards.")
        else:
            prompt = _("Your turn: choose.")
    return {
        "ruleset": ruleset, "game": ruleset_name(ruleset), "players": players, "role": role, "seed": seed,
        "a": ".".join(actions), "r": ",".join(f"{n}:{t}" for n, t in refused),
        "x": {"table": table, "ex": {"id": "play"}, "k": {"picks": ""}},
        "hand": hand, "mode": mode, "choices": choices, "refusal": refusal, "news": news, "tricks": tricks,
        "shown": shown.n if shown is not None else None,
        "shown_winner": _who(shown.winner, d, ruleset) if shown is not None else None,
        "shown_why": _reason(shown.reason, d, ruleset) if shown is not None else None,
        "hint": hint, "story": story, "over": d.over, "prompt": prompt, "here": here,
        "replay_n": replay_n, "replay_total": len(d.tricks),
        "replay_url": (lambda n: deal_url(ruleset, players, role, seed, actions, refused, replay=n)),
        "share_url": deal_url(ruleset, players, role, seed, [], []),
        "new_url": url_for("play.deal", ruleset=ruleset, players=players, role=role),
    }


def _sorted_hand(mask: int, trump: int | None) -> list[int]:
    """The cards of ``mask`` grouped by suit (trump first), highest first in each suit."""
    order = [trump] if trump is not None else []
    order += [s for s in range(4) if s != trump]
    return [c for s in order for c in range(s * 13 + 12, s * 13 - 1, -1) if mask >> c & 1]
