"""Games against the computer through the API (moto): the computer's replies are validated moves in the same
log and export, it never holds a token, nobody can move for it, and an owed reply survives a crash."""

from __future__ import annotations

import random

import pytest

from shared_rules import get_game
from tests.games.client import snapshot


def create_cpu_game(api, game="chess", color="white", level=1, **extra):
    player = api.new_player("Asha")
    body = {"game": game, "color": color, "opponent": {"type": "cpu", "level": level}, **extra}
    answer = api.call("POST", "/v1/games", body, token=player["token"])
    assert answer.status == 201, answer.body
    return player["token"], answer


@pytest.mark.parametrize("game_name", ["chess", "english", "tanzanian"])
def test_a_whole_game_against_the_computer(api, game_name):
    rules = get_game(game_name)
    me = rules.start().turn  # the side that starts (Black in English draughts)
    cpu = "black" if me == "white" else "white"
    token, created = create_cpu_game(api, game_name, color=me, level=1)
    state = created.body["game"]
    assert created.body["invite"] is None and created.body["seat"] == me
    assert state["state"] == "active" and state["ply"] == 0
    assert state["players"][cpu] == {"player_id": "cpu", "name": "Computer (level 1)", "cpu_level": 1}
    game_id = state["id"]
    rng = random.Random(game_name)
    mine = []
    position = rules.start()
    while state["status"]["result"] == "ongoing" and state["ply"] < 80:
        assert state["turn"] == me  # the computer has always answered already
        move = rng.choice(state["legal_moves"])
        answer = api.move(token, game_id, move, state["ply"])
        assert answer.status == 200, answer.body
        before, state = state, answer.body
        mine.append(move)
        position = position.play(move)
        if state["status"]["result"] == "ongoing":
            assert state["ply"] == before["ply"] + 2
        if state["ply"] == before["ply"] + 2:
            # The computer answered with a legal move of its own (its SAN may spell like mine: exd5, exd5).
            position = position.play(state["last_move"])
        assert state["fen"] == position.fen()
    if state["status"]["result"] == "ongoing":
        resigned = api.call("POST", f"/v1/games/{game_id}/resign", token=token)
        assert resigned.status == 200 and resigned.body["status"] == {"result": cpu, "reason": "resignation"}
    detail = api.get(game_id).body
    moves = api.all_moves(game_id)
    # The log replays through the rules: every computer move was legal, and mine are every other one.
    final = rules.replay(moves)
    assert final.fen() == detail["fen"]
    assert len(moves) == detail["ply"] and len(moves) >= 2 * len(mine) - 1
    assert [rules.replay(moves[:i]).parse_move(m) for i, m in enumerate(moves) if i % 2 == 0]
    export = api.call("GET", f"/v1/games/{game_id}/export").text
    assert f'[{cpu.capitalize()} "Computer (level 1)"]' in export and f'[{me.capitalize()} "Asha"]' in export
    assert moves[-1] in export


def test_the_computer_opens_when_it_has_white(api):
    token, created = create_cpu_game(api, "chess", color="black", level=2)
    state = created.body["game"]
    assert state["ply"] == 1 and state["turn"] == "black"
    assert state["last_move"] in get_game("chess").start().legal_notations()
    answer = api.move(token, state["id"], state["legal_moves"][0], 1)
    assert answer.status == 200 and answer.body["ply"] == 3 and answer.body["turn"] == "black"


def test_nobody_can_move_for_the_computer(api):
    token, created = create_cpu_game(api, "chess", color="white", level=1)
    game_id = created.body["game"]["id"]
    state = api.move(token, game_id, "e4", 0).body
    stranger = api.new_player("Juma")["token"]
    before = snapshot()
    # A stranger holds no seat; the player cannot move for Black; nor replay an old ply as the computer.
    assert api.move(stranger, game_id, state["legal_moves"][0], state["ply"]).code == "not_a_player"
    assert api.call("POST", f"/v1/games/{game_id}/join", {"invite": "x" * 22}, token=stranger).status in (403, 409)
    black_reply = api.move(token, game_id, "e5", 1)
    assert black_reply.status == 409 and black_reply.code == "stale_ply"
    assert snapshot() == before


def test_a_retried_move_gets_the_same_answer_and_writes_nothing(api):
    token, created = create_cpu_game(api, "tanzanian", color="white", level=3)
    game_id = created.body["game"]["id"]
    first = api.move(token, game_id, "c3-d4", 0)
    before = snapshot()
    again = api.move(token, game_id, "c3-d4", 0)
    assert again.status == 200 and again.body == first.body
    assert snapshot() == before


def test_the_reply_is_reproducible_for_the_same_game_and_ply(api):
    from games.domain.computer import cpu_seed

    assert cpu_seed("abcdefghijkl", 3) == cpu_seed("abcdefghijkl", 3) != cpu_seed("abcdefghijkl", 5)


def test_an_owed_reply_is_made_by_the_next_read(api, monkeypatch):
    from common.persistence.store import StoreUnavailable
    from games.repository import GameStore

    token, created = create_cpu_game(api, "english", color="black", level=1)
    game_id = created.body["game"]["id"]
    real_append = GameStore.append_event
    calls = {"n": 0}

    def fail_the_computers_append(self, game, event):
        calls["n"] += 1
        if event.get("by") == "white":  # the computer's seat
            raise StoreUnavailable("throttled")
        return real_append(self, game, event)

    monkeypatch.setattr(GameStore, "append_event", fail_the_computers_append)
    answer = api.move(token, game_id, "11-15", 0)
    assert answer.status == 200 and answer.body["ply"] == 1 and answer.body["turn"] == "white"  # my move is kept
    monkeypatch.setattr(GameStore, "append_event", real_append)
    detail = api.get(game_id).body
    assert detail["ply"] == 2 and detail["turn"] == "black" and len(detail["moves"]) == 2
    retried = api.move(token, game_id, "11-15", 0)
    assert retried.status == 200 and retried.body["ply"] == 2


def test_a_bad_level_is_a_422_and_writes_nothing(api):
    player = api.new_player("Asha")
    before = snapshot()
    for opponent in (
        {"type": "cpu", "level": 6},
        {"type": "cpu", "level": 0},
        {"type": "human", "level": 2},
        {"type": "cpu"},
    ):
        answer = api.call("POST", "/v1/games", {"game": "chess", "opponent": opponent}, token=player["token"])
        assert answer.status == 422, (opponent, answer.body)
    assert snapshot() == before


def test_a_rematch_against_the_computer(api):
    token, created = create_cpu_game(api, "chess", color="white", level=1)
    game_id = created.body["game"]["id"]
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=token).status == 200
    rematch = api.call("POST", f"/v1/games/{game_id}/rematch", token=token)
    assert rematch.status == 201 and rematch.body["seat"] == "black"
    game = rematch.body["game"]
    assert game["players"]["white"]["cpu_level"] == 1 and game["ply"] == 1  # the computer opened
