"""A walk through everything a player can make ubao store, on moto with the template's tables, through the
functions' own handlers: then every table is scanned for the attributes its items hold.

The privacy page must name each of them (``test_privacy_page``). A new table or a new stored attribute fails
that test until the page names it; a table the tour leaves empty fails it too, so a new table brings its part
of the tour with it.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict

from tests.games.client import Answer, Api, invoke
from tests.push.conftest import browser_keys

FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
PUSH_ENDPOINT = "https://fcm.googleapis.com/fcm/send/privacy-tour"


def call(handler, function: str, method: str, path: str, body=None, token: str | None = None) -> Answer:
    return invoke(handler.create_app(), function, method, path, body=body, token=token, host="127.0.0.1:3000")


def walk(games_handler, puzzles_handler, push_handler, community_handler) -> None:
    """Every kind of item: players with names, a rated game to its end, a block, a rematch offer, a seek, a
    review asked for, a push subscription, a puzzle attempt, rate-limit buckets, and the community's items."""
    api = Api(games_handler)
    white, black, third = api.new_player("Asha"), api.new_player("Baraka"), api.new_player("Chausiku")
    created = api.create(white["token"], "chess", "white", rated=True).body
    game_id = created["game"]["id"]
    assert api.join(black["token"], game_id, created["invite"]["code"]).status == 200
    reaction = {"reaction": "good_game"}
    assert api.call("POST", f"/v1/games/{game_id}/reactions", reaction, token=black["token"]).status == 200
    assert api.call("POST", f"/v1/games/{game_id}/reactions/mute", {"muted": True}, token=white["token"]).status == 200
    api.play(game_id, {"white": white["token"], "black": black["token"]}, FOOLS_MATE)
    assert api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "offer"}, token=white["token"]).status == 200
    assert api.call("POST", f"/v1/games/{game_id}/review", {}, token=white["token"]).status in (200, 202)
    assert api.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=black["token"]).status == 201
    seek = {"game": "tanzanian", "rated": True}
    assert api.call("POST", "/v1/seeks", seek, token=third["token"]).status == 201
    subscription = {"endpoint": PUSH_ENDPOINT, "expirationTime": None, "keys": browser_keys(), "lang": "sw"}
    path = "/v1/players/me/push-subscriptions"
    assert call(push_handler, "PushFunction", "POST", path, subscription, white["token"]).status == 201
    attempt = call(
        puzzles_handler,
        "PuzzlesFunction",
        "POST",
        "/v1/puzzles/chess-000Zo/attempt",
        {"moves": ["Re1+", "Rf1#"]},
        white["token"],
    )
    assert attempt.status == 200, attempt.body
    walk_live(games_handler.overrides, white["token"], game_id)
    if community_handler is not None:
        from tests.privacy.community_tour import walk_community

        walk_community(community_handler, white, black, third, game_id)
    # -- tournaments (issue 40) --
    from tests.privacy.tournament_tour import walk_tournaments

    walk_tournaments(games_handler, white, black, third)
    # -- clubs (issue 42) --
    from tests.privacy.club_tour import walk_clubs

    walk_clubs(games_handler.overrides, white, third)


def walk_live(overrides: dict, token: str, game_id: str) -> None:
    """A live socket: a ticket left unused, and a connection that follows the game (its slots too)."""
    from common.web.depends import clock
    from live import handler as live
    from live.games import StoredGameViews
    from live.repository import DynamoLive
    from live.service import LiveService

    from tests.fixtures import Function

    tickets = [
        call(Function(live, overrides), "LiveTicketsFunction", "POST", "/v1/live/tickets", {}, token) for _ in range(2)
    ]
    assert all(answer.status == 201 for answer in tickets), tickets[0].body
    service = LiveService(DynamoLive(), StoredGameViews(), clock=overrides[clock]())
    connect = {
        "requestContext": {"routeKey": "$connect", "connectionId": "tour", "eventType": "CONNECT"},
        "headers": {},
    }
    connect["queryStringParameters"] = {"ticket": tickets[0].body["ticket"]}
    opened = live.handle_socket(connect, service)
    assert opened["statusCode"] == 200, opened
    subscribe = {
        "requestContext": {"routeKey": "subscribe", "connectionId": "tour", "eventType": "MESSAGE"},
        "isBase64Encoded": False,
    }
    subscribe["body"] = json.dumps({"action": "subscribe", "game": game_id, "ply": 0})
    assert live.handle_socket(subscribe, service)["statusCode"] == 200


def stored_attributes(tables: list[str]) -> dict[str, set[str]]:
    """Each table's attribute names over all its items (the table named as in template.yaml)."""
    from common.persistence import store

    found: dict[str, set[str]] = defaultdict(set)
    for table in tables:
        pages = store.client().get_paginator("scan").paginate(TableName=table)
        for page in pages:
            for item in page["Items"]:
                found[table].update(item)
    return dict(found)


def table_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name.endswith("_TABLE")}
