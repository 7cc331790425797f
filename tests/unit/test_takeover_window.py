"""A takeover reads only the log's last events (``LEVEL_WINDOW``): the moves it scores are the whole log's
last ones, so a takeover at ply 3,000 reads and replays what one at ply 100 does."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from games.domain import ComputerTookOver, Created, Moved, Resumed, rules_for
from games.domain.computer import LEVEL_WINDOW, moves_in_person

from shared_rules.names import Colour
from tests.checks import colour


def played_log(game: str, seed: int, stand_in: tuple[float, float]) -> list[Any]:
    """A log of random moves (up to 200 plies), the computer standing in for White over the ``stand_in``
    fraction of the game (the takeover and the resume logged there)."""
    rng = random.Random(seed)
    position = rules_for(game, {}).start()
    moves: list[tuple[str, Colour]] = []
    while len(moves) < 200 and (legal := position.legal_moves()):
        move = rng.choice(legal)
        moves.append((position.notation(move), colour(position.turn)))
        position = position.play(move)
    took_over, resumed = (int(len(moves) * fraction) for fraction in stand_in)
    position = rules_for(game, {}).start()
    events: list[Any] = [Created(seq=1, by="white", game_id="g", game=game, options={})]
    for ply, (notation, mover) in enumerate(moves, start=1):
        if ply == took_over:
            events.append(ComputerTookOver(seq=len(events) + 1, by="black", seat="white", level=3))
        if ply == resumed:
            events.append(Resumed(seq=len(events) + 1, by="white"))
        position = position.play(notation)
        events.append(Moved(seq=len(events) + 1, by=mover, move=notation, ply=ply, fen=position.fen()))
    return events


def as_text(pairs: list) -> list[tuple[str, str]]:
    return [(position.fen(), position.notation(move)) for position, move in pairs]


@pytest.mark.parametrize("game", ["chess", "english", "tanzanian"])
@pytest.mark.parametrize("stand_in", [(0.1, 0.3), (0.5, 0.9), (0.8, 0.95)])
@pytest.mark.parametrize("last", [LEVEL_WINDOW, 20])
def test_the_last_events_give_the_whole_logs_last_moves(game: str, stand_in: tuple[float, float], last: int) -> None:
    """Any last stretch of the log (the takeover's window, or a shorter one inside a stand-in) gives the
    whole log's last moves made in person: a suffix of them."""
    events = played_log(game, seed=4, stand_in=stand_in)
    head = SimpleNamespace(game=game, options={})
    whole = as_text(moves_in_person(head, events, "white"))  # type: ignore[arg-type]
    window = as_text(moves_in_person(head, events[-last:], "white"))  # type: ignore[arg-type]
    assert window and window == whole[-len(window) :]
    # Never a move the computer made while it stood in: those fall between the takeover and the resume.
    assert whole and not set(whole) & stand_in_moves(game, events)


def stand_in_moves(game: str, events: list[Any]) -> set[tuple[str, str]]:
    """White's moves logged between the takeover and the resume, as (position before, move)."""
    took_over, resumed = (event.seq for event in events if isinstance(event, (ComputerTookOver, Resumed)))
    before = rules_for(game, {}).start().fen()
    moves = set()
    for event in events:
        if isinstance(event, Moved):
            if event.by == "white" and took_over < event.seq < resumed:
                moves.add((before, event.move))
            before = event.fen
    assert moves  # the computer did stand in
    return moves
