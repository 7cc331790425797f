"""The tournaments' routes on moto and dynalite: a league of 4 made, joined by its link, started (12 games),
played to the end and counted from the games' stream records; 20 racing joins make 4 entries; every refusal
a 4xx with its code and nothing written; the standings read in at most 2 DynamoDB calls."""

from __future__ import annotations

from typing import Any

from local.streams import insert_record
from tests.checks import known
from tests.clocks import START


def league_of(apis, token, **terms):
    body = {"format": "league", "game": "english", "players": 4, **terms}
    answer = apis.call("POST", "/v1/tournaments", body, token=token)
    assert answer.status == 201, answer.body
    return answer.body


def feed_stream(game_ids: list[str]) -> None:
    """Every event item of these games through the results function, as the stream would deliver them."""
    from common.persistence import store
    from tournaments import stream

    client = store.client()
    table = __import__("os").environ.get("GAMES_TABLE", "GamesTable")
    records: list[Any] = []
    for game_id in game_ids:
        items = client.query(
            TableName=table, KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": {"S": game_id}}
        )["Items"]
        records += [
            insert_record(item, table, ("pk", "sk"), len(records) + 1) for item in items if item["sk"]["S"][0] == "E"
        ]
    records += records[-3:]  # delivered twice: counted once
    from local.events import LambdaContext

    answer = stream.lambda_handler({"Records": records}, LambdaContext(function_name="TournamentResultsFunction"))
    assert answer == {"batchItemFailures": []}


def test_a_league_of_four_by_link_to_the_end(backend, apis, count_calls):
    players = [apis.games.new_player(name) for name in ("Asha", "Baraka", "Chausiku", "Daudi")]
    made = league_of(apis, players[0]["token"], options={"days_per_move": 2})
    tournament_id, code = made["tournament"]["id"], made["invite"]["code"]
    assert made["invite"]["url"].endswith(f"/sw/mashindano/?id={tournament_id}#invite={code}")
    for index, who in enumerate(players):
        answer = apis.call("POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, token=who["token"])
        assert answer.status == 200, answer.body
        assert answer.body["tournament"]["state"] == ("running" if index == 3 else "open")
    view = apis.call("GET", f"/v1/tournaments/{tournament_id}", token=players[0]["token"]).body
    assert len(view["games"]) == 12 and len(view["your_games"]) == 6
    seat_of = {row["name"]: row["seat"] for row in view["players"]}
    token_of = {seat_of[p["name"]]: p["token"] for p in players}
    # Asha wins all her games (resignations); the other games are drawn by agreement
    for row in view["games"]:
        white, black = token_of[row["white"]], token_of[row["black"]]
        asha = seat_of["Asha"]
        # Two moves a side first: a rated game ended before them is aborted (docs/games.md, "Fair play").
        apis.games.open_moves(row["id"], {"white": white, "black": black})
        if asha in (row["white"], row["black"]):
            loser = black if row["white"] == asha else white
            assert apis.games.call("POST", f"/v1/games/{row['id']}/resign", token=loser).status == 200
        else:
            apis.games.call("POST", f"/v1/games/{row['id']}/draw", {"action": "offer"}, token=white)
            assert (
                apis.games.call("POST", f"/v1/games/{row['id']}/draw", {"action": "accept"}, token=black).status == 200
            )
    feed_stream([row["id"] for row in view["games"]])
    count_calls.calls.clear()
    final = apis.call("GET", f"/v1/tournaments/{tournament_id}")
    assert len(count_calls.calls) <= 2, count_calls.calls  # the standings: one Query of the partition
    body = final.body
    assert body["tournament"]["state"] == "finished"
    assert body["winners"] == [seat_of["Asha"]]
    points = {row["seat"]: row["points"] for row in body["standings"]}
    assert points[seat_of["Asha"]] == 6 and sorted(points.values()) == [2, 2, 2, 6]
    scores = {tuple(m["seats"]): m["score"] for m in body["matches"]}
    pair = tuple(sorted((seat_of["Asha"], seat_of["Baraka"])))
    assert scores[pair] == ("2-0" if pair[0] == seat_of["Asha"] else "0-2")
    assert "1-1" in scores.values() and all(row["white_points"] is not None for row in body["games"])


def test_twenty_racing_joins_make_four_entries(backend, apis):
    """Each join in a process of its own (a Lambda instance each), released together."""
    from tests.games.client import at_once

    players = [apis.games.new_player(f"P{n}") for n in range(20)]
    made = league_of(apis, players[0]["token"], public=True)
    assert made["invite"] is None
    tournament_id = made["tournament"]["id"]
    path = f"/v1/tournaments/{tournament_id}/join"
    if backend == "moto":
        # moto's in-process backend does not make a conditional write atomic across threads (two threads can both
        # pass a condition), so a race on it tests moto: here the joins come in turn, and the race itself is the
        # dynalite run's (a real server, each join in a process of its own).
        statuses = _in_turn(apis, tournament_id, [p["token"] for p in players])
    else:
        calls = [lambda app, t=p["token"]: app.call("POST", path, {}, token=t) for p in players]
        statuses = [(answer.status, answer.code) for answer in at_once(lambda: apis, calls)]
    assert sum(status == 200 for status, _ in statuses) == 4, statuses
    assert {code for status, code in statuses if status != 200} <= {"tournament_full", "tournament_started"}
    view = apis.call("GET", f"/v1/tournaments/{tournament_id}").body
    assert len(view["players"]) == 4 and view["tournament"]["state"] == "running"
    listed = apis.call("GET", "/v1/tournaments", query={"game": "english", "state": "running"}).body
    assert [t["id"] for t in listed["tournaments"]] == [tournament_id]
    assert apis.call("GET", "/v1/tournaments", query={"game": "english"}).body == {"tournaments": []}


def _in_turn(apis, tournament_id: str, tokens: list[str]) -> list[tuple[int, str | None]]:
    from common.errors import DomainError
    from common.players.repository import PlayerStore
    from common.players.service import hash_token, player_of
    from games.domain import new_game_options
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog
    from tournaments.repository import DynamoTournaments
    from tournaments.seated import TournamentGames
    from tournaments.service import TournamentService

    games = dynamodb_games()
    service = TournamentService(
        DynamoTournaments(),
        TournamentGames(GameLog(games, clock=apis.clock), games),
        new_game_options,
        clock=apis.clock,
    )
    store = PlayerStore()
    players = [player_of(hash_token(token), store.get(hash_token(token))) for token in tokens]
    statuses: list[tuple[int, str | None]] = []
    for player in players:
        try:
            service.join(player, tournament_id, None)
            statuses.append((200, None))
        except DomainError as refusal:
            statuses.append((409, refusal.code))
    return statuses


def test_refusals_are_4xx_with_their_codes(moto_tables, apis):
    asha = apis.games.new_player("Asha")["token"]
    baraka = apis.games.new_player("Baraka")["token"]

    def refused(status, code, *args, **kwargs):
        answer = apis.call(*args, **kwargs)
        assert (answer.status, answer.code) == (status, code), answer.body

    refused(422, "unknown_game", "POST", "/v1/tournaments", {"format": "league", "game": "go"}, token=asha)
    refused(
        422,
        "invalid_league_size",
        "POST",
        "/v1/tournaments",
        {"format": "league", "game": "chess", "players": 9},
        token=asha,
    )
    past = "2020-01-01T00:00:00Z"
    arena = {"format": "arena", "game": "chess", "options": {"turn_seconds": 30}, "minutes": 30}
    refused(422, "starts_in_past", "POST", "/v1/tournaments", {**arena, "starts": past}, token=asha)
    refused(422, "invalid_request", "POST", "/v1/tournaments", {**arena, "starts": "tomorrow"}, token=asha)
    refused(401, "unauthorized", "POST", "/v1/tournaments", {"format": "league", "game": "chess"})
    refused(404, "tournament_not_found", "GET", "/v1/tournaments/AAAAAAAAAAAA")
    refused(422, "unknown_game", "GET", "/v1/tournaments", query={"game": "go"})
    made = league_of(apis, asha, players=3)
    tournament_id, code = made["tournament"]["id"], made["invite"]["code"]
    refused(403, "invalid_tournament_invite", "POST", f"/v1/tournaments/{tournament_id}/join", {}, token=baraka)
    assert apis.call("POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, token=asha).status == 200
    refused(409, "already_entered", "POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, token=asha)
    refused(409, "not_entered", "POST", f"/v1/tournaments/{tournament_id}/withdraw", token=baraka)
    for name in ("C", "D"):
        token = apis.games.new_player(name)["token"]
        apis.call("POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, token=token)
    refused(409, "tournament_started", "POST", f"/v1/tournaments/{tournament_id}/join", {"invite": code}, token=baraka)
    soon = "2025-06-15T17:00:00Z"  # START is 15:06:40 that day
    assert START < 1_750_006_800
    answer = apis.call("POST", "/v1/tournaments", {**arena, "starts": soon}, token=asha)
    assert answer.status == 201 and answer.body["tournament"]["max_players"] == 500


def test_the_schedule_makes_open_leagues_once_and_starts_one_at_four(backend, apis):
    from tournaments.schedule import create_handler

    schedule = create_handler(clock=apis.clock)
    assert schedule({}, None) == {"made": 3, "started": 0, "arenas": 6, "told": 0, "deadlines": 0}
    schedule({}, None)  # the same quarter hour: made once
    listed = apis.call("GET", "/v1/tournaments", query={"game": "tanzanian", "state": "open"}).body["tournaments"]
    leagues = [t for t in listed if t["format"] == "league"]
    assert len(leagues) == 1 and leagues[0]["max_players"] == 6 and leagues[0]["public"]
    arenas = [t for t in listed if t["format"] == "arena"]  # the next 20:00 in Dar es Salaam and in Manila
    assert sorted(t["starts"] for t in arenas) == ["2025-06-15T17:00:00Z", "2025-06-16T12:00:00Z"]
    league_id = leagues[0]["id"]
    for name in ("A", "B", "C", "D"):
        token = apis.games.new_player(name)["token"]
        assert apis.call("POST", f"/v1/tournaments/{league_id}/join", {}, token=token).status == 200
    apis.clock.advance(seconds=15 * 60)
    assert schedule({}, None) == {"made": 1, "started": 1, "arenas": 6, "told": 0, "deadlines": 0}
    view = apis.call("GET", f"/v1/tournaments/{league_id}").body
    assert view["tournament"]["state"] == "running" and len(view["games"]) == 12


def test_an_arena_of_six_pairs_everyone_present(backend, apis, count_calls):
    players = [apis.games.new_player(name) for name in ("A", "B", "C", "D", "E", "F")]
    body = {"format": "arena", "game": "chess", "public": True, "options": {"turn_seconds": 60}, "minutes": 30}
    made = apis.call("POST", "/v1/tournaments", {**body, "starts": "2025-06-15T15:10:00Z"}, token=players[0]["token"])
    assert made.status == 201, made.body
    arena_id = made.body["tournament"]["id"]
    for who in players:
        assert apis.call("POST", f"/v1/tournaments/{arena_id}/join", {}, token=who["token"]).status == 200
    early = apis.call("POST", f"/v1/tournaments/{arena_id}/presence", {"present": True}, token=players[0]["token"])
    assert early.status == 200 and early.body["your_games"] == []  # before the start: nobody is paired
    apis.clock.advance(seconds=4 * 60)
    for who in players:
        apis.clock.advance(seconds=4)
        answer = apis.call("POST", f"/v1/tournaments/{arena_id}/presence", {"present": True}, token=who["token"])
        assert answer.status == 200, answer.body
    count_calls.calls.clear()
    view = apis.call("GET", f"/v1/tournaments/{arena_id}", token=players[0]["token"]).body
    assert len([name for name in count_calls.calls if name != "GetItem"]) <= 2, count_calls.calls  # + the token
    assert len(view["arena"]) == 6 and all(row["playing"] for row in view["arena"])
    game_id = view["your_games"][0]
    game = apis.games.call("GET", f"/v1/games/{game_id}").body
    assert game["state"] == "active" and game["options"]["turn_seconds"] == 60
    league = league_of(apis, players[0]["token"])
    refused = apis.call(
        "POST", f"/v1/tournaments/{league['tournament']['id']}/presence", {"present": True}, token=players[0]["token"]
    )
    assert (refused.status, refused.code) == (409, "not_an_arena")


def block_each_other(apis, blocker: dict, blocked: dict) -> None:
    """``blocker`` blocks ``blocked`` as the play page does: from a game between them."""
    made = apis.games.create(blocker["token"]).body
    game_id = made["game"]["id"]
    assert apis.games.join(blocked["token"], game_id, made["invite"]["code"]).status == 200
    answer = apis.games.call("POST", "/v1/players/me/blocks", {"game": game_id}, token=blocker["token"])
    assert answer.status == 201, answer.body


def test_blocked_players_are_kept_apart_in_a_league_and_in_an_arena(backend, apis):
    asha, baraka, chausiku, daudi = (apis.games.new_player(name) for name in ("Asha", "Baraka", "Chausiku", "Daudi"))
    block_each_other(apis, asha, baraka)
    league_id = league_of(apis, asha["token"], public=True)["tournament"]["id"]
    assert apis.call("POST", f"/v1/tournaments/{league_id}/join", {}, token=asha["token"]).status == 200
    refused = apis.call("POST", f"/v1/tournaments/{league_id}/join", {}, token=baraka["token"])  # blocked by Asha
    assert (refused.status, refused.code) == (409, "blocked_entrant")
    assert len(apis.call("GET", f"/v1/tournaments/{league_id}").body["players"]) == 1  # nothing written
    other_way = league_of(apis, baraka["token"], public=True)["tournament"]["id"]
    assert apis.call("POST", f"/v1/tournaments/{other_way}/join", {}, token=baraka["token"]).status == 200
    refused = apis.call("POST", f"/v1/tournaments/{other_way}/join", {}, token=asha["token"])  # Asha blocked him
    assert (refused.status, refused.code) == (409, "blocked_entrant")

    body = {"format": "arena", "game": "chess", "public": True, "options": {"turn_seconds": 60}, "minutes": 30}
    made = apis.call("POST", "/v1/tournaments", {**body, "starts": "2025-06-15T15:10:00Z"}, token=asha["token"])
    arena_id = made.body["tournament"]["id"]
    for who in (asha, baraka, chausiku, daudi):
        assert apis.call("POST", f"/v1/tournaments/{arena_id}/join", {}, token=who["token"]).status == 200
    apis.clock.advance(seconds=4 * 60)
    for who in (asha, baraka, chausiku, daudi):  # Asha and Baraka arrive first: alone they would be paired
        apis.clock.advance(seconds=4)
        answer = apis.call("POST", f"/v1/tournaments/{arena_id}/presence", {"present": True}, token=who["token"])
        assert answer.status == 200, answer.body
    games = [
        apis.call("GET", f"/v1/tournaments/{arena_id}", token=who["token"]).body["your_games"]
        for who in (asha, baraka, chausiku, daudi)
    ]
    assert all(len(mine) == 1 for mine in games), games  # everyone paired, in two games
    assert games[0] != games[1]  # Asha's game is not Baraka's


def test_a_cup_of_two_groups_starts_full_and_keeps_its_knockout_games_made(backend, apis):
    from tournaments.repository import DynamoTournaments

    players = [apis.games.new_player(f"C{n}") for n in range(8)]
    body = {"format": "cup", "game": "tanzanian", "groups": 2, "players": 4, "public": True}
    made = apis.call("POST", "/v1/tournaments", body, token=players[0]["token"])
    assert made.status == 201 and made.body["tournament"]["max_players"] == 8, made.body
    cup_id = made.body["tournament"]["id"]
    for who in players:
        assert apis.call("POST", f"/v1/tournaments/{cup_id}/join", {}, token=who["token"]).status == 200
    view = apis.call("GET", f"/v1/tournaments/{cup_id}", token=players[0]["token"]).body
    assert view["tournament"]["state"] == "running" and view["tournament"]["format"] == "cup"
    assert len(view["games"]) == 24 and [len(group) for group in view["groups"]] == [4, 4]
    assert len(view["your_games"]) == 6 and [row["score"] for row in view["bracket"]] == ["-"] * 3
    DynamoTournaments().mark_made(cup_id, ["k0.0.0", "k0.0.1"])
    DynamoTournaments().mark_made(cup_id, ["k0.0.1"])  # twice: the same
    assert known(DynamoTournaments().get(cup_id)).made == frozenset({"k0.0.0", "k0.0.1"})
    for groups, size in ((3, 4), (2, 7)):
        refused = apis.call(
            "POST", "/v1/tournaments", {**body, "groups": groups, "players": size}, token=players[0]["token"]
        )
        assert (refused.status, refused.code) == (422, "invalid_cup_size")
