"""What ships is what is tested: the host-platform package, served alone, answers every route of the template.

The package is built for this machine (`make package PLATFORM=host`, the same layout as the Lambda build)
and served by the local runner with each function in its own ``python -I -S`` interpreter: only the
function's code package, the layer's python/ and boto3 (the Lambda runtime's) are importable. Every route
gets its documented answer, each function a success and a refusal; then each package is checked to ship
nothing its function never imported.
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import chess
import pytest

from local.package import package_sizes
from local.smoke import Client, Reply
from local.template import Template

pytestmark = pytest.mark.xdist_group("packaged")

#: Route keys whose success needs a passed deadline (days of waiting): their documented refusal is checked.
NEEDS_A_PASSED_DEADLINE = {"POST /v1/games/{id}/claim-timeout", "POST /v1/games/{id}/cpu-takeover"}


class Calls:
    """Requests made through the packaged server, each recorded under its template route key."""

    def __init__(self, origin: str):
        # Generous: a cold start here is a fresh interpreter importing everything, on a machine under load.
        self.client = Client(origin, timeout=120)
        self.seen: dict[str, set[int]] = {}

    def __call__(self, route: str, status: int, path: str | None = None, body=None, token=None, method=None) -> Reply:
        route_method, template_path = route.split(" ", 1)
        reply = self.client.call(method or route_method, path or template_path, body, token)
        assert reply.status == status, f"{route} ({path}): expected {status}, got {reply.status}: {reply.text[:300]}"
        if reply.headers.get("content-type", "").startswith("application/json") and status >= 400:
            assert set(reply.json["error"]) >= {"code", "message"}, reply.text
        self.seen.setdefault(route, set()).add(status)
        return reply


@pytest.fixture(scope="module")
def local_pushes():
    from local.push_service import PushService

    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def served(packaged_server, local_pushes) -> Calls:
    """Every route of the template called through the packaged build; the calls, by route and status."""
    call = Calls(packaged_server.origin)
    # validate
    assert call("POST /v1/validate", 200, body={"game": "chess", "move": "e4"}).json["legal"] is True
    call("POST /v1/validate", 422, body={"game": "go", "move": "e4"})
    # rules pages: the site's templates, content and compiled catalogs, in each language
    for lang in ("sw", "tl", "en"):
        page = call("GET /v1/rules/{game}", 200, f"/v1/rules/chess?lang={lang}")
        assert page.headers["content-type"].startswith("text/html") and f'<html lang="{lang}"' in page.text
        assert page.headers["content-language"] == lang
    assert "Sheria" in call("GET /v1/rules/{game}", 200, "/v1/rules/tanzanian?lang=sw").text
    call("GET /v1/rules/{game}", 404, "/v1/rules/go?lang=sw")
    call("GET /v1/rules/{game}", 422, "/v1/rules/chess?lang=xx")
    # players
    asha = call("POST /v1/players", 201, body={"name": "Asha"}).json["token"]
    baraka = call("POST /v1/players", 201, body={"name": "Baraka"}).json["token"]
    call("POST /v1/players", 422, body={"name": "x" * 500})
    call("PATCH /v1/players/me", 200, body={"name": "Asha K"}, token=asha)
    call("PATCH /v1/players/me", 401, body={"name": "nobody"})
    call("GET /v1/players/me/games", 401)
    mine = call("GET /v1/players/me", 200, token=asha).json
    unknown = {"country": None, "country_hidden": False}  # no CloudFront-Viewer-Country header
    assert {**mine, "player_id": None} == {"player_id": None, "name": "Asha K", **unknown, "ratings": {}}
    call("GET /v1/players/me", 401)
    assert (
        call("GET /v1/players/me/ratings/{game}", 200, "/v1/players/me/ratings/chess", token=asha).json["points"] == []
    )
    call("GET /v1/players/me/ratings/{game}", 422, "/v1/players/me/ratings/go", token=asha)
    assert call("GET /v1/leaderboard", 200, "/v1/leaderboard?game=english").json["players"] == []
    call("GET /v1/leaderboard", 422, "/v1/leaderboard?game=go")
    # a game from invitation to rematch
    created = call("POST /v1/games", 201, body={"game": "chess", "color": "white"}, token=asha).json
    game = created["game"]["id"]
    call("POST /v1/games", 401, body={"game": "chess"})
    call("GET /v1/games/{id}", 200, f"/v1/games/{game}")
    call("GET /v1/games/{id}", 404, "/v1/games/AAAAAAAAAAAA")
    assert call("GET /v1/games/{id}/moves", 200, f"/v1/games/{game}/moves?before=2").json["moves"] == []
    call("GET /v1/games/{id}/moves", 422, f"/v1/games/{game}/moves?before=0")
    call("POST /v1/games/{id}/join", 409, f"/v1/games/{game}/join", {"invite": created["invite"]["code"]}, asha)
    call("POST /v1/games/{id}/join", 200, f"/v1/games/{game}/join", {"invite": created["invite"]["code"]}, baraka)
    assert [item["id"] for item in call("GET /v1/players/me/games", 200, token=asha).json["games"]] == [game]
    # history, profiles and Tazama (issue 41)
    assert [item["id"] for item in call("GET /v1/players/me/history", 200, token=asha).json["games"]] == [game]
    call("GET /v1/players/me/history", 401)
    call("GET /v1/players/me/history", 422, "/v1/players/me/history?result=won", token=asha)
    call("GET /v1/players/{id}/games", 200, "/v1/players/someone/games")
    call("GET /v1/players/{id}/games", 422, "/v1/players/someone/games?kind=blitz")
    assert call("GET /v1/players/{id}", 404, "/v1/players/someone").json["error"]["code"] == "player_not_found"
    call("GET /v1/players/{id}", 422, "/v1/players/" + "x" * 40)
    call("GET /v1/games/live", 200, "/v1/games/live?game=chess")
    call("GET /v1/games/live", 422, "/v1/games/live?game=go")
    call("POST /v1/games/{id}/moves", 200, f"/v1/games/{game}/moves", {"move": "e4", "ply": 0}, asha)
    call("POST /v1/games/{id}/moves", 422, f"/v1/games/{game}/moves", {"move": "e4", "ply": 1}, baraka)
    call("POST /v1/games/{id}/draw", 409, f"/v1/games/{game}/draw", {"action": "accept"}, baraka)
    call("POST /v1/games/{id}/draw", 200, f"/v1/games/{game}/draw", {"action": "offer"}, asha)
    call("POST /v1/games/{id}/draw", 200, f"/v1/games/{game}/draw", {"action": "decline"}, baraka)
    call("POST /v1/games/{id}/claim-timeout", 409, f"/v1/games/{game}/claim-timeout", token=asha)
    call("POST /v1/games/{id}/cpu-takeover", 409, f"/v1/games/{game}/cpu-takeover", token=asha)
    call("POST /v1/games/{id}/resume", 200, f"/v1/games/{game}/resume", token=asha)  # 200 when already yours
    call("POST /v1/games/{id}/resume", 401, f"/v1/games/{game}/resume")
    call("POST /v1/games/{id}/open", 200, f"/v1/games/{game}/open", token=asha)  # by correspondence: nothing to open
    call("POST /v1/games/{id}/open", 401, f"/v1/games/{game}/open")
    call("POST /v1/games/{id}/rematch", 409, f"/v1/games/{game}/rematch", token=asha)  # not finished yet
    call("POST /v1/games/{id}/review", 409, f"/v1/games/{game}/review", token=asha)  # not finished yet
    call("GET /v1/games/{id}/review", 404, f"/v1/games/{game}/review")  # nobody asked yet
    call("POST /v1/games/{id}/resign", 200, f"/v1/games/{game}/resign", token=baraka)
    call("POST /v1/games/{id}/resign", 401, f"/v1/games/{game}/resign")
    offered = call("POST /v1/games/{id}/rematch", 200, f"/v1/games/{game}/rematch", token=asha).json["game"]
    assert offered["id"] == game and offered["rematch_offer"] == "white"  # nothing made until Baraka accepts
    rematch = call("POST /v1/games/{id}/rematch", 201, f"/v1/games/{game}/rematch", {"action": "accept"}, baraka)
    assert rematch.json["game"]["rematch_of"] == game
    # fair play: a game is aborted while neither side has made two moves; the finished one no longer
    second = rematch.json["game"]["id"]
    aborted = call("POST /v1/games/{id}/abort", 200, f"/v1/games/{second}/abort", token=baraka).json
    assert aborted["state"] == "finished" and aborted["status"]["result"] == "aborted"
    over = call("POST /v1/games/{id}/abort", 409, f"/v1/games/{game}/abort", token=asha)
    assert over.json["error"]["code"] == "game_over"
    block = call("POST /v1/players/me/blocks", 201, body={"game": game}, token=baraka).json
    call("POST /v1/players/me/blocks", 401, body={"game": game})
    assert [item["id"] for item in call("GET /v1/players/me/blocks", 200, token=baraka).json["blocks"]] == [block["id"]]
    call("GET /v1/players/me/blocks", 401)
    call("DELETE /v1/players/me/blocks/{id}", 204, f"/v1/players/me/blocks/{block['id']}", token=baraka)
    call("DELETE /v1/players/me/blocks/{id}", 404, f"/v1/players/me/blocks/{block['id']}", token=baraka)
    assert call("POST /v1/games/{id}/review", 202, f"/v1/games/{game}/review", token=asha).json["status"] == "pending"
    call("GET /v1/games/{id}/review", 200, f"/v1/games/{game}/review")
    # the lobby: a seek offered, listed, polled, accepted and another withdrawn
    seek = call("POST /v1/seeks", 201, body={"game": "tanzanian", "rated": True}, token=asha).json["seek"]
    call("POST /v1/seeks", 401, body={"game": "tanzanian", "rated": True})
    assert [item["id"] for item in call("GET /v1/seeks", 200, "/v1/seeks?game=tanzanian").json["seeks"]] == [seek["id"]]
    call("GET /v1/seeks", 422, "/v1/seeks?game=go")
    call("GET /v1/seeks/{id}", 200, f"/v1/seeks/{seek['id']}", token=asha)
    call("GET /v1/seeks/{id}", 404, "/v1/seeks/AAAAAAAAAAAAAAAA")
    call("POST /v1/seeks/{id}/accept", 409, f"/v1/seeks/{seek['id']}/accept", token=asha)  # her own
    call("POST /v1/seeks/{id}/accept", 201, f"/v1/seeks/{seek['id']}/accept", token=baraka)
    other = call("POST /v1/seeks", 201, body={"game": "chess", "rated": False}, token=asha).json["seek"]
    call("DELETE /v1/seeks/{id}", 403, f"/v1/seeks/{other['id']}", token=baraka)
    call("DELETE /v1/seeks/{id}", 200, f"/v1/seeks/{other['id']}", token=asha)
    export = call("GET /v1/games/{id}/export", 200, f"/v1/games/{game}/export")
    assert "1. e4" in export.text and '[Result "1-0"]' in export.text
    call("GET /v1/games/{id}/export", 404, "/v1/games/AAAAAAAAAAAA/export")
    # community: follows (the other player of a game), feedback and my data
    followed = call("POST /v1/players/me/follows", 201, body={"game": game}, token=asha).json
    assert followed["name"] == "Baraka" and followed["friend"] is False
    call("POST /v1/players/me/follows", 422, body={"game": game, "player": followed["player_id"]}, token=asha)
    follows = call("GET /v1/players/me/follows", 200, token=asha).json
    assert [item["player_id"] for item in follows["follows"]] == [followed["player_id"]]
    call("GET /v1/players/me/follows", 401)
    unfollow = {"player": followed["player_id"]}
    assert call("DELETE /v1/players/me/follows", 200, body=unfollow, token=asha).json == {"unfollowed": True}
    call("DELETE /v1/players/me/follows", 404, body=unfollow, token=asha)  # no longer followed
    feedback = {"category": "idea", "text": "Mashindano ya kila wiki, tafadhali", "lang": "sw"}
    assert call("POST /v1/feedback", 201, body=feedback).json["received"] is True
    call("POST /v1/feedback", 422, body={**feedback, "category": "spam"})
    mine = call("GET /v1/players/me/export", 200, token=asha)
    assert "token_hash" not in mine.json["player"] and mine.json["follows"] == []
    assert mine.headers["content-disposition"].startswith("attachment")
    call("GET /v1/players/me/export", 401)
    # friends (mutual follows), a direct challenge accepted, reactions in its game, a profile, delete my data
    baraka_id = followed["player_id"]
    asha_id = call("POST /v1/players/me/follows", 201, body={"game": game}, token=baraka).json["player_id"]
    call("POST /v1/players/me/follows", 201, body={"player": baraka_id}, token=asha)
    assert [item["player_id"] for item in call("GET /v1/players/me/friends", 200, token=asha).json["friends"]] == [
        baraka_id
    ]
    call("GET /v1/players/me/friends", 401)
    offer = {"player": baraka_id, "game": "chess", "color": "white"}
    sent = call("POST /v1/players/me/challenges", 201, body=offer, token=asha).json
    call("POST /v1/players/me/challenges", 422, body={**offer, "game": "go"}, token=asha)
    assert [item["id"] for item in call("GET /v1/players/me/challenges", 200, token=baraka).json["received"]] == [
        sent["id"]
    ]
    call("GET /v1/players/me/challenges", 401)
    challenge_path = f"/v1/players/me/challenges/{sent['id']}"
    call("POST /v1/players/me/challenges/{id}", 422, challenge_path, {"action": "maybe"}, baraka)
    played = call("POST /v1/players/me/challenges/{id}", 200, challenge_path, {"action": "accept"}, baraka).json
    reactions = f"/v1/games/{played['game_id']}/reactions"
    call("POST /v1/games/{id}/reactions", 200, reactions, {"reaction": "good_game"}, asha)
    call("POST /v1/games/{id}/reactions", 422, reactions, {"reaction": "any words at all"}, asha)
    call("POST /v1/games/{id}/reactions/mute", 200, reactions + "/mute", {"muted": True}, baraka)
    call("POST /v1/games/{id}/reactions/mute", 401, reactions + "/mute", {"muted": True})
    assert call("GET /v1/players/{id}", 200, f"/v1/players/{asha_id}").json["name"] == "Asha K"
    leaving = call("POST /v1/players", 201, body={"name": "Zawadi"}).json["token"]
    call("DELETE /v1/players/me", 200, token=leaving)
    call("DELETE /v1/players/me", 401)
    # tournaments: a private league joined by its invite and left; a public arena, its players present
    league = call("POST /v1/tournaments", 201, body={"format": "league", "game": "english", "players": 3}, token=asha)
    league_id, invite = league.json["tournament"]["id"], league.json["invite"]["code"]
    call("POST /v1/tournaments", 422, body={"format": "league", "game": "go"}, token=asha)
    joined = call(
        "POST /v1/tournaments/{id}/join", 200, f"/v1/tournaments/{league_id}/join", {"invite": invite}, baraka
    )
    assert joined.json["tournament"]["state"] == "open"
    call("POST /v1/tournaments/{id}/join", 403, f"/v1/tournaments/{league_id}/join", {}, asha)  # no invite
    call("POST /v1/tournaments/{id}/withdraw", 200, f"/v1/tournaments/{league_id}/withdraw", token=baraka)
    call("POST /v1/tournaments/{id}/withdraw", 409, f"/v1/tournaments/{league_id}/withdraw", token=baraka)
    assert call("GET /v1/tournaments/{id}", 200, f"/v1/tournaments/{league_id}").json["players"] == []
    call("GET /v1/tournaments/{id}", 404, "/v1/tournaments/AAAAAAAAAAAA")
    # a league of 3 that fills starts its games and tells its players by push
    full = call("POST /v1/tournaments", 201, body={"format": "league", "game": "english", "players": 3}, token=asha)
    full_path, full_invite = f"/v1/tournaments/{full.json['tournament']['id']}/join", full.json["invite"]["code"]
    third = call("POST /v1/players", 201, body={"name": "Chausiku"}).json["token"]
    device = {**local_pushes.subscribe().info(), "lang": "sw", "tz": "Africa/Dar_es_Salaam"}
    call("POST /v1/players/me/push-subscriptions", 201, body=device, token=third)
    for entrant in (asha, baraka, third):
        last = call("POST /v1/tournaments/{id}/join", 200, full_path, {"invite": full_invite}, entrant)
    assert last.json["tournament"]["state"] == "running"
    starts = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    arena_terms = {"format": "arena", "game": "chess", "public": True, "options": {"turn_seconds": 60}}
    arena = call("POST /v1/tournaments", 201, body={**arena_terms, "minutes": 30, "starts": starts}, token=asha)
    arena_id = arena.json["tournament"]["id"]
    listed = call("GET /v1/tournaments", 200, "/v1/tournaments?game=chess").json["tournaments"]
    assert arena_id in [item["id"] for item in listed]
    call("GET /v1/tournaments", 422, "/v1/tournaments?game=go")
    call("POST /v1/tournaments/{id}/join", 200, f"/v1/tournaments/{arena_id}/join", {}, asha)
    present = call(
        "POST /v1/tournaments/{id}/presence", 200, f"/v1/tournaments/{arena_id}/presence", {"present": True}, asha
    )
    assert present.json["your_games"] == []  # before the start: nobody is paired
    not_arena = call(
        "POST /v1/tournaments/{id}/presence", 409, f"/v1/tournaments/{league_id}/presence", {"present": True}, asha
    )
    assert not_arena.json["error"]["code"] == "not_an_arena"
    # clubs: made, joined by its code, read with its members' leaderboard, left; the owner renews the code
    club = call("POST /v1/clubs", 201, body={"name": "Simba", "game": "all"}, token=asha).json
    club_id, club_code = club["invite"].split("-")
    call("POST /v1/clubs", 422, body={"name": "Simba", "game": "go"}, token=asha)
    call("POST /v1/clubs/{id}/join", 201, f"/v1/clubs/{club_id}/join", {"code": club_code}, baraka)
    call("POST /v1/clubs/{id}/join", 422, f"/v1/clubs/{club_id}/join", {"code": "x"}, baraka)
    assert call("GET /v1/clubs/{id}", 200, f"/v1/clubs/{club_id}", token=baraka).json["members_count"] == 2
    call("GET /v1/clubs/{id}", 404, "/v1/clubs/AAAAAA")
    assert [item["id"] for item in call("GET /v1/players/me/clubs", 200, token=baraka).json["clubs"]] == [club_id]
    call("GET /v1/players/me/clubs", 401)
    renewed = call("POST /v1/clubs/{id}/code", 200, f"/v1/clubs/{club_id}/code", token=asha).json
    call("POST /v1/clubs/{id}/code", 403, f"/v1/clubs/{club_id}/code", token=baraka)
    call("POST /v1/clubs/{id}/leave", 200, f"/v1/clubs/{club_id}/leave", token=baraka)
    call("POST /v1/clubs/{id}/leave", 404, f"/v1/clubs/{club_id}/leave", token=baraka)
    rejoin = {"code": renewed["invite"].split("-")[1]}
    call("POST /v1/clubs/{id}/join", 201, f"/v1/clubs/{club_id}/join", rejoin, baraka)
    call("DELETE /v1/clubs/{id}/members/{member}", 200, f"/v1/clubs/{club_id}/members/{baraka_id}", token=asha)
    member_path = f"/v1/clubs/{club_id}/members/{club['owner']}"
    call("DELETE /v1/clubs/{id}/members/{member}", 409, member_path, token=asha)  # the owner stays
    call("DELETE /v1/clubs/{id}/members/{member}", 403, member_path, token=baraka)
    # puzzles: the sets ship with the puzzles function only
    daily = call("GET /v1/puzzles/daily", 200, "/v1/puzzles/daily?game=chess").json
    call("GET /v1/puzzles/daily", 422, "/v1/puzzles/daily?game=go")
    assert call("GET /v1/puzzles/{id}", 200, f"/v1/puzzles/{daily['id']}").json["fen"] == daily["fen"]
    call("GET /v1/puzzles/{id}", 404, "/v1/puzzles/chess-nosuchone")
    board = chess.Board(daily["fen"])
    some_move = board.san(next(iter(board.legal_moves)))
    attempt_path = f"/v1/puzzles/{daily['id']}/attempt?tz=Africa/Dar_es_Salaam"  # the tz needs tzdata
    attempt = call("POST /v1/puzzles/{id}/attempt", 200, attempt_path, {"moves": [some_move]}, asha)
    assert attempt.json["result"] in ("solved", "failed", "continue", "correct")
    call("POST /v1/puzzles/{id}/attempt", 422, f"/v1/puzzles/{daily['id']}/attempt", {"moves": ["Zz9"]}, asha)
    call("GET /v1/puzzles/next", 200, "/v1/puzzles/next?game=english", token=asha)
    call("GET /v1/puzzles/next", 401, "/v1/puzzles/next?game=english")
    assert (
        len(call("GET /v1/puzzles/pack", 200, "/v1/puzzles/pack?game=chess&count=3", token=asha).json["puzzles"]) == 3
    )
    call("GET /v1/puzzles/pack", 422, "/v1/puzzles/pack?game=chess&count=0", token=asha)
    call("GET /v1/players/me/puzzles", 200, token=asha)
    call("GET /v1/players/me/puzzles", 401)
    # push subscriptions: a key checked as a P-256 point (cryptography), a time zone (tzdata)
    subscription = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/packaged-build-test",
        "expirationTime": None,
        "keys": {"p256dh": _p256_public_key(), "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
        "lang": "sw",
        "kinds": ["your_move", "daily_puzzle"],
        "tz": "Africa/Dar_es_Salaam",
    }
    call("POST /v1/players/me/push-subscriptions", 201, body=subscription, token=asha)
    bad_key = {**subscription, "keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}
    call("POST /v1/players/me/push-subscriptions", 422, body=bad_key, token=asha)
    listed = call("GET /v1/players/me/push-subscriptions", 200, token=asha).json
    assert "keys" not in json.dumps(listed)
    call("GET /v1/players/me/push-subscriptions", 401)
    endpoint = subscription["endpoint"]
    call("DELETE /v1/players/me/push-subscriptions", 200, body={"endpoint": endpoint}, token=asha)
    call("DELETE /v1/players/me/push-subscriptions", 401, body={"endpoint": endpoint})
    assert call("GET /v1/push/key", 200).json["public_key"]  # the runner's local VAPID key
    # a live ticket: a player's, a watcher's, a wrong token's
    assert call("POST /v1/live/tickets", 201, token=asha).json["url"].startswith("/live?ticket=")
    call("POST /v1/live/tickets", 201)
    call("POST /v1/live/tickets", 401, token="ubao_" + "x" * 43)
    # the fallback: the API's error shape for anything else, 405 with Allow from the template's route table
    call("ANY /v1/{proxy+}", 404, "/v1/no/such/route", method="GET")
    assert call("ANY /v1/{proxy+}", 405, "/v1/validate", method="DELETE").headers["allow"] == "POST"
    return call


#: Routes with nothing a caller can get wrong (no body, parameter or token): no refusal to check.
TAKES_NO_INPUT = {"GET /v1/push/key"}


def _p256_public_key() -> str:
    """A browser's p256dh: an uncompressed P-256 public point, base64url without padding."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    point = (
        ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def test_every_route_answers_from_the_packaged_build_alone(served):
    template = Template()
    call = served
    for route in template.routes:
        statuses = call.seen.get(route.key, set())
        if route.key not in TAKES_NO_INPUT:
            assert any(status >= 400 for status in statuses), f"{route.key}: no refusal checked"
        if route.key not in NEEDS_A_PASSED_DEADLINE and "+}" not in route.path:
            assert any(status < 300 for status in statuses), f"{route.key}: no success checked"


def test_each_package_ships_only_what_its_function_imports(packaged_server, served):
    """After the routes above ran, every top-level module, package or data directory in a function's package
    was imported (or read) by that function, or belongs to a distribution that an imported one requires."""
    with_routes = {route.function for route in Template().routes}
    for name, function in packaged_server.api.functions.items():
        if name not in with_routes:  # the stream and schedule functions get no request here
            continue
        root = function.function.code_dir
        modules = function.loaded_modules()
        files = [Path(file) for file in modules.values() if file]
        used = {path.relative_to(root).parts[0] for path in files if path.is_relative_to(root)}
        shipped = {_top_level_name(entry) for entry in root.iterdir() if not entry.name.endswith(".dist-info")}
        needed = used | _dependencies_of(root, used)
        if "notify.domain.texts" in modules:
            needed.add("locale")  # the compiled catalogs that module reads a push's text from (data: never imported)
        assert shipped <= needed, f"{name} ships what it never imports: {shipped - needed}"
    # and the first-party parts are where they belong
    functions = packaged_server.api.functions
    assert (functions["RulesPageFunction"].function.code_dir / "site_source" / "locale" / "tl" / "LC_MESSAGES" /
            "messages.mo").is_file()  # fmt: skip
    for name, function in functions.items():
        entries = {entry.name for entry in function.function.code_dir.iterdir()}
        assert ("puzzles" in entries) == (name in ("PuzzlesFunction", "ReviewFunction")), name
        assert ("site_source" in entries) == (name == "RulesPageFunction"), name
        assert ("jinja2" in entries) == (name == "RulesPageFunction"), name
        assert "boto3" not in entries, name
        assert ("games" in entries) == (
            name
            in (
                *("GamesFunction", "NotifyFunction", "ReminderFunction", "ReviewFunction"),
                *("LiveTicketsFunction", "LiveSocketFunction", "LiveFanoutFunction"),
                *("TournamentsFunction", "TournamentResultsFunction", "TournamentScheduleFunction"),
                "CommunityFunction",  # follows the other player of a game: reads its head
                "ClubsFunction",  # a club's leaderboards read its members' game ratings
            )
        )


def _top_level_name(entry: Path) -> str:
    return entry.name.removesuffix(".py") if entry.is_file() else entry.name


def _dependencies_of(root: Path, used: set[str]) -> set[str]:
    """Top-level names of the distributions providing ``used`` and of those they require, transitively."""
    distributions = {
        _canonical(dist.metadata["Name"]): dist for dist in importlib.metadata.distributions(path=[str(root)])
    }
    tops = {name: _tops(dist) for name, dist in distributions.items()}
    pending = [name for name, names in tops.items() if names & used]
    required: set[str] = set(pending)  # a distribution ships whole (PyYAML: yaml and _yaml)
    while pending:
        dist = distributions[pending.pop()]
        for requirement in dist.requires or ():
            if ";" in requirement and "extra ==" in requirement:
                continue
            dependency = _canonical(re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0])
            if dependency in distributions and dependency not in required:
                required.add(dependency)
                pending.append(dependency)
    return {top for name in required for top in tops[name]}


def _tops(dist) -> set[str]:
    return {Path(str(file)).parts[0].removesuffix(".py") for file in dist.files or () if ".dist-info" not in str(file)}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_package_sizes_are_reported(packaged_build):
    sizes = package_sizes(packaged_build)
    assert set(sizes) == {*Template().functions, "RulesLayer"}
    assert all(size > 100_000 for size in sizes.values())  # code and its requirements, not an empty directory
    print(json.dumps(sizes))
