"""The pure fold of a game's events into its head (``apply``): the same log always folds to the same head."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from games.domain import events
from games.domain.events import AnyEvent, Event
from games.domain.head import (
    FORMER_PLAYER,
    LAST_MOVES_KEPT,
    Color,
    GameHead,
    PlayedMove,
    Result,
    Seat,
    other,
    turn_length_ms,
    turn_seconds,
)
from games.domain.positions import options_key, play_notation, remember, rules_for
from games.domain.reactions import Reaction, kept


def apply(head: GameHead | None, event: Event) -> GameHead:
    """The head after one event. Pure: the same log always folds to the same head."""
    if isinstance(event, events.Created):
        if head is not None:
            raise ValueError("a game is created once")
        new = _created(event)
    else:
        if head is None:
            raise ValueError(f"{type(event).__name__} before the game was created")
        if event.seq != head.seq + 1:
            raise ValueError(f"event {event.seq} does not follow {head.seq}")
        new = (
            _seek_changed(head, event)
            if isinstance(event, (events.SeekAccepted, events.SeekWithdrawn))
            else _changed_by(head, event)
        )
    new = replace(new, seq=event.seq, updated=event.at)
    if event.casual:  # a rated game's pair has had its rated games of the day: this one is casual
        new = replace(new, options={**new.options, "rated": False}, casual_reason="repeat_pairing")
    if event.rating_change is not None:
        new = replace(new, rating_change=event.rating_change)
    if event.seat_ratings is not None:
        new = replace(new, seat_ratings=event.seat_ratings)
    if new.state == "finished":
        new = replace(new, deadline=None, draw_offer=None, invite_key=None, unopened=frozenset())
    return new


def apply_all(head: GameHead | None, log: list[AnyEvent]) -> GameHead:
    for event in log:
        head = apply(head, event)
    if head is None:
        raise ValueError("an empty log")
    return head


def _created(event: events.Created) -> GameHead:
    rules = rules_for(event.game, event.options)
    position = rules.from_fen(event.start_fen) if event.start_fen else rules.start()
    full = event.white is not None and event.black is not None
    return GameHead(
        id=event.game_id,
        game=event.game,
        options=dict(event.options),
        seq=event.seq,
        ply=0,
        state="active" if full else "waiting",
        turn=_color(position.turn),
        result="ongoing",
        reason=None,
        white=event.white,
        black=event.black,
        snapshot=position.snapshot(),
        created=event.at,
        updated=event.at,
        deadline=event.at + turn_length_ms(event.options) if full else None,
        invite_key=event.invite_key,
        rematch_of=event.rematch_of,
        max_plies=event.max_plies,
        start_fen=event.start_fen,
        seek=event.seek,
        unopened=_awaited(event.options, event.white, event.black) if full else frozenset(),
    )


def _changed_by(head: GameHead, event: Event) -> GameHead:
    if isinstance(event, events.Moved):
        return _moved(head, event)
    if isinstance(event, events.Joined):
        assert event.by is not None
        seated = replace(head, white=event.seat) if event.by == "white" else replace(head, black=event.seat)
        return replace(
            seated,
            state="active",
            invite_key=None,
            deadline=event.at + turn_length_ms(head.options),
            unopened=_awaited(head.options, seated.white, seated.black),
        )
    if isinstance(event, events.Opened):
        return _opened(head, event)
    if isinstance(event, events.DrawOffered):
        return replace(head, draw_offer=event.by, draw_declined=None)
    if isinstance(event, events.DrawDeclined):
        return replace(head, draw_offer=None, draw_declined=head.draw_offer)
    if isinstance(event, (events.DrawAccepted, events.Resigned, events.TimeoutClaimed, events.Aborted)):
        return _ended(head, event)
    if isinstance(event, (events.RematchOffered, events.RematchDeclined, events.RematchWithdrawn, events.Rematched)):
        return _rematch_changed(head, event)
    if isinstance(event, events.ComputerTookOver):
        stood_in = replace(head, cpu_played=head.cpu_played | {event.seat})
        return _with_level(stood_in, event.seat, event.level)
    if isinstance(event, events.Resumed):
        assert event.by is not None
        return _with_level(head, event.by, None)
    if isinstance(event, (events.ReviewAsked, events.Reacted, events.ReactionsMuted, events.SeatForgotten)):
        return _beside_the_play(head, event)
    raise ValueError(f"unknown event {type(event).__name__}")


def _beside_the_play(
    head: GameHead, event: events.ReviewAsked | events.Reacted | events.ReactionsMuted | events.SeatForgotten
) -> GameHead:
    """The events that change no position nor result: a review asked for, reactions, a seat forgotten."""
    if isinstance(event, events.ReviewAsked):
        return replace(head, review_asked=True)
    if isinstance(event, (events.Reacted, events.ReactionsMuted)):
        return _reactions_changed(head, event)
    former = Seat(FORMER_PLAYER, None, None)
    if event.by is None:  # the seeker of a lobby challenge never taken
        return replace(head, seek=replace(head.seek, seeker=former)) if head.seek is not None else head
    return replace(head, white=former) if event.by == "white" else replace(head, black=former)


def _reactions_changed(head: GameHead, event: events.Reacted | events.ReactionsMuted) -> GameHead:
    assert event.by is not None
    if isinstance(event, events.ReactionsMuted):
        muted = head.reactions_muted | {event.by} if event.muted else head.reactions_muted - {event.by}
        return replace(head, reactions_muted=muted)
    reaction = Reaction(event.seq, event.by, event.reaction, event.at)  # type: ignore[arg-type]
    return replace(head, reactions=kept(head.reactions, reaction))


def _ended(
    head: GameHead, event: events.DrawAccepted | events.Resigned | events.TimeoutClaimed | events.Aborted
) -> GameHead:
    """A game ended by what a player did (or the clock): agreement, resignation, time, or an abort."""
    if isinstance(event, events.DrawAccepted):
        return replace(head, state="finished", result="draw", reason="agreement")
    if isinstance(event, events.Resigned):
        assert event.by is not None
        return replace(head, state="finished", result=other(event.by), reason="resignation")
    if isinstance(event, events.TimeoutClaimed):
        result = head.rules().time_loss_result(head.position(), loser=head.turn)
        return replace(head, state="finished", result=_result(result), reason="timeout")
    return replace(head, state="finished", result="aborted", reason=event.reason)


def _rematch_changed(
    head: GameHead, event: events.RematchOffered | events.RematchDeclined | events.RematchWithdrawn | events.Rematched
) -> GameHead:
    if isinstance(event, events.RematchOffered):
        return replace(head, rematch_offer=event.by, rematch_declined=None)
    if isinstance(event, events.RematchDeclined):
        assert event.by is not None
        return replace(head, rematch_offer=None, rematch_declined=other(event.by))
    if isinstance(event, events.RematchWithdrawn):
        return replace(head, rematch_offer=None)
    return replace(head, rematch=event.game_id, rematch_offer=None, rematch_declined=None)


def _seek_changed(head: GameHead, event: events.SeekAccepted | events.SeekWithdrawn) -> GameHead:
    """An open challenge taken (both seats filled, the game starts) or withdrawn (it never starts)."""
    if head.seek is None or head.seek.state != "open":
        raise ValueError("only an open challenge is taken or withdrawn")
    if isinstance(event, events.SeekWithdrawn):
        return replace(head, seek=replace(head.seek, state="cancelled"))
    assert event.by is not None
    seeker_color = other(event.by)
    seats = {event.by: event.seat, seeker_color: head.seek.seeker}
    return replace(
        head,
        white=seats["white"],
        black=seats["black"],
        state="active",
        deadline=event.at + turn_length_ms(head.options),
        seek=replace(head.seek, state="taken", seeker_color=seeker_color),
        unopened=_awaited(head.options, seats["white"], seats["black"]),
    )


def _awaited(options: Mapping[str, Any], white: Seat | None, black: Seat | None) -> frozenset[Color]:
    """The seats a live table between two people waits for when it starts (a game against the computer starts
    at once: its player made it on the page they play it on)."""
    if turn_seconds(options) is None or white is None or black is None or white.cpu or black.cpu:
        return frozenset()
    return frozenset(("white", "black"))


def _opened(head: GameHead, event: events.Opened) -> GameHead:
    """A player opened the live table: when no seat is awaited any more, the turn's clock starts now."""
    assert event.by is not None
    unopened = head.unopened - {event.by}
    if unopened or not head.unopened or head.state != "active":
        return replace(head, unopened=unopened)
    return replace(head, unopened=unopened, deadline=event.at + turn_length_ms(head.options))


def _with_level(head: GameHead, color: Color, level: int | None) -> GameHead:
    seat = head.seat(color)
    if seat is None:
        raise ValueError(f"no one sits on {color}")
    seat = replace(seat, cpu=level)
    return replace(head, white=seat) if color == "white" else replace(head, black=seat)


def _moved(head: GameHead, event: events.Moved) -> GameHead:
    assert event.by is not None
    before = head.position()
    chosen = play_notation(before, event.move)
    after = chosen.after
    played = PlayedMove(
        ply=head.ply,
        by=event.by,
        move=chosen.notation,
        uci=chosen.move.uci() if head.game == "chess" else None,
        before=before.fen(),
    )
    ply = head.ply + 1
    snapshot = after.snapshot()
    remember((head.game, options_key(head.options), snapshot), after)
    changes: dict[str, Any] = {
        "unopened": head.unopened - {event.by},  # a player who moves has opened the table
        "ply": ply,
        "turn": _color(after.turn),
        "snapshot": snapshot,
        "last_moves": (*head.last_moves, played)[-LAST_MOVES_KEPT:],
    }
    if head.draw_offer and head.draw_offer != event.by:
        changes.update(draw_offer=None, draw_declined=head.draw_offer)  # moving declines the opponent's offer
    elif head.draw_declined == event.by:
        changes["draw_declined"] = None  # the offerer has moved on: the refusal is old news
    status = after.status()
    if status.is_over:
        changes.update(state="finished", result=_result(status.result), reason=status.reason)
    elif ply >= head.max_plies:
        changes.update(state="finished", result="draw", reason="move_limit")
    else:
        changes["deadline"] = event.at + turn_length_ms(head.options)
    return replace(head, **changes)


def _color(value: str) -> Color:
    return "white" if value == "white" else "black"


def _result(value: str) -> Result:
    if value not in ("ongoing", "white", "black", "draw", "aborted"):
        raise ValueError(f"unknown result {value!r}")
    return value  # type: ignore[return-value]


@dataclass
class Tracked:
    """A head and the seq of the head as the store has it (0: none stored), so the service knows when to
    write the head back (after a crash between the two writes, the stored head is behind its log)."""

    head: GameHead
    stored_seq: int = 0
    events: list[AnyEvent] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return self.head.seq
