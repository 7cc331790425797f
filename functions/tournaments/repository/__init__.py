"""Where tournaments live: the ``TournamentRepository`` protocol, ``InMemoryTournaments`` (the unit tests' and
the contract's reference) and ``DynamoTournaments`` on ``TournamentsTable`` (template.yaml, ``TOURNAMENTS_TABLE``).

* ``pk = "t#<id>"``, ``sk = "A"``: the tournament: its terms, state, ``entries`` (a map by player id), the
  ``entry_count`` the join's condition reads, a league's seeding ``order`` and voluntary withdrawals. A join is
  one conditional ``UpdateItem`` of this item (open, not entered yet, fewer than the maximum): of any number
  of racing joins exactly as many as there are places succeed, each player at most once. Public ones carry
  ``list_key`` (``<game>#<state>``) and ``list_order`` for the sparse index ``TournamentsByList``.
* ``pk = "t#<id>"``, ``sk = "R#<game id>"``: one game's result, written once (``attribute_not_exists``).
* ``pk = "g#<game id>"``, ``sk = "L"``: which tournament a game belongs to (the results function's lookup).

Standings are one ``Query`` of the tournament's partition (its item sorts first, ``A`` < ``R#``): a league's 56
results at most are a few KB. Every write is a single-item conditional write.
"""

from __future__ import annotations

import threading
from dataclasses import asdict, replace
from typing import Any, Protocol

from common.persistence.attributes import to_attribute, with_version
from common.persistence.memory import put_absent
from common.persistence.store import call, from_item, query_all, read, to_item
from common.persistence.table import DynamoTable

from tournaments.domain import (
    AlreadyEntered,
    Entry,
    Format,
    GameResult,
    NotEntered,
    State,
    Tournament,
    TournamentFull,
    TournamentNotFound,
    TournamentOver,
    TournamentStarted,
)
from tournaments.repository.records import (
    META,
    RESULT_PREFIX,
    SCHEMA_VERSION,
    list_order,
    read_result,
    read_tournament,
    tournament_record,
    upgrade,
)

LIST_INDEX = "TournamentsByList"


class TournamentRepository(Protocol):
    def create(self, tournament: Tournament) -> None: ...

    def get(self, tournament_id: str) -> Tournament | None: ...

    def read(self, tournament_id: str) -> tuple[Tournament, dict[str, GameResult]] | None:
        """The tournament and its results by game id: one read."""
        ...

    def join(self, tournament_id: str, entry: Entry) -> Tournament:
        """Enter the player (refusals: ``AlreadyEntered``, ``TournamentFull``, ``TournamentStarted``)."""
        ...

    def leave(self, tournament_id: str, player_id: str) -> Tournament:
        """Take back an entry before the start (``NotEntered``, ``TournamentStarted``)."""
        ...

    def withdraw(self, tournament_id: str, player_id: str, at: int) -> Tournament:
        """Withdraw a player from a running league (once; ``NotEntered``, ``TournamentOver``)."""
        ...

    def start(self, tournament: Tournament, order: tuple[str, ...], at: int) -> bool:
        """From open (as read, with as many entries) to running with the seeding order; False if another request
        moved it first or a player joined or left since it was read."""
        ...

    def finish(self, tournament: Tournament, at: int) -> bool:
        """From running (as read) to finished; False if another request moved it first."""
        ...

    def games_made(self, tournament_id: str) -> None:
        """Mark a running league's games all made."""
        ...

    def mark_made(self, tournament_id: str, keys: list[str]) -> None:
        """Note a cup's knockout games ``keys`` as made (marking one twice is harmless)."""
        ...

    def claim_soon(self, tournament_id: str) -> bool:
        """The right to tell an arena's players it starts soon: True once per arena."""
        ...

    def link_game(self, game_id: str, tournament_id: str) -> None: ...

    def tournament_of(self, game_id: str) -> str | None: ...

    def record_result(self, tournament_id: str, result: GameResult) -> bool:
        """Store a game's result once; False if it was stored already."""
        ...

    def listed(self, game: str, state: State, limit: int) -> list[Tournament]:
        """Public tournaments of a game in a state, soonest first."""
        ...


# ----------------------------------------------------------------------------------------- in memory
class InMemoryTournaments:
    """A ``TournamentRepository`` in dicts, under a lock (the racing tests join from threads)."""

    def __init__(self) -> None:
        self.tournaments: dict[str, Tournament] = {}
        self.results: dict[str, dict[str, GameResult]] = {}
        self.links: dict[str, str] = {}
        self.soon_told: dict[str, bool] = {}
        self.lock = threading.Lock()

    def create(self, tournament: Tournament) -> None:
        with self.lock:
            if tournament.id in self.tournaments:
                raise ValueError("a tournament with this id exists")
            self.tournaments[tournament.id] = tournament

    def get(self, tournament_id: str) -> Tournament | None:
        return self.tournaments.get(tournament_id)

    def read(self, tournament_id: str) -> tuple[Tournament, dict[str, GameResult]] | None:
        found = self.tournaments.get(tournament_id)
        return None if found is None else (found, dict(self.results.get(tournament_id, {})))

    def join(self, tournament_id: str, entry: Entry) -> Tournament:
        with self.lock:
            found = self._found(tournament_id)
            refuse_join(found, entry.player_id)
            joined = replace(found, entries={**found.entries, entry.player_id: entry})
            self.tournaments[tournament_id] = joined
            return joined

    def leave(self, tournament_id: str, player_id: str) -> Tournament:
        with self.lock:
            found = self._found(tournament_id)
            refuse_leave(found, player_id)
            left = replace(found, entries={key: e for key, e in found.entries.items() if key != player_id})
            self.tournaments[tournament_id] = left
            return left

    def withdraw(self, tournament_id: str, player_id: str, at: int) -> Tournament:
        with self.lock:
            found = self._found(tournament_id)
            refuse_withdraw(found, player_id)
            if player_id not in found.withdrawn:
                found = replace(found, withdrawn={**found.withdrawn, player_id: at})
                self.tournaments[tournament_id] = found
            return found

    def start(self, tournament: Tournament, order: tuple[str, ...], at: int) -> bool:
        with self.lock:
            found = self._found(tournament.id)
            if found.state is not tournament.state or len(found.entries) != len(tournament.entries):
                return False
            self.tournaments[tournament.id] = found.with_state(State.RUNNING, order=order, started=at)
            return True

    def games_made(self, tournament_id: str) -> None:
        with self.lock:
            self.tournaments[tournament_id] = replace(self._found(tournament_id), games_made=True)

    def finish(self, tournament: Tournament, at: int) -> bool:
        with self.lock:
            found = self._found(tournament.id)
            if found.state is not tournament.state:
                return False
            self.tournaments[tournament.id] = found.with_state(State.FINISHED, finished=at)
            return True

    def mark_made(self, tournament_id: str, keys: list[str]) -> None:
        with self.lock:
            found = self._found(tournament_id)
            self.tournaments[tournament_id] = replace(found, made=found.made | frozenset(keys))

    def claim_soon(self, tournament_id: str) -> bool:
        with self.lock:
            claimed = self.soon_told.setdefault(tournament_id, False)
            self.soon_told[tournament_id] = True
            return not claimed

    def link_game(self, game_id: str, tournament_id: str) -> None:
        self.links[game_id] = tournament_id

    def tournament_of(self, game_id: str) -> str | None:
        return self.links.get(game_id)

    def record_result(self, tournament_id: str, result: GameResult) -> bool:
        with self.lock:
            return put_absent(self.results.setdefault(tournament_id, {}), result.game_id, result)

    def listed(self, game: str, state: State, limit: int) -> list[Tournament]:
        found = [t for t in self.tournaments.values() if t.public and t.game == game and t.state is state]
        return sorted(found, key=list_order)[:limit]

    def _found(self, tournament_id: str) -> Tournament:
        found = self.tournaments.get(tournament_id)
        if found is None:
            raise TournamentNotFound("no tournament has this id")
        return found


def refuse_join(tournament: Tournament, player_id: str) -> None:
    """Why this player cannot join (the in-memory store's condition, and the DynamoDB one's explanation)."""
    if player_id in tournament.entries:
        raise AlreadyEntered("you are in this tournament already")
    if tournament.state is not State.OPEN and tournament.format is not Format.ARENA:
        raise TournamentStarted("this league has started; it takes no more players")
    if tournament.state is State.FINISHED:
        raise TournamentOver("this tournament is over")
    if tournament.full:
        raise TournamentFull("this tournament is full")


def refuse_leave(tournament: Tournament, player_id: str) -> None:
    if player_id not in tournament.entries:
        raise NotEntered("you are not in this tournament")
    if tournament.state is not State.OPEN:
        raise TournamentStarted("the tournament has started: withdraw instead")


def refuse_withdraw(tournament: Tournament, player_id: str) -> None:
    if player_id not in tournament.entries:
        raise NotEntered("you are not in this tournament")
    if tournament.state is State.FINISHED:
        raise TournamentOver("this tournament is over")


# ------------------------------------------------------------------------------------------ DynamoDB
def _key(tournament_id: str, sort_key: str = META) -> dict[str, Any]:
    return {"pk": {"S": "t#" + tournament_id}, "sk": {"S": sort_key}}


class DynamoTournaments(DynamoTable, env="TOURNAMENTS_TABLE", default="TournamentsTable"):
    """``TournamentRepository`` on DynamoDB."""

    def create(self, tournament: Tournament) -> None:
        answer = call(
            "put_item",
            TableName=self.table,
            Item=to_item(tournament_record(tournament)),
            ConditionExpression="attribute_not_exists(pk)",
        )
        if answer is None:
            raise ValueError("a tournament with this id exists")

    def get(self, tournament_id: str) -> Tournament | None:
        item = read("get_item", TableName=self.table, Key=_key(tournament_id), ConsistentRead=True).get("Item")
        return None if item is None else read_tournament(item)

    def read(self, tournament_id: str) -> tuple[Tournament, dict[str, GameResult]] | None:
        items = query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": "t#" + tournament_id}},
            ConsistentRead=True,
        )
        if not items or items[0]["sk"]["S"] != META:
            return None
        results = [read_result(item) for item in items[1:] if item["sk"]["S"].startswith(RESULT_PREFIX)]
        return read_tournament(items[0]), {result.game_id: result for result in results}

    def join(self, tournament_id: str, entry: Entry) -> Tournament:
        answer = self._entry_update(
            tournament_id,
            entry.player_id,
            "SET entries.#p = :entry ADD entry_count :one",
            "#state = :open AND attribute_not_exists(entries.#p) AND entry_count < max_players",
            {":entry": {"M": to_item(asdict(entry))}, ":one": {"N": "1"}, ":open": {"S": State.OPEN.value}},
        )
        if answer is None:
            found = self.get(tournament_id)
            if found is not None and found.entries.get(entry.player_id) == entry:
                return found  # our own write, retried by the client after a lost answer
            self._explain(tournament_id, lambda found: refuse_join(found, entry.player_id))
            raise TournamentFull("the tournament changed while you joined; try again")
        return read_tournament(answer["Attributes"])

    def leave(self, tournament_id: str, player_id: str) -> Tournament:
        answer = self._entry_update(
            tournament_id,
            player_id,
            "REMOVE entries.#p ADD entry_count :minus",
            "#state = :open AND attribute_exists(entries.#p)",
            {":minus": {"N": "-1"}, ":open": {"S": State.OPEN.value}},
        )
        if answer is None:
            self._explain(tournament_id, lambda found: refuse_leave(found, player_id))
        return read_tournament((answer or {})["Attributes"])

    def withdraw(self, tournament_id: str, player_id: str, at: int) -> Tournament:
        answer = self._entry_update(
            tournament_id,
            player_id,
            "SET withdrawn.#p = :at",
            "#state <> :finished AND attribute_exists(entries.#p) AND attribute_not_exists(withdrawn.#p)",
            {":at": {"N": str(at)}, ":finished": {"S": State.FINISHED.value}},
        )
        if answer is None:
            found = self._explain(tournament_id, lambda found: refuse_withdraw(found, player_id))
            return found  # withdrawn already: the same answer
        return read_tournament(answer["Attributes"])

    def _entry_update(
        self, tournament_id: str, player_id: str, expression: str, condition: str, values: dict[str, Any]
    ) -> dict[str, Any] | None:
        """One conditional update of a player's entry (``#p``) in the tournament's state (``#state``): the
        tournament after it, or None when the condition failed."""
        names = {"#p": player_id, "#state": "state"}
        return self.update(_key(tournament_id), expression, condition, names=names, values=values, returns="ALL_NEW")

    def start(self, tournament: Tournament, order: tuple[str, ...], at: int) -> bool:
        return self._move(tournament, State.RUNNING, {"order": list(order), "started": at}, entries=True)

    def games_made(self, tournament_id: str) -> None:
        self.update(_key(tournament_id), "SET games_made = :yes", values={":yes": {"BOOL": True}})

    def finish(self, tournament: Tournament, at: int) -> bool:
        return self._move(tournament, State.FINISHED, {"finished": at})

    def claim_soon(self, tournament_id: str) -> bool:
        untold, yes = "attribute_exists(pk) AND attribute_not_exists(soon_told)", {":yes": {"BOOL": True}}
        return self.update(_key(tournament_id), "SET soon_told = :yes", untold, values=yes) is not None

    def mark_made(self, tournament_id: str, keys: list[str]) -> None:
        names = {f"#k{index}": key for index, key in enumerate(keys)}
        expression = "SET " + ", ".join(f"made.{name} = :yes" for name in names)
        self.update(
            _key(tournament_id), expression, "attribute_exists(made)", names=names, values={":yes": {"BOOL": True}}
        )

    def _move(self, tournament: Tournament, after: State, changes: dict[str, Any], entries: bool = False) -> bool:
        """From ``tournament``'s state to ``after`` (conditional on the state it was read in, and with
        ``entries`` on its number of entries too: a start seats exactly the players it read)."""
        if tournament.public:  # its place in the listing follows its state
            changes = {**changes, "list_key": f"{tournament.game}#{after.value}"}
        names = {"#state": "state", **{f"#{name}": name for name in changes}}
        values = {":before": {"S": tournament.state.value}, ":after": {"S": after.value}}
        values.update({f":{name}": to_attribute(value) for name, value in changes.items()})
        if entries:
            values[":count"] = {"N": str(len(tournament.entries))}
        expression = "SET " + ", ".join(["#state = :after", *(f"#{name} = :{name}" for name in changes)])
        condition = "#state = :before" + (" AND entry_count = :count" if entries else "")
        return self.update(_key(tournament.id), expression, condition, names=names, values=values) is not None

    def link_game(self, game_id: str, tournament_id: str) -> None:
        record = {"pk": "g#" + game_id, "sk": "L", "tournament_id": tournament_id}
        call("put_item", TableName=self.table, Item=to_item(with_version(record, SCHEMA_VERSION)))

    def tournament_of(self, game_id: str) -> str | None:
        key = {"pk": {"S": "g#" + game_id}, "sk": {"S": "L"}}
        item = read("get_item", TableName=self.table, Key=key).get("Item")
        return None if item is None else str(upgrade(from_item(item))["tournament_id"])

    def record_result(self, tournament_id: str, result: GameResult) -> bool:
        record = {"pk": "t#" + tournament_id, "sk": RESULT_PREFIX + result.game_id, **asdict(result)}
        answer = call(
            "put_item",
            TableName=self.table,
            Item=to_item(with_version(record, SCHEMA_VERSION)),
            ConditionExpression="attribute_not_exists(sk)",
        )
        return answer is not None

    def listed(self, game: str, state: State, limit: int) -> list[Tournament]:
        answer = read(
            "query",
            TableName=self.table,
            IndexName=LIST_INDEX,
            KeyConditionExpression="list_key = :key",
            ExpressionAttributeValues={":key": {"S": f"{game}#{state.value}"}},
            Limit=limit,
        )
        return [read_tournament(item) for item in answer.get("Items", ())]

    def _explain(self, tournament_id: str, refuse: Any) -> Tournament:
        """After a refused conditional write: read the item and raise the refusal that explains it."""
        found = self.get(tournament_id)
        if found is None:
            raise TournamentNotFound("no tournament has this id")
        refuse(found)
        return found
