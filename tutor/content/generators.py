"""Seeded exercise generators for every kind and ruleset (``tutor gen RULESET KIND --seed N``).

:func:`generate` ``(ruleset, kind, seed, difficulty) -> Exercise`` is reproducible: the same
arguments give the same exercise on every machine (a :class:`random.Random` seeded with the text
``"ruleset/kind/seed/difficulty"``). Every exercise is answered by the engine
(:func:`tutor.solve.solve`) while it is built; a candidate the engine rejects, or that lacks the
feature the difficulty asks for, is dropped and another drawn from the same random stream. The
engine's answer is stored as ``expect`` (so the exercise can be written to a lesson or quiz) but
grading never reads it.

Difficulty (1 easy, 2 medium, 3 hard) picks the traps:

* legal-cards — 1: follow a plain suit, nothing else tempting; 2: trump in hand while holding the
  suit led, or a card of the same colour as the suit led; 3: trump led, void in the suit led,
  and (All Fours/Trinidad) the ``must_trump`` and ``no_undertrump`` options;
* trick-winner — 1: everyone follows; 2: an off-suit ace or one trump; 3: several trumps, trump
  led, a leader other than seat 0;
* round-score / next-hakem (Hokm) — 1: the hakem's team wins normally; 2: kot, or the hakem's
  team loses; 3: hakem-kot, seat 3 as hakem (the turn wraps to seat 0);
* game-winner — Hokm: a round that may end the match (3: target 3, or nobody wins yet); All
  Fours/Trinidad: turn-up/gift points (1-2) or a whole hand counted in order (3);
* turn-up — 1: a card that scores or not with the default scale; 2: look-alikes; 3: the running
  (classic) or Tobago (Trinidad) scale;
* beg — 1: stand; 2: beg and give/take one; 3: beg and run (same-suit turn-ups, more players);
* hand-score / walk-through — a whole hand played out by random legal play: 1: two players
  (All Fours) or a short Hokm round; 2: four players; 3: a hand with a trap (hang jack, a Game
  tie, one trump in play, Low captured ...), or a long Hokm round.

Errors: :class:`~tutor.content.kinds.ExerciseError` for a kind the ruleset does not use,
``ValueError`` for a difficulty outside 1..3.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import i18n
from ..engine.cards import CARDS, Card, Suit
from .exercise import RULESETS, Exercise
from .kinds import KINDS, ExerciseError, players_of

__all__ = ["ATTEMPTS", "EXPECT_FIELDS", "GENERATORS", "generate", "kinds_for", "to_yaml"]

#: How many candidates one call may draw before giving up (never reached in practice).
ATTEMPTS = 400
#: Engine answer fields stored as ``expect`` per kind (``None``: depends on the ask).
EXPECT_FIELDS: dict[str, tuple[str, ...]] = {
    "legal-cards": ("legal",), "trick-winner": ("winner", "card"), "round-score": ("points", "result"),
    "next-hakem": ("next_hakem",), "turn-up": ("points",), "beg": ("points",), "hand-score": ("awards",),
    "game-winner": ("winner", "match_winner"), "walk-through": ("trick_winners", "points", "awards"),
}

_SUITS = tuple(Suit)


class _Reject(Exception):
    """This candidate does not fit; draw another."""


def _solve(scenario: dict) -> dict:
    from ..solve import solve
    return solve(scenario)


def kinds_for(ruleset: str) -> list[str]:
    """The exercise kinds that apply to ``ruleset``, in registry order."""
    return [k for k, v in KINDS.items() if ruleset in v.rulesets]


def _suit_cards(suit: int, exclude: set[int] = frozenset()) -> list[Card]:
    return [c for c in CARDS if c.suit == suit and c not in exclude]


def _same_colour(suit: int) -> int:
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _suits(suit: int) -> str:
    """English suit name in prose: "hearts"."""
    return i18n.suit_name(Suit(suit), "en", plural=True)


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _pick(rng: random.Random, pool: list, n: int) -> list:
    if n > len(pool):
        raise _Reject
    return rng.sample(pool, n)


# ----------------------------------------------------------------------------- legal-cards

def _gen_legal(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    af = ruleset != "hokm"
    variants = {1: ["follow"], 2: ["follow-trump", "same-colour"],
                3: ["trump-led", "void", "void-trump"] + (["must-trump", "undertrump"] if af else [])}[d]
    if ruleset == "all-fours":
        variants = [v for v in variants if v != "undertrump"]
    v = rng.choice(variants)
    trump = rng.choice(_SUITS)
    others = [s for s in _SUITS if s != trump]
    led = trump if v == "trump-led" else rng.choice(others)
    if v == "same-colour":
        led = rng.choice([s for s in others if _same_colour(s) != trump])
    players = 4 if ruleset != "all-fours" else rng.choice([2, 3, 4])
    hand_size = rng.randint(3, 5) if d == 1 else rng.randint(4, 8)
    n_led = 0 if v.startswith("void") or v == "must-trump" else rng.randint(1, max(1, hand_size - 2))
    n_trump = {"follow": 0, "same-colour": rng.randint(0, 1)}.get(v, rng.randint(1, 3))
    if v == "trump-led":
        n_led, n_trump = 0, rng.randint(1, 3)
    if v == "void":
        n_trump = 0
    rest_suits = [s for s in _SUITS if s not in (led, trump)]
    if v == "same-colour":
        rest_suits = [_same_colour(led)]
    n_rest = max(1, hand_size - n_led - n_trump)
    trick_len = rng.randint(1, players - 1)
    first = rng.choice(_suit_cards(led))
    used = {first}
    hand = _pick(rng, _suit_cards(led, used), n_led) if led != trump else []
    hand += _pick(rng, _suit_cards(trump, used), n_trump)
    used |= set(hand)
    rest_pool = [c for c in CARDS if c.suit in rest_suits and c not in used]
    hand += _pick(rng, rest_pool, n_rest)
    used |= set(hand)
    trick = [first] + _pick(rng, [c for c in CARDS if c not in used], trick_len - 1)
    options: dict = {}
    if v == "must-trump":
        options["void_rule"] = "must_trump"
    if v == "undertrump":
        options["no_undertrump"] = True
        my_trumps = sorted(c for c in hand if c.suit == trump)
        above = [c for c in _suit_cards(trump, set(hand) | set(trick)) if c > my_trumps[0]]
        if not above or trick_len < 2:
            raise _Reject
        trick[1] = rng.choice(above)
    rng.shuffle(hand)
    sc = {"ruleset": ruleset, "ask": "legal-plays"}
    if ruleset == "all-fours" and players != 2:
        sc["players"] = players
    if options:
        sc["options"] = options
    sc.update({"trump": trump.letter, "hand": [str(c) for c in hand], "trick": [str(c) for c in trick]})
    ans = _solve(sc)
    if v == "must-trump" and len(ans["legal"]) == len(hand):
        raise _Reject
    if d < 3 and len(ans["legal"]) == len(hand):
        raise _Reject
    return sc, f"{_cap(_suits(led))} were led and {_suits(trump)} are trump. Which cards may you play?"


# ----------------------------------------------------------------------------- trick-winner

def _gen_trick_winner(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    players = {"hokm": [4], "all-fours": [2, 3, 4], "trinidad": [4, 2]}[ruleset]
    players_n = rng.choice(players) if d > 1 else players[0]
    trump = rng.choice(_SUITS)
    led = trump if d == 3 and rng.random() < 0.3 else rng.choice([s for s in _SUITS if s != trump])
    deck = list(CARDS)
    rng.shuffle(deck)
    first = next(c for c in deck if c.suit == led)
    trick = [first]
    pool = [c for c in deck if c != first]
    for i in range(1, players_n):
        if d == 1:
            c = next(c for c in pool if c.suit == led)
        else:
            c = pool[0]
        pool.remove(c)
        trick.append(c)
    n_trumps = sum(c.suit == trump for c in trick)
    off_ace = any(c.rank == 14 and c.suit not in (led, trump) for c in trick)
    if d == 2 and not (n_trumps == 1 and led != trump or off_ace and n_trumps == 0):
        raise _Reject
    if d == 3 and not (n_trumps >= 2 or led == trump and n_trumps >= 1 and len(trick) > 2):
        raise _Reject
    leader = rng.randrange(players_n) if d > 1 else 0
    sc = {"ruleset": ruleset, "ask": "trick-winner"}
    if players_n != players[0]:
        sc["players"] = players_n
    sc.update({"trump": trump.letter, "trick": [str(c) for c in trick], "leader": leader})
    _solve(sc)
    who = i18n.seat_label(leader, 0, players_n, ruleset, "en")
    return sc, f"{_cap(who)} led and {_suits(trump)} are trump. Who wins the trick?"


# ----------------------------------------------------------------------------- hokm round kinds

def _round_counts(rng: random.Random, hakem: int, d: int, kind: str) -> list[int]:
    hakem_team = hakem % 2
    if d == 1:
        winner, loser_tricks = hakem_team, rng.randint(1, 6)
    elif d == 2:
        if rng.random() < 0.5:
            winner, loser_tricks = hakem_team, 0
        else:
            winner, loser_tricks = 1 - hakem_team, rng.randint(1, 6)
    else:
        winner, loser_tricks = 1 - hakem_team, rng.choice([0, 0, rng.randint(1, 6)])
    counts = [0, 0]
    counts[winner] = 7
    counts[1 - winner] = loser_tricks
    return counts


def _gen_round(ruleset: str, rng: random.Random, d: int, kind: str) -> tuple[dict, str]:
    hakem = 3 if d == 3 and kind == "next-hakem" and rng.random() < 0.5 else rng.randrange(4)
    counts = _round_counts(rng, hakem, d, kind)
    sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts}
    _solve(sc)
    q = "How many points is the round worth?" if kind == "round-score" else "Who is the next hakem?"
    who = i18n.seat_label(hakem, 0, 4, "hokm", "en")
    return sc, (f"{_cap(who)} {'are' if hakem == 0 else 'is'} hakem; your team took {_tricks(counts[0])} and the"
                f" other team {_tricks(counts[1])}. {q}")


def _gen_round_score(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    return _gen_round(ruleset, rng, d, "round-score")


def _gen_next_hakem(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    return _gen_round(ruleset, rng, d, "next-hakem")


# ----------------------------------------------------------------------------- turn-up

_SCORING = {"all-fours": {"jack": {11}, "running": {14, 13, 12, 11}},
            "trinidad": {"standard": {14, 6, 11}, "tobago": {14, 2, 11}}}


def _gen_turn_up(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    key = "turnup_scale" if ruleset == "all-fours" else "kick_scale"
    scale = ["jack", "running"] if ruleset == "all-fours" else ["standard", "tobago"]
    sc: dict = {"ruleset": ruleset, "ask": "turn-up"}
    if d == 3:
        sc["options"] = {key: scale[1]}
        ranks = sorted(_SCORING[ruleset][scale[1]] | {6, 10, 2})
    elif d == 2:
        ranks = [10, 13, 12, 14, 2, 6, 7] if ruleset == "all-fours" else [10, 2, 7, 13, 12, 6, 14]
    else:
        ranks = sorted(_SCORING[ruleset][scale[0]] | {3, 5, 8, 9})
    card = Card.of(rng.choice(ranks), rng.choice(_SUITS))
    sc["card"] = str(card)
    _solve(sc)
    return sc, f"The dealer turns up the {i18n.card_label(card, 'en')}. How many points does the dealer's side score?"


# ----------------------------------------------------------------------------- beg (make-trump)

def _turn_ups(rng: random.Random, runs: int, repeats: int) -> list[Card]:
    """First turn-up, then for a run: ``repeats`` cards of the refused suit then a new suit."""
    deck = list(CARDS)
    rng.shuffle(deck)
    first = deck.pop()
    out = [first]
    if runs:
        for _ in range(repeats):
            c = next(c for c in deck if c.suit == first.suit)
            deck.remove(c)
            out.append(c)
        out.append(next(c for c in deck if c.suit != first.suit))
    return out


def _make_trump(ruleset: str, rng: random.Random, d: int, scores: bool) -> dict:
    players_choice = {"all-fours": [2, 3, 4], "trinidad": [4, 2]}[ruleset]
    players = players_choice[0] if d == 1 else rng.choice(players_choice)
    dealer = rng.randrange(players)
    decision, choice = ("stand", None) if d == 1 else ("beg", "give" if d == 2 else "run")
    if d == 3 and rng.random() < 0.25:
        choice = "give"
    max_repeats = 1 if players >= 3 else 3
    ups = _turn_ups(rng, 1 if choice == "run" else 0, rng.randint(0, max_repeats) if choice == "run" else 0)
    sc: dict = {"ruleset": ruleset, "ask": "make-trump"}
    if players != players_choice[0]:
        sc["players"] = players
    sc.update({"dealer": dealer, "turn_ups": [str(c) for c in ups], "decision": decision})
    if choice:
        sc["dealer_choice"] = choice
    if scores:
        target = 7 if ruleset == "all-fours" else 14
        sides = 2 if players == 4 else players
        sc["scores"] = [rng.randint(max(0, target - 4), target - 1) for _ in range(sides)]
    return sc


def _gen_beg(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    sc = _make_trump(ruleset, rng, d, scores=False)
    ans = _solve(sc)
    if d == 3 and ans.get("redeal"):
        raise _Reject
    return sc, "After the stand or beg decision, how many points does each side have?"


# ----------------------------------------------------------------------------- whole hands

def _play_hand(ruleset: str, rng: random.Random, players: int, options: dict | None = None) -> dict:
    """A hand-score scenario: 6 cards each, random trump, random legal play."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [deck[i * 6:(i + 1) * 6] for i in range(players)]
    trump = rng.choice(_SUITS)
    dealer = rng.randrange(players)
    base = {"ruleset": ruleset}
    if players != players_of({"ruleset": ruleset}):
        base["players"] = players
    if options:
        base["options"] = options
    leader = (dealer + 1) % players
    tricks = []
    for _ in range(6):
        trick: list[Card] = []
        for i in range(players):
            seat = (leader + i) % players
            legal = _solve(base | {"ask": "legal-plays", "trump": trump.letter,
                                   "hand": [str(c) for c in hands[seat]], "trick": [str(c) for c in trick]})["legal"]
            card = Card.parse(rng.choice(legal))
            hands[seat].remove(card)
            trick.append(card)
        leader = _solve(base | {"ask": "trick-winner", "trump": trump.letter, "trick": [str(c) for c in trick],
                                "leader": leader})["winner"]
        tricks.append([str(c) for c in trick])
    return base | {"ask": "hand-score", "dealer": dealer, "trump": trump.letter, "tricks": tricks}


def _hand_trap(sc: dict, ans: dict) -> bool:
    cats = [a["category"] for a in ans["awards"]]
    trumps_in_play = sum(1 for t in sc["tricks"] for c in t if c[-1] == sc["trump"])
    if "hang-jack" in cats or trumps_in_play == 1:
        return True
    if "game" not in cats:  # Game tie (or nobody)
        return True
    high = next((a["side"] for a in ans["awards"] if a["category"] == "high"), None)
    low = next((a["side"] for a in ans["awards"] if a["category"] == "low"), None)
    jack = next((a["side"] for a in ans["awards"] if a["category"] in ("jack", "hang-jack")), None)
    return high is not None and low is not None and high != low and jack is not None and jack != high


def _whole_hand(ruleset: str, rng: random.Random, d: int) -> tuple[dict, dict]:
    if ruleset == "all-fours":
        players = 2 if d == 1 else rng.choice([3, 4]) if d == 2 else rng.choice([2, 3, 4])
    else:
        players = 2 if d == 1 else 4
    options = None
    if d == 3 and ruleset == "all-fours" and rng.random() < 0.25:
        options = {"low": "captured"} if rng.random() < 0.5 else {"game_tie": "nobody"}
    sc = _play_hand(ruleset, rng, players, options)
    ans = _solve(sc)
    if d == 3 and not _hand_trap(sc, ans):
        raise _Reject
    if d < 3 and not ans["awards"]:
        raise _Reject
    return sc, ans


def _gen_hand_score(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    sc, _ = _whole_hand(ruleset, rng, d)
    return sc, "Who scores High, Low, Jack and Game?"


def _hokm_round(rng: random.Random, d: int) -> dict:
    """A round-playout scenario played to 7 tricks by a simple policy (win cheaply, else discard low)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
    hakem = rng.randrange(4)
    counts_by_suit = [sum(c.suit == s for c in hands[hakem][:5]) for s in _SUITS]
    trump = _SUITS[counts_by_suit.index(max(counts_by_suit))]
    leader, tricks, counts = hakem, [], [0, 0]
    smart = 0.9 if d == 1 else 0.6 if d == 2 else 0.3
    while max(counts) < 7:
        trick: list[Card] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = [Card.parse(c) for c in _solve({
                "ruleset": "hokm", "ask": "legal-plays", "trump": trump.letter,
                "hand": [str(c) for c in hands[seat]], "trick": [str(c) for c in trick]})["legal"]]
            if seat % 2 == hakem % 2 and rng.random() < smart:
                card = max(legal, key=lambda c: (c.suit == trump, c.rank))
            else:
                card = rng.choice(legal)
            hands[seat].remove(card)
            trick.append(card)
        leader = _solve({"ruleset": "hokm", "ask": "trick-winner", "trump": trump.letter,
                         "trick": [str(c) for c in trick], "leader": leader})["winner"]
        counts[leader % 2] += 1
        tricks.append([str(c) for c in trick])
    return {"ruleset": "hokm", "ask": "round-playout", "hakem": hakem, "trump": trump.letter, "tricks": tricks}


def _gen_walk(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    if ruleset == "hokm":
        sc = _hokm_round(rng, d)
        n = len(sc["tricks"])
        if (d == 1 and n > 9) or (d == 2 and not 9 <= n <= 11) or (d == 3 and n < 11):
            raise _Reject
        _solve(sc)
        return sc, "Say who wins each trick, then what the round is worth."
    sc, _ = _whole_hand(ruleset, rng, d)
    return sc, "Say who wins each trick, then who scores High, Low, Jack and Game."


# ----------------------------------------------------------------------------- game-winner

def _gen_game_winner(ruleset: str, rng: random.Random, d: int) -> tuple[dict, str]:
    if ruleset == "hokm":
        hakem = rng.randrange(4)
        counts = _round_counts(rng, hakem, d, "game-winner")
        target = 3 if d == 3 and rng.random() < 0.5 else 7
        low = 0 if d == 3 else max(0, target - 3)
        sc = {"ruleset": "hokm", "ask": "round-score", "hakem": hakem, "team_tricks": counts,
              "scores": [rng.randint(low, target - 1), rng.randint(low, target - 1)]}
        if target != 7:
            sc["target"] = target
        ans = _solve(sc)
        if d == 1 and ans["match_winner"] is None:
            raise _Reject
        return sc, f"The match is played to {target}. Which team wins the match, if any?"
    if d < 3:
        sc = _make_trump(ruleset, rng, d, scores=True)
        if d == 1:
            sc["turn_ups"] = [str(Card.of(rng.choice([11, 14, 6, 11]), rng.choice(_SUITS)))]
        ans = _solve(sc)
    else:
        sc, _ = _whole_hand(ruleset, rng, 2)
        target = 7 if ruleset == "all-fours" else 14
        sides = 2 if players_of(sc) == 4 else players_of(sc)
        sc["scores"] = [rng.randint(target - 3, target - 1) for _ in range(sides)]
        ans = _solve(sc)
        if sum(after >= target for after in ans["scores_after"]) < 2:
            raise _Reject
    if d == 1 and ans["winner"] is None:
        raise _Reject
    return sc, "Which side wins the game, if any?"


#: kind -> generator ``(ruleset, rng, difficulty) -> (scenario, English prompt)``.
GENERATORS: dict[str, Callable[[str, random.Random, int], tuple[dict, str]]] = {
    "legal-cards": _gen_legal, "trick-winner": _gen_trick_winner, "round-score": _gen_round_score,
    "next-hakem": _gen_next_hakem, "turn-up": _gen_turn_up, "beg": _gen_beg, "hand-score": _gen_hand_score,
    "game-winner": _gen_game_winner, "walk-through": _gen_walk,
}


def generate(ruleset: str, kind: str, seed: int, difficulty: int = 1) -> Exercise:
    """A new exercise of ``kind`` for ``ruleset`` (see module docstring), answered by the engine.

    Raises :class:`ExerciseError` when the kind does not apply to the ruleset, ``ValueError`` for a
    difficulty outside 1..3 or an unknown ruleset, ``RuntimeError`` if no candidate fits (a bug).
    """
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}: use one of {', '.join(RULESETS)}")
    if kind not in KINDS:
        raise ExerciseError(f"unknown exercise kind {kind!r}: use one of {', '.join(KINDS)}")
    if ruleset not in KINDS[kind].rulesets:
        raise ExerciseError(f"kind {kind} is not used with ruleset {ruleset} (use {', '.join(kinds_for(ruleset))})")
    if isinstance(difficulty, bool) or difficulty not in (1, 2, 3):
        raise ValueError(f"difficulty must be 1, 2 or 3, not {difficulty!r}")
    from ..engine.errors import TutorError
    rng = random.Random(f"{ruleset}/{kind}/{seed}/{difficulty}")
    for _ in range(ATTEMPTS):
        try:
            scenario, prompt = GENERATORS[kind](ruleset, rng, difficulty)
            answer = _solve(scenario)
        except (_Reject, TutorError):
            continue
        expect = {f: answer[f] for f in EXPECT_FIELDS[kind] if f in answer}
        return Exercise(id=f"gen-{ruleset}-{kind}-{seed}-{difficulty}", kind=kind, scenario=scenario,
                        difficulty=difficulty, prompt=prompt, expect=expect)
    raise RuntimeError(f"no {kind} exercise for {ruleset} at difficulty {difficulty} after {ATTEMPTS} tries")


def _flow(value: object) -> str:
    import json
    return json.dumps(value, ensure_ascii=False)


def to_yaml(exercise: Exercise) -> str:
    """The exercise as an exercise block / quiz question in YAML (scenario and expect as JSON-style
    flow mappings, like the authored content)."""
    import yaml
    lines = []
    for key, value in exercise.to_block().items():
        if isinstance(value, dict | list):
            lines.append(f"{key}: {_flow(value)}")
        else:
            lines.append(yaml.safe_dump({key: value}, allow_unicode=True, width=1000).strip())
    return "\n".join(lines) + "\n"
