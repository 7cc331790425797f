"""A league of 4 over real HTTP against the local server as `make run` starts it (`python -m local.runner` on
dynalite): made, joined by its invite, started when full, its 12 games played to the end by HTTP moves,
resignations and agreed draws, each result counted by the results function from the runner's stand-in for the
games table's stream; then the standings, the match scores ("2-0", "1-1") and the winner are read back."""

from __future__ import annotations

import time

import pytest

from tests.api.test_local_runner_concurrency import call, origin  # noqa: F401  (the runner fixture)

NAMES = ("Asha", "Baraka", "Chausiku", "Daudi")
#: Who wins each pairing's games: Asha every game; Baraka both against Daudi; the other pairs draw.
WINS = {frozenset({"Baraka", "Daudi"}): "Baraka"}


def play_to_the_end(origin: str, game: dict, tokens: dict[str, str], names: dict[int, str]) -> None:  # noqa: F811
    """Two moves a side by HTTP (a rated game ended sooner is aborted), then a resignation or a draw."""
    white, black = names[game["white"]], names[game["black"]]
    seats = {"white": tokens[white], "black": tokens[black]}
    for _ in range(4):
        status, state = call(origin, "GET", f"/v1/games/{game['id']}", token=seats["white"])
        move = {"move": state["legal_moves"][0], "ply": state["ply"]}
        status, state = call(origin, "POST", f"/v1/games/{game['id']}/moves", move, seats[state["turn"]])
        assert status == 200, state
    pair = frozenset({white, black})
    winner = "Asha" if "Asha" in pair else WINS.get(pair)
    path = f"/v1/games/{game['id']}"
    if winner is None:
        assert call(origin, "POST", f"{path}/draw", {"action": "offer"}, seats["white"])[0] == 200
        status, state = call(origin, "POST", f"{path}/draw", {"action": "accept"}, seats["black"])
    else:
        loser = seats["black"] if winner == white else seats["white"]
        status, state = call(origin, "POST", f"{path}/resign", {}, loser)
    assert status == 200 and state["state"] == "finished", state


@pytest.mark.slow  # a minute: the runner's start and 12 games of HTTP moves
def test_a_league_of_four_plays_its_twelve_games_over_http(origin):  # noqa: F811
    tokens = {}
    for name in NAMES:
        status, player = call(origin, "POST", "/v1/players", {"name": name})
        assert status == 201, player
        tokens[name] = player["token"]
    body = {"format": "league", "game": "english", "players": 4, "options": {"days_per_move": 3}}
    status, made = call(origin, "POST", "/v1/tournaments", body, tokens["Asha"])
    assert status == 201, made
    league, invite = made["tournament"]["id"], made["invite"]["code"]
    for name in NAMES:
        status, view = call(origin, "POST", f"/v1/tournaments/{league}/join", {"invite": invite}, tokens[name])
        assert status == 200, view
    assert view["tournament"]["state"] == "running" and len(view["games"]) == 12
    status, again = call(origin, "POST", f"/v1/tournaments/{league}/join", {"invite": invite}, tokens["Asha"])
    assert (status, again["error"]["code"]) == (409, "already_entered")
    names = {row["seat"]: row["name"] for row in view["players"]}
    for game in view["games"]:
        play_to_the_end(origin, game, tokens, names)
    deadline = time.monotonic() + 90  # the runner feeds the stream off the requests: the results come in soon
    while time.monotonic() < deadline:
        status, view = call(origin, "GET", f"/v1/tournaments/{league}", token=tokens["Asha"])
        if view["tournament"]["state"] == "finished":
            break
        time.sleep(1)
    assert view["tournament"]["state"] == "finished", view["games"]
    seat = {name: number for number, name in names.items()}
    points = {names[row["seat"]]: row["points"] for row in view["standings"]}
    assert points == {"Asha": 6, "Baraka": 3, "Chausiku": 2, "Daudi": 1}
    assert [names[row["seat"]] for row in view["standings"]] == ["Asha", "Baraka", "Chausiku", "Daudi"]
    scores = {frozenset({names[m["seats"][0]], names[m["seats"][1]]}): m for m in view["matches"]}
    assert len(scores) == 6

    def score(one: str, other: str) -> str:
        match = scores[frozenset({one, other})]
        text = match["score"]
        return text if match["seats"][0] == seat[one] else "-".join(reversed(text.split("-")))

    assert score("Asha", "Daudi") == "2-0" and score("Daudi", "Baraka") == "0-2"
    assert score("Baraka", "Chausiku") == "1-1" and score("Chausiku", "Daudi") == "1-1"
    assert [names[w] for w in view["winners"]] == ["Asha"] and view["your_games"] == []
    assert all(g["white_points"] is not None and not g["forfeit"] for g in view["games"])
