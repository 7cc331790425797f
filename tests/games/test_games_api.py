"""Every games route and every refusal, through the handler with payload-2.0 events, on moto."""

from __future__ import annotations

import pytest

from tests.games.client import snapshot

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def assert_refused(answer, status: int, code: str) -> dict:
    assert answer.status == status, (answer.status, answer.body)
    assert answer.headers["content-type"] == "application/json"
    assert answer.body["error"]["code"] == code, answer.body
    assert answer.body["error"]["message"].strip()
    return answer.body


# ------------------------------------------------------------------------------------------ create
def test_create_gives_a_seat_an_invite_and_the_game(api):
    player = api.new_player("Asha")
    answer = api.create(player["token"], "english", "black", options={"days_per_move": 5, "move_limit": 200})
    game, invite = answer.body["game"], answer.body["invite"]
    assert answer.body["seat"] == "black"
    assert answer.headers["cache-control"] == "no-store"
    assert game["state"] == "waiting" and game["turn"] == "black"  # Black starts English draughts
    assert game["players"] == {
        "white": None,
        "black": {"player_id": player["player_id"], "name": "Asha", "former": False},
    }
    assert game["options"] == {"days_per_move": 5, "swap_colors": True, "mandatory_capture": True, "move_limit": 200}
    assert game["deadline"] is None and game["ply"] == 0 and game["status"] == {"result": "ongoing", "reason": None}
    assert len(game["id"]) == 12 and len(invite["code"]) >= 22  # 72 and 128 random bits
    assert invite["url"] == f"http://127.0.0.1:3000/game/?id={game['id']}#invite={invite['code']}"
    assert "9-13" in game["legal_moves"]


def test_random_color_and_ids_differ(api):
    token = api.new_player()["token"]
    seats, ids, codes = set(), set(), set()
    for _ in range(12):
        answer = api.create(token, "chess", "random")
        seats.add(answer.body["seat"])
        ids.add(answer.body["game"]["id"])
        codes.add(answer.body["invite"]["code"])
    assert seats == {"white", "black"} and len(ids) == len(codes) == 12


def test_site_url_sets_the_invite_link(api, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://ubao.example/")
    answer = api.create(api.new_player()["token"], "chess")
    assert answer.body["invite"]["url"].startswith("https://ubao.example/game/?id=")


def test_create_from_a_position(api):
    token = api.new_player()["token"]
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    game = api.create(token, "chess", fen=fen).body["game"]
    assert game["fen"] == fen and game["turn"] == "black"
    assert api.get(game["id"]).body["start_fen"] == fen
    usual = api.create(token, "chess", fen=CHESS_START).body["game"]
    assert api.get(usual["id"]).body["start_fen"] is None  # the usual start is not a set-up position


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "go"}, 422, "invalid_request"),
        ({"game": "chess", "color": "red"}, 422, "invalid_request"),
        ({"game": "chess", "surprise": 1}, 422, "invalid_request"),
        ({"game": "chess", "options": {"days_per_move": 0}}, 422, "invalid_option"),
        ({"game": "chess", "options": {"days_per_move": 15}}, 422, "invalid_option"),
        ({"game": "chess", "options": {"days_per_move": True}}, 422, "invalid_option"),
        ({"game": "chess", "options": {"swap_colors": 3}}, 422, "invalid_option"),
        ({"game": "chess", "options": {"mandatory_capture": False}}, 422, "invalid_option"),
        ({"game": "english", "options": {"move_limit": 0}}, 422, "invalid_option"),
        ({"game": "chess", "fen": "not a fen"}, 422, "invalid_fen"),
        ({"game": "chess", "fen": "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"}, 422, "invalid_fen"),  # already mate
        ({"game": "english", "fen": "B:W21:B"}, 422, "invalid_fen"),  # Black to move has no pieces: over
    ],
)
def test_create_refuses_bad_requests_and_writes_nothing(api, body, status, code):
    token = api.new_player()["token"]
    before = snapshot()
    assert_refused(api.call("POST", "/v1/games", body, token=token), status, code)
    assert snapshot() == before


def test_create_needs_a_token(api):
    before = snapshot()
    assert_refused(api.call("POST", "/v1/games", {"game": "chess"}), 401, "unauthorized")
    assert_refused(api.call("POST", "/v1/games", {"game": "chess"}, token="ubao_" + "A" * 43), 401, "unauthorized")
    assert_refused(api.call("POST", "/v1/games", raw_body="{", token=api.new_player()["token"]), 400, "invalid_json")
    assert snapshot()["GamesTable"] == before["GamesTable"]


# -------------------------------------------------------------------------------------------- join
def test_join_takes_the_open_seat_once(api):
    creator, friend, third = api.new_player("Asha"), api.new_player("Baraka"), api.new_player()
    created = api.create(creator["token"], "chess", "black")
    game_id, code = created.body["game"]["id"], created.body["invite"]["code"]
    joined = api.join(friend["token"], game_id, code)
    assert joined.status == 200 and joined.body["seat"] == "white"
    game = joined.body["game"]
    assert game["state"] == "active" and game["players"]["white"]["name"] == "Baraka"
    assert game["deadline"] == "2025-06-18T15:06:40Z"  # three days from the join
    again = api.join(friend["token"], game_id, code)  # a retried join: the same seat
    assert again.status == 200 and again.body["seat"] == "white" and again.body["game"] == game
    before = snapshot()
    assert_refused(api.join(third["token"], game_id, code), 409, "game_full")
    seated = api.join(creator["token"], game_id, code)  # a seated player "joining" again just gets the seat
    assert seated.status == 200 and seated.body["seat"] == "black"
    assert snapshot() == before


def test_join_refusals(api):
    creator, friend = api.new_player(), api.new_player()
    created = api.create(creator["token"], "tanzanian")
    game_id, code = created.body["game"]["id"], created.body["invite"]["code"]
    before = snapshot()
    body = assert_refused(api.join(creator["token"], game_id, code), 409, "own_game")
    assert body["game"]["id"] == game_id
    assert_refused(api.join(friend["token"], game_id, "wrong-code"), 403, "invalid_invite")
    assert_refused(
        api.join(friend["token"], game_id, code[:-1] + ("A" if code[-1] != "A" else "B")), 403, "invalid_invite"
    )
    assert_refused(api.join(friend["token"], "A" * 12, code), 404, "game_not_found")
    assert_refused(api.join(friend["token"], "no-such", code), 404, "game_not_found")
    assert_refused(api.call("POST", f"/v1/games/{game_id}/join", {}, token=friend["token"]), 422, "invalid_request")
    assert_refused(api.call("POST", f"/v1/games/{game_id}/join", {"invite": code}), 401, "unauthorized")
    assert snapshot() == before


# --------------------------------------------------------------------------------------------- get
def test_get_is_public_and_polls_with_etags(api):
    game_id, seats = api.start_game()
    first = api.get(game_id)
    assert first.status == 200 and first.body["moves"] == [] and first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    unchanged = api.get(game_id, headers={"if-none-match": etag})
    assert unchanged.status == 304 and unchanged.text == "" and unchanged.headers["etag"] == etag
    assert api.get(game_id, headers={"if-none-match": f'W/{etag}, "other"'}).status == 304
    assert api.get(game_id, headers={"if-none-match": "*"}).status == 304
    assert api.move(seats["white"], game_id, "e4", 0).status == 200
    changed = api.get(game_id, headers={"if-none-match": etag})
    assert changed.status == 200 and changed.headers["etag"] != etag and changed.body["moves"] == ["e4"]
    assert api.get(game_id, headers={"if-none-match": '"garbage'}).status == 200


def test_get_unknown_games(api):
    assert_refused(api.get("A" * 12), 404, "game_not_found")
    assert_refused(api.get("short"), 404, "game_not_found")
    assert_refused(api.get("A" * 12, headers={"if-none-match": '"2.1"'}), 404, "game_not_found")
    assert_refused(api.get("A" * 12, headers={"if-none-match": "*"}), 404, "game_not_found")


# ------------------------------------------------------------------------------------------- moves
def test_moves_in_turn(api):
    game_id, seats = api.start_game()
    state = api.move(seats["white"], game_id, "e2e4", 0).body  # UCI is accepted; SAN is stored
    assert (state["ply"], state["turn"], state["last_move"]) == (1, "black", "e4")
    assert state["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    state = api.move(seats["black"], game_id, "e5", 1).body
    assert api.get(game_id).body["moves"] == ["e4", "e5"] and state["turn"] == "white"


def test_move_refusals_write_nothing(api):
    game_id, seats = api.start_game()
    api.move(seats["white"], game_id, "e4", 0)
    outsider = api.new_player()["token"]
    before = snapshot()
    body = assert_refused(api.move(seats["black"], game_id, "e5", 0), 409, "stale_ply")
    assert body["game"]["ply"] == 1 and body["game"]["last_move"] == "e4"
    assert_refused(api.move(seats["black"], game_id, "e5", 2), 409, "stale_ply")
    body = assert_refused(api.move(seats["white"], game_id, "d4", 1), 403, "not_your_turn")
    assert body["error"]["reason"] == "not_your_turn"
    assert_refused(api.move(outsider, game_id, "e5", 1), 403, "not_a_player")
    body = assert_refused(api.move(seats["black"], game_id, "e4", 1), 422, "illegal_move")
    assert "e5" in body["legal_moves"] and len(body["legal_moves"]) == 20
    assert body["error"]["reason"] == "blocked"  # a black pawn, but none can reach e4
    body = assert_refused(api.move(seats["black"], game_id, "Zz9", 1), 422, "illegal_move")
    assert body["error"]["reason"] == "unknown_move"
    assert assert_refused(api.move(seats["black"], game_id, "d2d4", 1), 422, "illegal_move")["error"]["reason"] == (
        "wrong_color"
    )
    assert_refused(
        api.call("POST", f"/v1/games/{game_id}/moves", {"move": "e5"}, token=seats["black"]), 422, "invalid_request"
    )
    assert_refused(
        api.call("POST", f"/v1/games/{game_id}/moves", {"move": "e5", "ply": -1}, token=seats["black"]),
        422,
        "invalid_request",
    )
    assert_refused(api.call("POST", f"/v1/games/{game_id}/moves", {"move": "e5", "ply": 1}), 401, "unauthorized")
    assert_refused(api.move(seats["black"], "B" * 12, "e5", 1), 404, "game_not_found")
    assert snapshot() == before


def test_an_ambiguous_move_is_refused_with_the_choices(api):
    game_id, seats = api.start_game("chess", fen="4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    body = assert_refused(api.move(seats["white"], game_id, "Nd2", 0), 422, "ambiguous_move")
    assert {"Nbd2", "Nfd2"} <= set(body["legal_moves"])


def test_moves_wait_for_the_opponent_and_stop_at_the_end(api):
    creator = api.new_player()
    created = api.create(creator["token"], "chess", "white")
    game_id = created.body["game"]["id"]
    assert_refused(api.move(creator["token"], game_id, "e4", 0), 409, "game_not_started")
    friend = api.new_player()
    api.join(friend["token"], game_id, created.body["invite"]["code"])
    seats = {"white": creator["token"], "black": friend["token"]}
    state = api.play(game_id, seats, ["f3", "e5", "g4", "Qh4#"])
    assert state["status"] == {"result": "black", "reason": "checkmate"} and state["state"] == "finished"
    assert state["legal_moves"] == [] and state["deadline"] is None
    assert_refused(api.move(seats["white"], game_id, "a3", 4), 409, "game_over")


def test_a_retried_move_returns_the_same_answer_and_writes_nothing(api):
    game_id, seats = api.start_game()
    first = api.move(seats["white"], game_id, "Nf3", 0)
    before = snapshot()
    for text in ("Nf3", "g1f3", "Ng1f3"):  # any spelling of the same move
        again = api.move(seats["white"], game_id, text, 0)
        assert again.status == 200 and again.body == first.body
    assert snapshot() == before
    assert_refused(api.move(seats["white"], game_id, "Nc3", 0), 409, "stale_ply")  # a different move is stale
    mate = api.play(game_id, seats, ["e5", "Ng5", "Qxg5", "d3", "Qc1+"])
    retried = api.move(seats["black"], game_id, "Qxc1+", 5)  # after the game ended, still the same answer
    assert retried.status == 200 and retried.body == mate


# ------------------------------------------------------------------------------- resign and draws
def test_resign(api):
    game_id, seats = api.start_game("english")
    state = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"]).body
    assert state["status"] == {"result": "white", "reason": "resignation"} and state["state"] == "finished"
    again = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])
    assert again.status == 200 and again.body == state
    outsider = api.new_player()["token"]
    before = snapshot()
    assert_refused(api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"]), 409, "game_over")
    assert_refused(api.call("POST", f"/v1/games/{game_id}/resign", token=outsider), 403, "not_a_player")
    assert_refused(api.call("POST", f"/v1/games/{game_id}/resign"), 401, "unauthorized")
    assert snapshot() == before


def test_resigning_before_the_game_starts_is_refused(api):
    token = api.new_player()["token"]
    game_id = api.create(token, "chess").body["game"]["id"]
    assert_refused(api.call("POST", f"/v1/games/{game_id}/resign", token=token), 409, "game_not_started")


def test_draw_offers(api):
    game_id, seats = api.start_game()
    draw = f"/v1/games/{game_id}/draw"
    assert_refused(api.call("POST", draw, {"action": "accept"}, token=seats["black"]), 409, "no_draw_offer")
    assert_refused(api.call("POST", draw, {"action": "decline"}, token=seats["black"]), 409, "no_draw_offer")
    assert_refused(api.call("POST", draw, {"action": "shake"}, token=seats["black"]), 422, "invalid_request")
    state = api.call("POST", draw, {"action": "offer"}, token=seats["white"]).body
    assert state["draw_offer"] == "white"
    assert api.call("POST", draw, {"action": "offer"}, token=seats["white"]).body == state  # offered already
    assert_refused(api.call("POST", draw, {"action": "accept"}, token=seats["white"]), 409, "no_draw_offer")
    state = api.call("POST", draw, {"action": "decline"}, token=seats["black"]).body
    assert state["draw_offer"] is None
    # An offer stands through the offerer's own move and ends with the opponent's move.
    api.call("POST", draw, {"action": "offer"}, token=seats["white"])
    assert api.move(seats["white"], game_id, "e4", 0).body["draw_offer"] == "white"
    assert api.move(seats["black"], game_id, "e5", 1).body["draw_offer"] is None
    # Offering while the opponent's offer stands agrees the draw.
    api.call("POST", draw, {"action": "offer"}, token=seats["black"])
    state = api.call("POST", draw, {"action": "offer"}, token=seats["white"]).body
    assert state["status"] == {"result": "draw", "reason": "agreement"} and state["draw_offer"] is None
    assert api.call("POST", draw, {"action": "accept"}, token=seats["white"]).body == state  # a retry
    assert_refused(api.call("POST", draw, {"action": "decline"}, token=seats["white"]), 409, "game_over")


# ------------------------------------------------------------------------------------------ time
def test_claiming_a_timeout(api, clock):
    game_id, seats = api.start_game(options={"days_per_move": 2})
    claim = f"/v1/games/{game_id}/claim-timeout"
    api.move(seats["white"], game_id, "d4", 0)
    state = api.get(game_id).body
    assert state["deadline"] == "2025-06-17T15:06:40Z"
    clock.advance(days=2)  # exactly at the deadline: still in time
    assert_refused(api.call("POST", claim, token=seats["white"]), 409, "deadline_not_passed")
    assert_refused(api.call("POST", claim, token=seats["black"]), 409, "your_move")
    clock.advance(seconds=1)
    state = api.call("POST", claim, token=seats["white"]).body
    assert state["status"] == {"result": "white", "reason": "timeout"} and state["state"] == "finished"
    assert api.call("POST", claim, token=seats["white"]).body == state


def test_a_move_resets_the_deadline(api, clock):
    game_id, seats = api.start_game()
    clock.advance(days=2)
    state = api.move(seats["white"], game_id, "e4", 0).body
    assert state["deadline"] == "2025-06-20T15:06:40Z"


def test_timeout_is_a_draw_when_the_claimant_cannot_mate(api, clock):
    # White has a lone king; Black (to move) lets the clock run out: White cannot win on time.
    game_id, seats = api.start_game("chess", fen="4k3/4p3/8/8/8/8/8/4K3 w - - 0 1")
    api.move(seats["white"], game_id, "Kd2", 0)
    clock.advance(days=4)
    state = api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats["white"]).body
    assert state["status"] == {"result": "draw", "reason": "timeout"}


def test_tanzanian_three_kings_against_one_on_time_is_a_draw(api, clock):
    game_id, seats = api.start_game("tanzanian", fen="B:WKa1,Kc1,Ke1:BKh8")
    clock.advance(days=4)  # Black (the lone king, to move) runs out of time
    state = api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats["white"]).body
    assert state["status"] == {"result": "draw", "reason": "timeout"}


def test_tanzanian_three_men_against_a_king_on_time_is_a_draw(api, clock):
    game_id, seats = api.start_game("tanzanian", fen="B:Wa1,c1,e1:BKh8")
    clock.advance(days=4)  # Black (the lone king, to move) runs out of time: "3 vs 1" counts men too
    state = api.call("POST", f"/v1/games/{game_id}/claim-timeout", token=seats["white"]).body
    assert state["status"] == {"result": "draw", "reason": "timeout"}


# ------------------------------------------------------------------------------------ my games
def _list(api, token, **query):
    return api.call("GET", "/v1/players/me/games", token=token, query=query)


def test_my_games_your_move_first_then_newest(api, clock):
    me, other_player = api.new_player("Asha"), api.new_player("Baraka")
    ids = {}
    for name, color in (("old_mine", "white"), ("theirs", "black"), ("new_mine", "white"), ("waiting", "white")):
        clock.advance(seconds=60)
        created = api.create(me["token"], "chess", color)
        ids[name] = created.body["game"]["id"]
        if name != "waiting":
            api.join(other_player["token"], ids[name], created.body["invite"]["code"])
    clock.advance(seconds=60)
    api.move(me["token"], ids["old_mine"], "e4", 0)
    api.move(other_player["token"], ids["old_mine"], "e5", 1)  # old_mine: my move again, latest activity
    listed = _list(api, me["token"]).body
    assert [game["id"] for game in listed["games"]] == [ids["old_mine"], ids["new_mine"], ids["waiting"], ids["theirs"]]
    first = listed["games"][0]
    assert first["your_turn"] and first["color"] == "white" and first["opponent"]["name"] == "Baraka"
    assert listed["cursor"] is None
    assert _list(api, me["token"], status="finished").body == {"games": [], "cursor": None}
    api.call("POST", f"/v1/games/{ids['theirs']}/resign", token=me["token"])
    finished = _list(api, me["token"], status="finished").body["games"]
    assert [game["id"] for game in finished] == [ids["theirs"]]
    assert finished[0]["status"] == {"result": "white", "reason": "resignation"}
    assert ids["theirs"] not in [game["id"] for game in _list(api, me["token"]).body["games"]]


def test_my_games_page_by_page(api, clock):
    me, friend = api.new_player(), api.new_player()
    made = set()
    for index in range(7):
        clock.advance(seconds=1)
        created = api.create(me["token"], "english", "white" if index % 2 else "black")
        made.add(created.body["game"]["id"])
        if index % 3:
            api.join(friend["token"], created.body["game"]["id"], created.body["invite"]["code"])
    seen, cursor, pages = [], None, 0
    while True:
        query = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = _list(api, me["token"], **query).body
        pages += 1
        seen += [game["id"] for game in page["games"]]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 7 and set(seen) == made and pages == 3
    everything = [game["id"] for game in _list(api, me["token"], limit=50).body["games"]]
    assert everything == seen  # pages put together are the one list


def test_my_games_refusals(api):
    token = api.new_player()["token"]
    assert_refused(api.call("GET", "/v1/players/me/games"), 401, "unauthorized")
    assert_refused(_list(api, token, status="lost"), 422, "invalid_request")
    assert_refused(_list(api, token, limit=0), 422, "invalid_request")
    assert_refused(_list(api, token, limit=51), 422, "invalid_request")
    assert_refused(_list(api, token, cursor="not-a-cursor!"), 422, "invalid_cursor")
    finished_cursor = _cursor({"s": "finished", "w": [10**13, "A" * 12], "b": "end"})
    assert_refused(_list(api, token, cursor=finished_cursor), 422, "invalid_cursor")  # another list's cursor
    assert _list(api, token, status="finished", cursor=finished_cursor).status == 200
    out_of_range = _cursor({"s": "active", "w": [1, "A" * 12], "b": "end"})  # order 1: no active game has it
    assert_refused(_list(api, token, cursor=out_of_range), 422, "invalid_cursor")
    assert_refused(
        _list(api, token, cursor=_cursor({"s": "active", "w": [True, "A"], "b": None})), 422, "invalid_cursor"
    )
    assert_refused(_list(api, token, cursor=_cursor(["not", "a", "dict"])), 422, "invalid_cursor")


def _cursor(data) -> str:
    import base64
    import json

    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def test_a_refused_draughts_move_says_a_capture_is_compulsory(api):
    # English draughts, Black first: after 11-15 22-18 the capture 15x22 is compulsory for Black.
    game_id, seats = api.start_game("english")
    for ply, (seat, move) in enumerate([("black", "11-15"), ("white", "22-18")]):
        api.move(seats[seat], game_id, move, ply)
    body = assert_refused(api.move(seats["black"], game_id, "9-13", 2), 422, "illegal_move")
    assert body["error"]["reason"] == "capture_required"
    assert body["legal_moves"] == ["15x22"] and "15x22" in body["error"]["message"]
