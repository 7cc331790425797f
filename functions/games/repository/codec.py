"""The games domain's values as the store keeps them: plain records (``str``, ``int``, ``bool``, ``bytes``,
``list``, ``dict``; ``None`` is left out), the same on DynamoDB and in memory. Only the repository
(``games.repository.stored``) uses it: nothing else reads a record.

The log's records keep the shape they have always had (``kind`` and its fields), so old games fold the
same. The head's record carries, besides the game's state, the seats flattened (``white_id`` ...) and each
seat's listing order (``white_order``, ``black_order``), which the players' indexes sort on. Every record
written carries ``schema_version``; one read in an older layout goes through ``upgrade`` first. A rated
game's ending event and head carry ``rating_change``: optional, absent from every record before it, so it
needs no new layout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args

from common.persistence.attributes import Record

from games.domain import COLORS, MAX_PLIES, AnyEvent, Color, DamagedHead, GameHead, PlayedMove, Seat, SeekTerms, events
from games.domain.rating_change import RatingChange
from games.domain.reactions import Reaction
from games.repository.upgrade import SCHEMA_VERSION
from games.watch.domain import air_keys
from shared_rules import Snapshot

#: The event classes by their ``kind``, as the log names them.
_EVENTS: dict[str, type[AnyEvent]] = {cls.kind: cls for cls in get_args(AnyEvent)}


# ============================================================================================ events
def event_record(event: AnyEvent) -> Record:
    record: Record = {
        "kind": event.kind,
        "seq": event.seq,
        "at": event.at,
        "by": event.by,
        "rating_change": event.rating_change.record() if event.rating_change else None,
        "casual": event.casual or None,
        "seat_ratings": list(event.seat_ratings) if event.seat_ratings else None,
        "schema_version": SCHEMA_VERSION,
    }
    if isinstance(event, events.Created):
        record.update(
            game_id=event.game_id,
            game=event.game,
            options=dict(event.options),
            start_fen=event.start_fen,
            seats={color: _seat_record(seat) for color, seat in (("white", event.white), ("black", event.black))},
            invite_key=event.invite_key,
            rematch_of=event.rematch_of,
            max_plies=None if event.max_plies == MAX_PLIES else event.max_plies,
            seek=_seek_record(event.seek),
        )
    elif isinstance(event, (events.Joined, events.SeekAccepted)):
        record["seat"] = _seat_record(event.seat)
    elif isinstance(event, events.Moved):
        record.update(move=event.move, ply=event.ply, fen=event.fen)
    elif isinstance(event, events.Rematched):
        record["game_id"] = event.game_id
    elif isinstance(event, events.ComputerTookOver):
        record.update(seat=event.seat, level=event.level)
    elif isinstance(event, events.Aborted):
        record["reason"] = event.reason
    elif isinstance(event, events.Reacted):
        record["reaction"] = event.reaction
    elif isinstance(event, events.ReactionsMuted):
        record["muted"] = event.muted
    return {key: value for key, value in record.items() if value is not None}


def event_from(record: Mapping[str, Any]) -> AnyEvent:
    """The event of a record in the current layout (``upgrade`` reads older ones into it)."""
    common: dict[str, Any] = {
        "seq": int(record["seq"]),
        "at": int(record["at"]),
        "by": record.get("by"),
        "rating_change": RatingChange.from_record(record.get("rating_change")),
        "casual": bool(record.get("casual")),
        "seat_ratings": _ratings_pair(record.get("seat_ratings")),
    }
    kind = record["kind"]
    if kind == "create":
        seats = record.get("seats") or {}
        return events.Created(
            **common,
            game_id=record["game_id"],
            game=record["game"],
            options=dict(record["options"]),
            start_fen=record.get("start_fen"),
            white=_seat_from(seats.get("white")),
            black=_seat_from(seats.get("black")),
            invite_key=record.get("invite_key"),
            rematch_of=record.get("rematch_of"),
            max_plies=int(record.get("max_plies") or MAX_PLIES),
            seek=_seek_from(record.get("seek")),
        )
    if kind in ("join", "accept_seek"):
        seat = _seat_from(record["seat"])
        assert seat is not None
        return (events.Joined if kind == "join" else events.SeekAccepted)(**common, seat=seat)
    if kind == "move":
        return events.Moved(**common, move=record["move"], ply=int(record["ply"]), fen=record["fen"])
    if kind == "rematch":
        return events.Rematched(**common, game_id=record["game_id"])
    if kind == "cpu_takeover":
        return events.ComputerTookOver(**common, seat=record["seat"], level=int(record["level"]))
    if kind == "abort":
        return events.Aborted(**common, reason=record.get("reason", "aborted"))
    if kind == "react":
        return events.Reacted(**common, reaction=str(record["reaction"]))
    if kind == "mute_reactions":
        return events.ReactionsMuted(**common, muted=bool(record["muted"]))
    plain: Callable[..., AnyEvent] = _EVENTS[kind]  # the events with no fields of their own
    return plain(**common)


def _reaction_record(reaction: Reaction) -> Record:
    return {"seq": reaction.seq, "by": reaction.by, "key": reaction.key, "at": reaction.at}


def _reaction_from(record: Mapping[str, Any]) -> Reaction:
    return Reaction(int(record["seq"]), str(record["by"]), record["key"], int(record["at"]))


def _seat_record(seat: Seat | None) -> Record | None:
    if seat is None:
        return None
    return {"id": seat.player_id, "key": seat.key, "name": seat.name, "cpu": seat.cpu}


def _seat_from(record: Mapping[str, Any] | None) -> Seat | None:
    if not record or not (record.get("id") or record.get("cpu")):
        return None
    cpu, key = record.get("cpu"), record.get("key")
    return Seat(record.get("id"), bytes(key) if key else None, record.get("name"), int(cpu) if cpu else None)


def _seek_record(seek: SeekTerms | None) -> Record | None:
    """An open challenge's terms as plain JSON values (the head keeps them in its document: no bytes)."""
    if seek is None:
        return None
    seeker = seek.seeker
    record = {
        "seeker": {"id": seeker.player_id, "key": seeker.key.hex() if seeker.key else None, "name": seeker.name},
        "rating": seek.rating,
        "provisional": seek.provisional,
        "color": seek.color,
        "range": list(seek.rating_range) if seek.rating_range else None,
        "expires": seek.expires,
        "excluded": sorted(seek.excluded) or None,
        "state": seek.state,
        "seeker_color": seek.seeker_color,
    }
    return {key: value for key, value in record.items() if value is not None}


def _seek_from(record: Mapping[str, Any] | None) -> SeekTerms | None:
    if not record:
        return None
    seeker, span = record["seeker"], record.get("range")
    return SeekTerms(
        seeker=Seat(seeker["id"], bytes.fromhex(seeker["key"]) if seeker.get("key") else None, seeker.get("name")),
        rating=int(record["rating"]),
        provisional=bool(record["provisional"]),
        color=record.get("color"),
        rating_range=(int(span[0]), int(span[1])) if span else None,
        expires=int(record["expires"]),
        excluded=frozenset(record.get("excluded") or ()),
        state=record.get("state", "open"),
        seeker_color=record.get("seeker_color"),
    )


# ============================================================================================== heads
def head_record(head: GameHead) -> Record:
    record: Record = {
        "id": head.id,
        "game": head.game,
        "options": dict(head.options),
        "seq": head.seq,
        "ply": head.ply,
        "state": head.state,
        "turn": head.turn,
        "result": head.result,
        "reason": head.reason,
        "fen": head.snapshot.fen,
        "memory": head.snapshot.memory or None,
        "last_moves": [_played_record(move) for move in head.last_moves] or None,
        "deadline": head.deadline,
        "draw_offer": head.draw_offer,
        "draw_declined": head.draw_declined,
        "invite_key": head.invite_key,
        "rematch": head.rematch,
        "rematch_of": head.rematch_of,
        "rematch_offer": head.rematch_offer,
        "rematch_declined": head.rematch_declined,
        "created": head.created,
        "updated": head.updated,
        "max_plies": None if head.max_plies == MAX_PLIES else head.max_plies,
        # "": the rules' own start (a head without the field predates it: ``start_known`` False).
        "start": (head.start_fen or "") if head.start_known else None,
        "rating_change": head.rating_change.record() if head.rating_change else None,
        "review_asked": head.review_asked or None,
        "seek": _seek_record(head.seek),
        "cpu_played": sorted(head.cpu_played) or None,
        "casual_reason": head.casual_reason,
        "reactions": [_reaction_record(reaction) for reaction in head.reactions] or None,
        "reactions_muted": sorted(head.reactions_muted) or None,
        "seat_ratings": list(head.seat_ratings) if head.seat_ratings else None,
        "unopened": sorted(head.unopened) or None,
        "schema_version": SCHEMA_VERSION,
    }
    record.update(air_keys(head))  # Tazama's sparse index (``GamesOnAir``): only a public game being played
    if head.seek is not None and head.seek.state == "open":
        # The keys of the lobby's sparse index (``SeeksByGame``): only an open challenge's head carries them.
        record.update(seek_game=head.game, seek_created=head.created, seek_expires=head.seek.expires)
    for color in COLORS:
        seat = head.seat(color)
        if seat is not None:
            record.update(
                {
                    f"{color}_id": seat.player_id,
                    f"{color}_key": seat.key,
                    f"{color}_name": seat.name,
                    f"{color}_cpu": seat.cpu,
                    f"{color}_order": head.order(color),
                }
            )
    return {key: value for key, value in record.items() if value is not None}


def head_from(record: Mapping[str, Any]) -> GameHead:
    """The head of a record in the current layout (``upgrade`` reads older ones into it); ``DamagedHead`` for
    a record that cannot be read."""
    try:
        return GameHead(
            id=record["id"],
            game=record["game"],
            options=dict(record["options"]),
            seq=int(record["seq"]),
            ply=int(record["ply"]),
            state=record["state"],
            turn=record["turn"],
            result=record["result"],
            reason=record.get("reason"),
            white=_seat_of(record, "white"),
            black=_seat_of(record, "black"),
            snapshot=Snapshot(record["fen"], int(record["ply"]), bytes(record.get("memory") or b"")),
            created=int(record["created"]),
            updated=int(record["updated"]),
            last_moves=tuple(_played_from(item) for item in record.get("last_moves") or ()),
            deadline=record.get("deadline"),
            draw_offer=record.get("draw_offer"),
            draw_declined=record.get("draw_declined"),
            invite_key=record.get("invite_key"),
            rematch=record.get("rematch"),
            rematch_of=record.get("rematch_of"),
            rematch_offer=record.get("rematch_offer"),
            rematch_declined=record.get("rematch_declined"),
            max_plies=int(record.get("max_plies") or MAX_PLIES),
            start_fen=record.get("start") or None,
            start_known="start" in record,
            position_known=record.get("position_known", True),
            rating_change=RatingChange.from_record(record.get("rating_change")),
            review_asked=bool(record.get("review_asked")),
            seek=_seek_from(record.get("seek")),
            cpu_played=frozenset(record.get("cpu_played") or ()),
            casual_reason=record.get("casual_reason"),
            reactions=tuple(_reaction_from(item) for item in record.get("reactions") or ()),
            reactions_muted=frozenset(record.get("reactions_muted") or ()),
            seat_ratings=_ratings_pair(record.get("seat_ratings")),
            unopened=frozenset(record.get("unopened") or ()),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise DamagedHead(f"the head cannot be read: {error!r}") from None


def _seat_of(record: Mapping[str, Any], color: Color) -> Seat | None:
    player_id, cpu = record.get(f"{color}_id"), record.get(f"{color}_cpu")
    if not player_id and not cpu:
        return None
    key = record.get(f"{color}_key")
    return Seat(player_id, bytes(key) if key else None, record.get(f"{color}_name"), int(cpu) if cpu else None)


def _played_record(move: PlayedMove) -> Record:
    record = {"ply": move.ply, "by": move.by, "move": move.move, "uci": move.uci, "before": move.before}
    return {key: value for key, value in record.items() if value is not None}


def _played_from(record: Mapping[str, Any]) -> PlayedMove:
    return PlayedMove(int(record["ply"]), record["by"], record["move"], record.get("uci"), record["before"])


def _ratings_pair(stored: Any) -> tuple[int, int] | None:
    """A live table's two ratings (white, black) as stored (a list of two numbers), or None."""
    return (int(stored[0]), int(stored[1])) if stored else None
