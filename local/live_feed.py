"""The streams into LiveFanoutFunction for ``make run``, as AWS wires them (template.yaml's event sources): the
games table's (INSERTs of event items) and the tournaments table's (its tournament, result and link items,
inserted or modified, with their old images), each on a thread of its own (local/streams.py), given the items
each invocation wrote as soon as it ends (or poked to scan, when they are not known)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from local import streams

#: The functions whose writes make a feeder scan its table at once when they are not reported (it also scans
#: every few seconds).
GAMES_WRITERS = frozenset({"GamesFunction"})
TOURNAMENTS_WRITERS = frozenset({"TournamentsFunction", "TournamentResultsFunction", "TournamentScheduleFunction"})


class LiveFeed:
    def __init__(self, games: streams.StreamFeeder, tournaments: streams.StreamFeeder | None):
        self.games = games
        self.tournaments = tournaments

    def after_request(self, function_name: str, writes: list[dict[str, Any]] | None = None) -> None:
        """The items the function wrote go to the feeders at once; when they are not known (a packaged build's
        function), a writer of a table makes its feeder scan it."""
        for feeder, writers in ((self.games, GAMES_WRITERS), (self.tournaments, TOURNAMENTS_WRITERS)):
            if feeder is None:
                continue
            if writes is not None:
                feeder.offer(writes)
            elif function_name in writers:
                feeder.poke()

    def stop(self) -> None:
        self.games.stop()
        if self.tournaments is not None:
            self.tournaments.stop()


class ChangeTail(streams.TableTail):
    """A ``TableTail`` that also finds the items changed since it last looked (a ``NEW_AND_OLD_IMAGES`` stream's
    ``MODIFY`` records, the old image the one it saw last): for small tables (the tournaments')."""

    def __init__(self, client: Callable[[], Any], table: str, key_names: tuple[str, ...] = ("pk", "sk")):
        super().__init__(client, table, key_names)
        self.images: dict[tuple[Any, ...], dict[str, Any]] = {}

    def records_of(self, items: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        records = []
        for item in items:
            key = self._key(item)
            old = self.images.get(key)
            if old == item:
                continue
            self.images[key] = item
            if keep(item):
                self.sequence += 1
                record = streams.insert_record(item, self.table, self.key_names, self.sequence)
                if old is not None:
                    record["eventName"] = "MODIFY"
                    record["dynamodb"].update(OldImage={name: streams.stream_json(value) for name, value in old.items()},
                                              StreamViewType="NEW_AND_OLD_IMAGES")  # fmt: skip
                records.append(record)
        return records

    def forget(self, key: tuple[Any, ...]) -> None:
        self.images.pop(key, None)


def tournament_items(item: dict[str, Any]) -> bool:
    """What the fan-out's tournaments event source lets through: the tournament item, results and game links."""
    sort_key = str(item.get("sk", {}).get("S", ""))
    return sort_key in ("A", "L") or sort_key.startswith("R#")


def start_feed(server: Any) -> LiveFeed | None:
    """The fan-out's streams for the runner's ``server``, or None without a local DynamoDB or a fan-out function."""
    endpoint = os.environ.get("DYNAMODB_ENDPOINT")
    fanout = server.api.template.functions.get("LiveFanoutFunction")
    if not endpoint or fanout is None or server.live is None:
        return None
    poll = float(os.environ.get(streams.POLL_SECONDS_VARIABLE) or 5.0)

    def feeder(tail: streams.TableTail, keep: Any) -> streams.StreamFeeder:
        deliver = lambda event: server.api.invoke("LiveFanoutFunction", event, background=True)  # noqa: E731
        started = streams.StreamFeeder(tail, deliver, keep=keep, poll_seconds=poll).start()
        streams.RUNNING.remove(started)  # ``stream_looks`` counts the notifications' looks, which tests wait on
        return started

    client = lambda: streams.local_client(endpoint)  # noqa: E731
    games = feeder(streams.TableTail(client, fanout.environment.get("GAMES_TABLE", "GamesTable")), streams.event_items)
    tournaments_table = fanout.environment.get("TOURNAMENTS_TABLE")
    tournaments = feeder(ChangeTail(client, tournaments_table), tournament_items) if tournaments_table else None
    return LiveFeed(games, tournaments)
