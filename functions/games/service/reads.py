"""The read side of a game's log: the latest page of a game, older pages, the whole log for an export.
Every read is bounded (a Query of a page at most, or the one whole-log Query of an export), and only the
events past the stored head are folded: a read costs the same at ply 10 and at ply 3,000."""

from __future__ import annotations

from dataclasses import replace

from games.domain import AnyEvent, Created, DamagedHead, GameHead, Tracked, apply_all, rules_for
from games.domain.errors import GameNotFound
from games.service.protocol import GameLog, usable_head
from games.views.pages import PAGE_EVENTS, POLL_EVENTS, MovePage, move_page, reaches


def moves_before(log: GameLog, game_id: str, before_seq: int | None, limit: int, positions: bool = False) -> MovePage:
    """The moves among the ``limit`` events before event ``before_seq`` (the ``earlier`` of a page; None: the
    latest events), with the position after each when ``positions``. One Query at any length."""
    _, newest_first = log.store.latest(game_id, limit, before_seq=before_seq)
    if not newest_first and log.store.get_head(game_id) is None:
        raise GameNotFound(f"there is no game {game_id}")
    events = newest_first[::-1]
    page = move_page(events, after=0, start_fen=None, cap=limit, positions=positions)
    first = events[0] if events else None
    if positions and isinstance(first, Created):  # the page reaches the start: the position before move 1
        page = replace(page, start_fen=first.start_fen or rules_for(first.game, first.options).start().fen())
    return page


def read_latest(log: GameLog, game_id: str, moves_after: int | None) -> tuple[Tracked, list[AnyEvent]]:
    """The game and its latest events, oldest first: one Query (two when a poller is more than a few moves
    behind), bounded by ``MOVES_PAGE`` whatever the game's length; only events past the head are folded."""
    first = POLL_EVENTS if moves_after is not None else PAGE_EVENTS
    stored, newest_first = log.store.latest(game_id, first)
    events = newest_first[::-1]
    try:
        if stored is None:
            raise DamagedHead("no head")
        head = usable_head(stored)
        newer = [event for event in events if event.seq > head.seq]
        if newer and newer[0].seq != head.seq + 1:
            raise DamagedHead("the head is further behind than a page")
        tracked = Tracked(apply_all(head, newer) if newer else head, stored_seq=head.seq)
    except DamagedHead:  # a missing or unreadable head: fold the whole log once (it is repaired)
        tracked, whole = read_log(log, game_id)
        return tracked, whole[-PAGE_EVENTS:]
    log.repair(tracked)
    log.remember(tracked.head)  # the page's next request is often a move: it starts from this head
    if moves_after is not None and len(events) == first and not reaches(events, moves_after):
        _, older = log.store.latest(game_id, PAGE_EVENTS - first, before_seq=events[0].seq)
        events = older[::-1] + events
    return tracked, events


def page_of(log: GameLog, game_id: str, head: GameHead, events: list[AnyEvent], moves_after: int | None) -> MovePage:
    start_fen = head.start_fen
    if not head.start_known:  # a head stored before it carried the start: the first event has it
        created = log.store.get_event(game_id, 1)
        start_fen = created.start_fen if isinstance(created, Created) else None
    page = move_page(events, after=moves_after or 0, start_fen=start_fen)
    if page.moves_from is None and page.earlier is None:  # nothing after ``moves_after``
        page = replace(page, moves_from=min(head.ply, moves_after or 0))
    return page


def read_log(log: GameLog, game_id: str) -> tuple[Tracked, list[AnyEvent]]:
    """The head and the whole log in one Query; only events past the head are read and folded (no replay)."""
    stored, events = log.store.load(game_id)
    if stored is None or not events:
        return log.load_log(game_id, stored, events), events
    try:
        head = usable_head(stored)
        newer = [event for event in events if event.seq > head.seq]
        tracked = Tracked(apply_all(head, newer) if newer else head, stored_seq=head.seq)
    except DamagedHead:
        return log.load_log(game_id, stored, events), events
    log.repair(tracked)
    return tracked, events
