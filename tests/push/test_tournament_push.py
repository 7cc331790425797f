"""Tournament pushes, end to end on moto: the tournaments function sends through notify's Web Push sender, the
local push service verifies and decrypts. A league that fills tells each player (in their subscription's
language) that it has started; its winner hears it when the results function counts the last game; an arena's
pairing tells both players their game has started; the 19:55 run tells the daily arena's players."""

from __future__ import annotations

import pytest

from tests.push.test_notify import subscribe


@pytest.fixture
def tournaments(aws, clock):
    from tournaments import handler

    from tests.fixtures import Function, on_clock
    from tests.games.client import invoke

    app = Function(handler, on_clock(clock)).create_app()

    def call(method: str, path: str, body=None, token: str | None = None, query: dict | None = None):
        return invoke(app, "TournamentsFunction", method, path, body=body, token=token, query=query)

    return call


def texts(lang: str, message: str, game: str, **values) -> tuple[str, str]:
    from notify.domain.texts import GAME_TITLES, MESSAGES, translations

    t = translations(lang).gettext
    title, body = MESSAGES[message]
    return t(title), t(body) % {"game": t(GAME_TITLES[game]), **values}


def test_a_league_tells_its_start_and_its_winner(games_api, push_api, push_service, tournaments, clock, catalogs):
    from games.repository import dynamodb_games
    from games.service.protocol import GameLog
    from tournaments.pushes import pushes_from_environment
    from tournaments.repository import DynamoTournaments
    from tournaments.seated import TournamentGames
    from tournaments.stream import count_result

    players = [games_api.new_player(name) for name in ("Asha", "Baraka", "Chausiku")]
    phones = [subscribe(push_api, push_service, who["token"], lang) for who, lang in zip(players, ("sw", "tl", "en"))]
    made = tournaments(
        "POST",
        "/v1/tournaments",
        {"format": "league", "game": "tanzanian", "players": 3, "public": True},
        players[0]["token"],
    )
    league = made.body["tournament"]["id"]
    for who in players:
        assert tournaments("POST", f"/v1/tournaments/{league}/join", {}, who["token"]).status == 200
    push_service.wait_for(3)
    for phone, lang in zip(phones, ("sw", "tl", "en")):
        [delivery] = push_service.deliveries(phone.endpoint)
        assert (delivery.json["title"], delivery.json["body"]) == texts(lang, "tournament_started", "tanzanian")
        assert delivery.json["url"] == f"/{lang}/mashindano/?id={league}"
        assert delivery.json["tag"] == f"tournament:{league}"
    # Asha wins all her games, the others draw theirs; the results function counts each and tells the winner
    view = tournaments("GET", f"/v1/tournaments/{league}").body
    token_of = {
        seat: next(p["token"] for p in players if p["name"] == row["name"]) for seat, row in enumerate(view["players"])
    }
    store = dynamodb_games()
    for game in view["games"]:
        seats = {"white": token_of[game["white"]], "black": token_of[game["black"]]}
        games_api.open_moves(game["id"], seats)
        names = {colour: view["players"][game[colour]]["name"] for colour in ("white", "black")}
        if "Asha" in names.values():
            loser = "black" if names["white"] == "Asha" else "white"
            assert games_api.call("POST", f"/v1/games/{game['id']}/resign", token=seats[loser]).status == 200
        else:
            games_api.call("POST", f"/v1/games/{game['id']}/draw", {"action": "offer"}, token=seats["white"])
            games_api.call("POST", f"/v1/games/{game['id']}/draw", {"action": "accept"}, token=seats["black"])
        clock.advance(seconds=60)
        games = TournamentGames(GameLog(store), store)
        assert count_result(game["id"], DynamoTournaments(), games, clock(), announce=pushes_from_environment())
    push_service.wait_for(4)
    won = [d for d in push_service.deliveries(phones[0].endpoint) if d.json["kind"] == "game_over"]
    assert [(d.json["title"], d.json["body"]) for d in won] == [texts("sw", "tournament_won", "tanzanian")]
    assert all(len(push_service.deliveries(phone.endpoint)) == 1 for phone in phones[1:])  # only the winner


def test_an_arena_pairing_and_the_daily_arena_about_to_start(
    games_api, push_api, push_service, tournaments, clock, catalogs
):
    from tournaments.schedule import create_handler

    asha, baraka = games_api.new_player("Asha"), games_api.new_player("Baraka")
    phone = subscribe(push_api, push_service, baraka["token"], "tl")
    schedule = create_handler(clock=clock)
    schedule({}, None)  # the daily arenas: the next 20:00 in Dar es Salaam is 17:00 UTC today
    listed = tournaments("GET", "/v1/tournaments", query={"game": "chess", "state": "open"}).body
    daily = next(t for t in listed["tournaments"] if t["name"] == "20:00 EAT")
    for who in (asha, baraka):
        assert tournaments("POST", f"/v1/tournaments/{daily['id']}/join", {}, who["token"]).status == 200
    clock.now = 1_750_006_800 - 5 * 60  # 19:55 in Dar es Salaam
    assert schedule({"arena_soon": True}, None) == {"told": 3}  # one arena a game; Baraka is in the chess one
    assert schedule({"arena_soon": True}, None) == {"told": 0}  # told once
    assert schedule({}, None)["told"] == 0  # nor by the regular run (make run's runs every minute)
    push_service.wait_for(1)
    [soon] = push_service.deliveries(phone.endpoint)
    assert (soon.json["title"], soon.json["body"]) == texts("tl", "arena_soon", "chess")
    assert soon.json["kind"] == "reminder" and soon.json["url"] == f"/tl/mashindano/?id={daily['id']}"
    clock.now = 1_750_006_800 + 10  # on: both present, paired in one wave
    for who in (asha, baraka):
        clock.advance(seconds=4)
        answer = tournaments("POST", f"/v1/tournaments/{daily['id']}/presence", {"present": True}, who["token"])
        assert answer.status == 200, answer.body
    push_service.wait_for(2)
    game = push_service.deliveries(phone.endpoint)[-1].json
    assert (game["title"], game["body"]) == texts("tl", "tournament_game", "chess", opponent="Asha")
    assert game["url"] == f"/tl/mchezo/?id={game['game']}" and game["tag"] == f"game:{game['game']}"
