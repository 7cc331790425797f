"""An aborted tournament game is scored (issue 39, fair play; docs/tournaments.md): a tournament game cannot be
called off, so the player who aborted it loses, as does the side that never came when its first turns ran out;
a table both players left is void."""

from __future__ import annotations

from dataclasses import replace

import pytest
from games.domain import Aborted, DrawAccepted, GameHead, Seat
from games.domain.fair_play import early_end
from tournaments.seated import result_of

from shared_rules import get_game


def aborted_head(ply: int = 1) -> GameHead:
    return GameHead(
        id="g1",
        game="english",
        options={},
        seq=4,
        ply=ply,
        state="finished",
        turn="black" if ply % 2 else "white",
        result="aborted",
        reason="aborted",
        white=Seat("asha", b"a" * 32, "Asha"),
        black=Seat("baraka", b"b" * 32, "Baraka"),
        snapshot=get_game("english").start().snapshot(),
        created=0,
        updated=10,
    )


@pytest.mark.parametrize(
    ("by", "reason", "winner", "void"),
    [
        ("white", "aborted", "black", False),  # White pressed Abort (or resigned that early): White loses
        ("black", "aborted", "white", False),
        ("white", "no_show", "white", False),  # Black's first turns ran out and White claimed: Black loses
        ("black", "no_show", "black", False),
        ("white", "abandoned", None, True),  # both left the table: nothing for either
    ],
)
def test_an_aborted_tournament_game_is_lost_by_whoever_called_it_off_or_never_came(by, reason, winner, void):
    head = replace(aborted_head(), reason=reason)
    result = result_of(head, [Aborted(by=by, at=10, reason=reason)])
    assert (result.winner, result.void) == (winner, void)
    assert (result.white, result.black, result.plies) == ("asha", "baraka", 1)


def test_a_draw_agreed_before_two_moves_a_side_scores_nothing_for_either():
    """An early agreed draw is aborted (fair play) with no one to blame: void, not a loss for who accepted it."""
    playing = replace(aborted_head(), state="active", result="ongoing", reason=None, options={"rated": True})
    abort = early_end(playing, DrawAccepted(by="black", at=10))
    assert isinstance(abort, Aborted) and abort.by is None and abort.reason == "aborted"
    result = result_of(aborted_head(), [abort])
    assert (result.winner, result.void) == (None, True)
