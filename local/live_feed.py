"""The streams into LiveFanoutFunction for ``make run``, as AWS wires them (template.yaml's event sources): the
games table's (INSERTs of event items) and the tournaments table's (its tournament, result and link items,
inserted or modified, with their old images), each on a thread of its own (local/streams.py), poked after each
request to a function that writes that table."""

from __future__ import annotations

import os
from typing import Any

from local import streams

#: The functions after which each feeder looks at once (it also looks every few seconds: a league's games,
#: made by the tournaments function, are found then).
GAMES_WRITERS = frozenset({"GamesFunction"})
TOURNAMENTS_WRITERS = frozenset({"TournamentsFunction", "TournamentResultsFunction", "TournamentScheduleFunction"})


class LiveFeed:
    def __init__(self, games: streams.StreamFeeder, tournaments: streams.StreamFeeder | None):
        self.games = games
        self.tournaments = tournaments

    def after_request(self, function_name: str) -> None:
        if function_name in GAMES_WRITERS:
            self.games.poke()
        if self.tournaments is not None and function_name in TOURNAMENTS_WRITERS:
            self.tournaments.poke()

    def stop(self) -> None:
        self.games.stop()
        if self.tournaments is not None:
            self.tournaments.stop()


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
    tournaments = feeder(streams.ChangeTail(client, tournaments_table), tournament_items) if tournaments_table else None
    return LiveFeed(games, tournaments)
