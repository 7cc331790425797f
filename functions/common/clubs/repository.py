"""Where clubs are kept: ``ClubRepository`` (the protocol), ``InMemoryClubs`` (the unit tests' and the contract's
reference) and ``DynamoClubs`` on ``ClubsTable`` (template.yaml, ``CLUBS_TABLE``):

* ``pk = "club#<id>"``, ``sk = "club"``: the club (name, game, owner, code, created) and ``member_ids``, a string
  set of its members' ids: the one authority on membership and its size.
* ``pk = "club#<id>"``, ``sk = "member#<player id>"``: a member's name and when they joined (for the page).
* ``pk = "club#<id>"``, ``sk = "tournament#<id>"``: a tournament for the club's members.
* ``pk = "player#<id>"``, ``sk = "clubs"``: ``club_ids``, a string set of the clubs the player is in.

No transactions, so the two limits are each one single-item conditional ``UpdateItem`` on the set they bound:
a join first takes a place in the player's set (``size(club_ids) < 20``, or the club is in it already), then
in the club's (``size(member_ids) < 500`` and the code still the club's, or the player is in it already);
when the second is refused, the first is given back. However many joins race, neither set grows past its
limit. A crash between the two leaves a place in the player's set without a membership: it counts towards the
20 until the player's list of clubs (``clubs_of``) finds the club does not list them and gives it back.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import replace
from typing import Any, Protocol

from common.clubs.domain import Club, ClubPage, ClubTournament, Member
from common.persistence.attributes import split_version, with_version
from common.persistence.store import call, from_item, put, query_all, read, to_item
from common.persistence.table import DynamoTable, item_key

CLUB, PLAYER, MEMBER, TOURNAMENT = "club#", "player#", "member#", "tournament#"
#: 1: the layout above.
SCHEMA_VERSION = 1


def upgrade(item: dict[str, Any]) -> dict[str, Any]:
    """A stored item in the current layout (there is one so far)."""
    _version, record = split_version(item)
    return record


class ClubRepository(Protocol):
    def create(self, club: Club, owner: Member) -> bool:
        """Store a new club with its owner as its one member; False when the id is taken."""
        ...

    def club(self, club_id: str) -> Club | None: ...

    def page(self, club_id: str) -> ClubPage | None:
        """The club, its members (oldest first) and its tournaments (newest first): one Query."""
        ...

    def take_place(self, player_id: str, club_id: str, limit: int) -> bool:
        """Add the club to the player's clubs unless they are in ``limit`` others; True if it is there now."""
        ...

    def give_place(self, player_id: str, club_id: str) -> None: ...

    def places(self, player_id: str) -> set[str]:
        """The ids of the clubs the player holds a place in."""
        ...

    def add_member(self, club_id: str, code: str, member: Member, limit: int) -> bool | None:
        """Add the member if ``code`` is the club's and it has fewer than ``limit`` members: True joined now,
        False a member already, None refused (no club, another code, full: read the club to tell which)."""
        ...

    def remove_member(self, club_id: str, player_id: str) -> bool:
        """Take the player out of the club; whether they were in it."""
        ...

    def renew_code(self, club_id: str, owner: str, code: str) -> bool:
        """Give the club a new code if ``owner`` owns it; whether it did."""
        ...

    def delete(self, club_id: str, owner: str) -> bool:
        """Delete the club if ``owner`` owns it and is its only member; whether it did."""
        ...

    def clubs(self, club_ids: list[str]) -> list[Club]:
        """These clubs (those that exist), in no particular order."""
        ...

    def add_tournament(self, club_id: str, tournament: ClubTournament) -> None: ...


class InMemoryClubs:
    """A ``ClubRepository`` in dicts, with the same conditions as DynamoDB's."""

    def __init__(self) -> None:
        self.stored: dict[str, Club] = {}
        self.members: dict[str, dict[str, Member]] = {}
        self.tournaments: dict[str, dict[str, ClubTournament]] = {}
        self.player_places: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def create(self, club: Club, owner: Member) -> bool:
        with self._lock:
            if club.id in self.stored:
                return False
            self.stored[club.id] = replace(club, member_ids=frozenset({owner.player_id}))
            self.members[club.id] = {owner.player_id: owner}
            return True

    def club(self, club_id: str) -> Club | None:
        return self.stored.get(club_id)

    def page(self, club_id: str) -> ClubPage | None:
        club = self.stored.get(club_id)
        if club is None:
            return None
        members = sorted(self.members.get(club_id, {}).values(), key=lambda member: (member.joined, member.player_id))
        held = tuple(member for member in members if member.player_id in club.member_ids)
        tournaments = sorted(self.tournaments.get(club_id, {}).values(), key=lambda t: (-t.created, t.tournament_id))
        return ClubPage(club, held, tuple(tournaments))

    def take_place(self, player_id: str, club_id: str, limit: int) -> bool:
        with self._lock:
            places = self.player_places.setdefault(player_id, set())
            if club_id not in places and len(places) >= limit:
                return False
            places.add(club_id)
            return True

    def give_place(self, player_id: str, club_id: str) -> None:
        with self._lock:
            self.player_places.get(player_id, set()).discard(club_id)

    def places(self, player_id: str) -> set[str]:
        return set(self.player_places.get(player_id, set()))

    def add_member(self, club_id: str, code: str, member: Member, limit: int) -> bool | None:
        with self._lock:
            club = self.stored.get(club_id)
            if club is None or club.code != code:
                return None
            if member.player_id in club.member_ids:
                return False
            if len(club.member_ids) >= limit:
                return None
            self.stored[club_id] = replace(club, member_ids=club.member_ids | {member.player_id})
            self.members.setdefault(club_id, {}).setdefault(member.player_id, member)
            return True

    def remove_member(self, club_id: str, player_id: str) -> bool:
        with self._lock:
            club = self.stored.get(club_id)
            if club is None or player_id not in club.member_ids:
                return False
            self.stored[club_id] = replace(club, member_ids=club.member_ids - {player_id})
            self.members.get(club_id, {}).pop(player_id, None)
            return True

    def renew_code(self, club_id: str, owner: str, code: str) -> bool:
        with self._lock:
            club = self.stored.get(club_id)
            if club is None or club.owner != owner:
                return False
            self.stored[club_id] = replace(club, code=code)
            return True

    def delete(self, club_id: str, owner: str) -> bool:
        with self._lock:
            club = self.stored.get(club_id)
            if club is None or club.owner != owner or len(club.member_ids) > 1:
                return False
            for kept in (self.stored, self.members, self.tournaments):
                kept.pop(club_id, None)
            return True

    def clubs(self, club_ids: list[str]) -> list[Club]:
        return [copy.copy(self.stored[club_id]) for club_id in club_ids if club_id in self.stored]

    def add_tournament(self, club_id: str, tournament: ClubTournament) -> None:
        self.tournaments.setdefault(club_id, {})[tournament.tournament_id] = tournament


def _club_of(record: dict[str, Any]) -> Club:
    return Club(
        id=str(record["pk"]).removeprefix(CLUB),
        name=str(record["name"]),
        game=record["game"],
        owner=str(record["owner"]),
        code=str(record["code"]),
        created=int(record["created"]),
        member_ids=frozenset(record.get("member_ids") or ()),
    )


def _member_of(record: dict[str, Any]) -> Member:
    return Member(str(record["sk"]).removeprefix(MEMBER), record.get("name"), int(record["joined"]))


def _tournament_of(record: dict[str, Any]) -> ClubTournament:
    return ClubTournament(
        tournament_id=str(record["sk"]).removeprefix(TOURNAMENT),
        name=record.get("name"),
        game=str(record["game"]),
        format=str(record["format"]),
        created=int(record["created"]),
    )


class DynamoClubs(DynamoTable, env="CLUBS_TABLE", default="ClubsTable"):
    """``ClubRepository`` on DynamoDB: every write one single-item (conditional) write."""

    def _update(self, key: dict[str, Any], expression: str, condition: str, **values: Any) -> dict[str, Any] | None:
        """One conditional UpdateItem; ``values`` by placeholder name (``member`` is ``:member``); the
        attributes the expressions name as ``#owner``, ``#code``, ``#members``, ``#clubs``."""
        names = {"#owner": "owner", "#code": "code", "#members": "member_ids", "#clubs": "club_ids"}
        text = expression + " " + condition
        return self.update(
            key,
            expression,
            condition,
            names={name: value for name, value in names.items() if name in text},
            values={f":{name}": value for name, value in values.items()},
            returns="ALL_OLD",
        )

    def create(self, club: Club, owner: Member) -> bool:
        record = {
            "pk": CLUB + club.id,
            "sk": "club",
            "name": club.name,
            "game": club.game,
            "owner": club.owner,
            "code": club.code,
            "created": club.created,
        }
        item = to_item(with_version(record, SCHEMA_VERSION)) | {"member_ids": {"SS": [owner.player_id]}}
        made = call("put_item", TableName=self.table, Item=item, ConditionExpression="attribute_not_exists(pk)")
        if made is None:
            return False
        self._put_member(club.id, owner)
        return True

    def _put_member(self, club_id: str, member: Member) -> None:
        record = {"pk": CLUB + club_id, "sk": MEMBER + member.player_id, "name": member.name, "joined": member.joined}
        put(self.table, record, SCHEMA_VERSION, "attribute_not_exists(sk)")

    def club(self, club_id: str) -> Club | None:
        answer = read("get_item", TableName=self.table, Key=item_key(CLUB + club_id, "club"), ConsistentRead=True)
        return _club_of(upgrade(from_item(answer["Item"]))) if "Item" in answer else None

    def page(self, club_id: str) -> ClubPage | None:
        records = [
            upgrade(from_item(item))
            for item in query_all(
                TableName=self.table,
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": CLUB + club_id}},
                ConsistentRead=True,
            )
        ]
        found = [record for record in records if record["sk"] == "club"]
        if not found:
            return None
        club = _club_of(found[0])
        members = [_member_of(r) for r in records if str(r["sk"]).startswith(MEMBER)]
        held = sorted((m for m in members if m.player_id in club.member_ids), key=lambda m: (m.joined, m.player_id))
        tournaments = [_tournament_of(r) for r in records if str(r["sk"]).startswith(TOURNAMENT)]
        return ClubPage(club, tuple(held), tuple(sorted(tournaments, key=lambda t: (-t.created, t.tournament_id))))

    def take_place(self, player_id: str, club_id: str, limit: int) -> bool:
        answer = self._update(
            item_key(PLAYER + player_id, "clubs"),
            "ADD #clubs :club SET schema_version = :version",
            "attribute_not_exists(#clubs) OR contains(#clubs, :id) OR size(#clubs) < :limit",
            club={"SS": [club_id]},
            id={"S": club_id},
            limit={"N": str(limit)},
            version={"N": str(SCHEMA_VERSION)},
        )
        return answer is not None

    def give_place(self, player_id: str, club_id: str) -> None:
        self.update(item_key(PLAYER + player_id, "clubs"), "DELETE club_ids :club", values={":club": {"SS": [club_id]}})

    def places(self, player_id: str) -> set[str]:
        key = item_key(PLAYER + player_id, "clubs")
        answer = read("get_item", TableName=self.table, Key=key, ConsistentRead=True)
        return set(from_item(answer["Item"]).get("club_ids") or ()) if "Item" in answer else set()

    def add_member(self, club_id: str, code: str, member: Member, limit: int) -> bool | None:
        answer = self._update(
            item_key(CLUB + club_id, "club"),
            "ADD #members :member",
            "attribute_exists(pk) AND #code = :code AND (contains(#members, :id) OR size(#members) < :limit)",
            member={"SS": [member.player_id]},
            id={"S": member.player_id},
            code={"S": code},
            limit={"N": str(limit)},
        )
        if answer is None:
            return None
        self._put_member(club_id, member)  # again after a crash between the two: the first date stays
        before = answer.get("Attributes", {}).get("member_ids", {}).get("SS", [])
        return member.player_id not in before

    def remove_member(self, club_id: str, player_id: str) -> bool:
        answer = self._update(
            item_key(CLUB + club_id, "club"),
            "DELETE #members :member",
            "contains(#members, :id)",
            member={"SS": [player_id]},
            id={"S": player_id},
        )
        call("delete_item", TableName=self.table, Key=item_key(CLUB + club_id, MEMBER + player_id))
        return answer is not None

    def renew_code(self, club_id: str, owner: str, code: str) -> bool:
        answer = self._update(
            item_key(CLUB + club_id, "club"),
            "SET #code = :code",
            "#owner = :owner",
            code={"S": code},
            owner={"S": owner},
        )
        return answer is not None

    def delete(self, club_id: str, owner: str) -> bool:
        gone = call(
            "delete_item",
            TableName=self.table,
            Key=item_key(CLUB + club_id, "club"),
            ConditionExpression="#owner = :owner AND size(#members) <= :one",
            ExpressionAttributeNames={"#owner": "owner", "#members": "member_ids"},
            ExpressionAttributeValues={":owner": {"S": owner}, ":one": {"N": "1"}},
        )
        if gone is None:
            return False
        rest = query_all(
            TableName=self.table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": CLUB + club_id}},
            ProjectionExpression="pk, sk",
        )
        for item in rest:
            call("delete_item", TableName=self.table, Key={"pk": item["pk"], "sk": item["sk"]})
        return True

    def clubs(self, club_ids: list[str]) -> list[Club]:
        keys = [item_key(CLUB + club_id, "club") for club_id in dict.fromkeys(club_ids)]
        found: list[Club] = []
        while keys:
            asked, keys = keys[:100], keys[100:]
            answer = read("batch_get_item", RequestItems={self.table: {"Keys": asked, "ConsistentRead": True}})
            found += [_club_of(upgrade(from_item(item))) for item in answer["Responses"].get(self.table, [])]
            keys += answer.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return found

    def add_tournament(self, club_id: str, tournament: ClubTournament) -> None:
        record = {
            "pk": CLUB + club_id,
            "sk": TOURNAMENT + tournament.tournament_id,
            "name": tournament.name,
            "game": tournament.game,
            "format": tournament.format,
            "created": tournament.created,
        }
        put(self.table, record, SCHEMA_VERSION)
