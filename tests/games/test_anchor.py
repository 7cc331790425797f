"""The head rebuilds its position from the anchor (the position before the last irreversible move) and the
moves since. That is only right if every draw rule looks back no further than the last irreversible move
and counts the same from there. These tests play random games and compare, at every ply, the rebuilt
position with a replay of the whole game through the rules layer: same FEN, same status, same legal moves.
"""

from __future__ import annotations

import random

import pytest
from games.logic import (
    RECENT_MAX_BYTES,
    CacheMiss,
    fold,
    rebuild,
    rules_options,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import get_game

# Starting positions where reversible moves dominate, so repetition and the move counters matter.
STARTS = {
    "chess": [
        None,
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 90 80",  # rooks and kings, near the fifty-move draw
        "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 30",
        "8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1",
    ],
    "english": [
        None,
        "W:WK30,K31,K32:BK1,K2,K3",  # kings only: the forty-move count and repetition
        "B:W21,22,K30:BK1,5,9",
    ],
    "tanzanian": [
        None,
        "W:WKa1,Kc1,Ke1:BKh8",  # three kings against one: the countdown
        "W:WKa1,Kc1,Ke1,g1:BKh8",  # a man's crowning starts the countdown
        "W:WKa1,Kc1:BKh8,Kf8",
    ],
}
OPTIONS = {
    "chess": [{}],
    "english": [{}, {"move_limit": 37}, {"mandatory_capture": False}],
    "tanzanian": [{}, {"threefold_repetition": True}, {"threefold_repetition": True, "thirty_moves": True}],
}


def _create_event(game: str, fen: str | None, options: dict) -> dict:
    rules = get_game(game, options)
    start = rules.from_fen(fen) if fen else rules.start()
    seats = {color: {"id": f"p-{color}", "key": bytes(32), "name": None} for color in ("white", "black")}
    return {
        "kind": "create",
        "seq": 1,
        "at": 0,
        "game_id": "x" * 12,
        "game": game,
        "options": {**rules.options, "days_per_move": 3, "swap_colors": True},
        "start_fen": start.fen() if fen else None,
        "seats": seats,
    }


def _choose(position, chooser: random.Random, quiet: bool) -> str:
    """A random legal move; ``quiet`` prefers moves after which the opponent cannot capture, so the game runs
    into the long reversible stretches (king manoeuvres, repetitions, the counts) that the rules remember."""
    moves = position.legal_notations()
    if quiet:
        calm = [m for m in moves if not any("x" in reply for reply in position.play(m).legal_notations())]
        moves = calm or moves
    return chooser.choice(moves)


def _check_random_game(
    game: str, fen: str | None, options: dict, chooser: random.Random, plies: int, quiet: bool = False
) -> int:
    record = fold(None, _create_event(game, fen, options))
    rules = get_game(game, options)
    moves: list[str] = []
    full = rules.from_fen(fen) if fen else rules.start()  # the whole game, played move by move
    for _ in range(plies):
        rebuilt, recent = rebuild(record.head)
        assert rebuilt.fen() == full.fen()
        assert rebuilt.status() == full.status(), (moves, record.head)
        assert rebuilt.legal_notations() == full.legal_notations()
        assert record.head["result"] == full.status().result
        if full.status().is_over:
            break
        move = _choose(full, chooser, quiet)
        record = fold(record, {"kind": "move", "seq": record.seq + 1, "at": 0, "by": full.turn, "move": move})
        record.position = None  # force the next rebuild from the head alone, as a new request would
        moves.append(move)
        full = full.play(move)
        assert recent == [] or moves[-len(recent) - 1 : -1] == recent
    return len(moves)


@pytest.mark.parametrize("game", ["chess", "english", "tanzanian"])
def test_the_head_rebuilds_the_same_position_as_the_whole_game(game):
    @settings(max_examples=5 if game == "chess" else 25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 2**32),
        start=st.sampled_from(STARTS[game]),
        options=st.sampled_from(OPTIONS[game]),
        quiet=st.booleans(),
    )
    def check(seed, start, options, quiet):
        # Chess replays are the slowest (python-chess copies the move stack on every move): shorter games.
        _check_random_game(game, start, options, random.Random(seed), plies=70 if game == "chess" else 110, quiet=quiet)

    check()


def test_long_king_manoeuvres_overflow_the_head_and_say_so():
    """Tanzanian kings can shuffle for ever; past RECENT_MAX_BYTES the head stops caching and says so."""
    record = fold(None, _create_event("tanzanian", "W:WKa1,Kc1:BKh8,Kf8", {"threefold_repetition": False}))
    chooser = random.Random(7)
    for _ in range(RECENT_MAX_BYTES + 5):
        position = record.ensure_position()
        # Quiet moves after which the opponent has no capture either: the walk never ends the manoeuvre.
        quiet = [
            m
            for m in position.legal_notations()
            if "x" not in m and not any("x" in reply for reply in position.play(m).legal_notations())
        ]
        assert quiet and not position.status().is_over
        record = fold(
            record, {"kind": "move", "seq": record.seq + 1, "at": 0, "by": position.turn, "move": chooser.choice(quiet)}
        )
    assert record.head["overflow"] is True and record.head["recent"] is None
    with pytest.raises(CacheMiss):
        rebuild(record.head)


def test_move_limit_counts_from_the_start_of_the_game_not_from_the_anchor():
    options = {"move_limit": 12}
    record = fold(None, _create_event("english", None, options))
    chooser = random.Random(3)
    for _ in range(12):
        position = rebuild(record.head)[0]
        record = fold(
            record,
            {
                "kind": "move",
                "seq": record.seq + 1,
                "at": 0,
                "by": position.turn,
                "move": chooser.choice(position.legal_notations()),
            },
        )
        record.position = None
    assert record.head["anchor_ply"] > 0, "the walk made no irreversible move; the test shows nothing"
    assert (record.head["result"], record.head["reason"]) == ("draw", "move_limit")
    assert rules_options(record.head["options"]) == {"mandatory_capture": True, "move_limit": 12}
