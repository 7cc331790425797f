"""Pages of a game's moves: the latest ones a game view carries, and older ones a page at a time."""

from __future__ import annotations

from dataclasses import dataclass

from games.domain import AnyEvent, Moved

#: The most moves a game view carries (its latest); older ones come in pages from ``GET .../moves``.
MOVES_PAGE = 50
#: Events read for a view: the page's moves and room for the few other events (join, draw offers) among them.
PAGE_EVENTS = MOVES_PAGE + 10
#: Events a poller's first read takes (``moves_after``): its opponent's move or two, and an offer.
POLL_EVENTS = 6


@dataclass(frozen=True)
class MovePage:
    """Moves of a game in order: ``moves[i]`` is move number ``moves_from + i + 1``; ``earlier`` is the event
    number to read older moves before (``GET .../moves?before=``), None when the page starts at the game's start."""

    moves: list[str]
    moves_from: int | None
    earlier: int | None
    start_fen: str | None = None
    #: With positions asked for: ``fens[i]`` is the position after ``moves[i]`` (a board steps through them).
    fens: list[str] | None = None


def move_page(
    events: list[AnyEvent], after: int, start_fen: str | None, cap: int = MOVES_PAGE, positions: bool = False
) -> MovePage:
    """The page of ``events`` (consecutive, oldest first): their last ``cap`` moves after ply ``after``, and
    ``earlier`` when moves between ``after`` and the first listed one are not in it; with ``positions``, the
    position after each listed move too (each move event keeps it: nothing is replayed)."""
    moved = [event for event in events if isinstance(event, Moved)]
    played = [(event.ply, event.move, event.seq) for event in moved]
    listed = [move for move in played if move[0] > after][-cap:]
    oldest = events[0].seq if events else 1
    if listed:
        moves_from: int | None = listed[0][0] - 1
        earlier = None if moves_from == after else listed[0][2]
    else:
        moves_from = None
        earlier = None if oldest <= 1 or any(ply <= after for ply, _, _ in played) else oldest
    fens = [event.fen for event in moved[len(moved) - len(listed) :]] if positions else None
    return MovePage([move for _, move, _ in listed], moves_from, earlier, start_fen, fens)


def reaches(events: list[AnyEvent], after: int) -> bool:
    """Whether ``events`` (oldest first) go back to the start of the game or to the move after ply ``after``."""
    return events[0].seq <= 1 or any(isinstance(event, Moved) and event.ply <= after + 1 for event in events)
