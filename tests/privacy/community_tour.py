"""The community's part of the privacy tour: cards, two friends following each other by id, and feedback (the
players of the tour's game blocked each other, so no follow from that game)."""

from __future__ import annotations

from tests.games.client import invoke


def walk_community(handler, white: dict, black: dict, third: dict, game_id: str) -> None:
    app = handler.create_app()

    def call(method: str, path: str, body=None, token=None):
        return invoke(app, "CommunityFunction", method, path, body=body, token=token, host="127.0.0.1:3000")

    opened = call("GET", "/v1/players/me/follows", token=white["token"])
    assert opened.status == 200, opened.body
    assert call("GET", "/v1/players/me/follows", token=third["token"]).status == 200
    assert call("POST", "/v1/players/me/follows", {"player": third["player_id"]}, token=white["token"]).status == 201
    assert call("POST", "/v1/players/me/follows", {"player": white["player_id"]}, token=third["token"]).status == 201
    feedback = {"category": "idea", "text": "Mashindano ya shule", "lang": "sw"}
    assert call("POST", "/v1/feedback", feedback, token=black["token"]).status == 201
    challenge = {"player": third["player_id"], "game": "tanzanian", "color": "black", "rated": True}
    sent = call("POST", "/v1/players/me/challenges", challenge, token=white["token"])
    assert sent.status == 201, sent.body
    accepted = call("POST", f"/v1/players/me/challenges/{sent.body['id']}", {"action": "accept"}, token=third["token"])
    assert accepted.status == 200 and accepted.body["game_id"], accepted.body
