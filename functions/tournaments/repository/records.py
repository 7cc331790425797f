"""The tournaments table's items as records and back (``tournaments.repository``'s DynamoDB side), and
``upgrade``, the one place that reads an older layout."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from common.persistence.attributes import split_version, with_version
from common.persistence.store import from_item

from tournaments.domain import Entry, Format, GameResult, State, Tournament

#: 1: the first. 2: ``club_id``, a members-only tournament's club (absent from a layout-1 item: none).
#: 3: ``groups`` and ``made`` (a map of knockout keys) of groups then knockout (absent before: 0 and none).
SCHEMA_VERSION = 3
META = "A"
RESULT_PREFIX = "R#"


def list_order(tournament: Tournament) -> int:
    return int(tournament.starts if tournament.starts is not None else tournament.created)


def tournament_record(tournament: Tournament) -> dict[str, Any]:
    record: dict[str, Any] = {
        "pk": "t#" + tournament.id,
        "sk": META,
        "id": tournament.id,
        "format": tournament.format.value,
        "game": tournament.game,
        "rated": tournament.rated,
        "options": json.dumps(dict(tournament.options), sort_keys=True),
        "name": tournament.name,
        "public": tournament.public,
        "created_by": tournament.created_by,
        "created": tournament.created,
        "max_players": tournament.max_players,
        "min_players": tournament.min_players,
        "starts": tournament.starts,
        "minutes": tournament.minutes,
        "state": tournament.state.value,
        "invite_hash": tournament.invite_hash,
        "entries": {key: asdict(entry) for key, entry in tournament.entries.items()},
        "entry_count": len(tournament.entries),
        "order": list(tournament.order),
        "withdrawn": dict(tournament.withdrawn),
        "started": tournament.started,
        "finished": tournament.finished,
        "games_made": tournament.games_made,
        "club_id": tournament.club_id,
        "groups": tournament.groups,
        "made": dict.fromkeys(sorted(tournament.made), True),
    }
    if tournament.public:
        record.update(list_key=f"{tournament.game}#{tournament.state.value}", list_order=list_order(tournament))
    return with_version(record, SCHEMA_VERSION)


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored record in the current layout (a layout-1 item has no ``club_id``: it reads as none)."""
    _version, record = split_version(item)
    return record


def read_tournament(item: dict[str, Any]) -> Tournament:
    record = upgrade(from_item(item))
    return Tournament(
        id=record["id"],
        format=Format(record["format"]),
        game=record["game"],
        rated=bool(record["rated"]),
        options=json.loads(record["options"]),
        name=record.get("name"),
        public=bool(record["public"]),
        created_by=record["created_by"],
        created=int(record["created"]),
        max_players=int(record["max_players"]),
        min_players=int(record["min_players"]),
        starts=record.get("starts"),
        minutes=record.get("minutes"),
        state=State(record["state"]),
        invite_hash=record.get("invite_hash"),
        entries={key: _entry(value) for key, value in (record.get("entries") or {}).items()},
        order=tuple(record.get("order") or ()),
        withdrawn={key: int(value) for key, value in (record.get("withdrawn") or {}).items()},
        started=record.get("started"),
        finished=record.get("finished"),
        games_made=bool(record.get("games_made", False)),
        club_id=record.get("club_id"),
        groups=int(record.get("groups") or 0),
        made=frozenset(record.get("made") or ()),
    )


def _entry(value: dict[str, Any]) -> Entry:
    return Entry(player_id=value["player_id"], name=value.get("name"), key=value["key"], joined=int(value["joined"]))


def read_result(item: dict[str, Any]) -> GameResult:
    record = upgrade(from_item(item))
    return GameResult(
        game_id=str(record["game_id"]),
        white=str(record["white"]),
        black=str(record["black"]),
        winner=record.get("winner"),
        at=int(record["at"]),
        plies=int(record.get("plies", 0)),
        on_time=bool(record.get("on_time", False)),
        computer_white=bool(record.get("computer_white", False)),
        computer_black=bool(record.get("computer_black", False)),
        void=bool(record.get("void", False)),
    )
