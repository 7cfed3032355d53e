"""Random games of classic All Fours and Trinidad (benchmarks, property tests), played by the
engine's own state machine.

:func:`random_game` plays one complete game with uniformly random legal actions through
:class:`~tutor.engine.allfours.GameState` (``legal_actions()`` and ``apply()``, every check made):
there is no second engine to keep in step with the rules. At each decision ``rng.random()`` is
drawn once and picks action ``int(r * len(actions))`` of ``GameState.legal_actions()`` in its
order. The deals come from ``seed`` exactly as in
:meth:`~tutor.engine.allfours.AllFoursFamily.new_game`.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .allfours import AllFoursFamily

__all__ = ["GameResult", "HandPlayed", "random_game"]

#: One hand played to its end: ``(dealer, trump, start_hands, tricks)``, ``tricks`` a list of
#: ``(leader, cards in play order)``; hands are bit sets per seat, trump a suit int 0..3.
HandPlayed = tuple[int, int, tuple[int, ...], list[tuple[int, tuple[int, ...]]]]


class GameResult(NamedTuple):
    """The outcome of a random game.

    ``winner``: the side that reached the target; ``scores``: per side; ``awards``: every award
    in order as ``(category, side, points)``; ``hands``: hands played to the end; ``deal_no``:
    the number of the last deal (deals = ``deal_no + 1``, redeals included).
    """

    winner: int
    scores: tuple[int, ...]
    awards: tuple[tuple[str, int, int], ...]
    hands: int
    deal_no: int


def random_game(rules: AllFoursFamily, rng: random.Random, seed: int | None = None,
                record: list[HandPlayed] | None = None) -> GameResult:
    """Play one complete game of ``rules`` with random legal actions (see the module docstring).

    ``seed`` fixes the deals (else drawn as ``rng.randrange(2**32)``); ``rng.random()`` makes
    the choices. ``record``, if a list, receives each hand played to the end
    (:data:`HandPlayed`).
    """
    if seed is None:
        seed = rng.randrange(2**32)
    rand = rng.random
    state = rules.new_game(seed=seed)
    while not state.over:
        actions = state.legal_actions()
        action = actions[int(rand() * len(actions))]
        after = state.apply(action)
        if record is not None and after.hands_done > state.hands_done:
            assert state.trump is not None and action.card is not None  # a hand ends on a play
            last = (state.leader, (*state.trick, action.card))
            record.append((state.dealer, int(state.trump), state.start_hands, [*state.tricks, last]))
        state = after
    assert state.winner is not None  # the game is over
    return GameResult(state.winner, state.scores, tuple((a.category, a.side, a.points) for a in state.awards),
                      state.hands_done, state.deal_no)
