"""Strict input: a value of the wrong type is refused with 422 and nothing is written, never read as something
the client may not have meant ("1" or true as a ply, "yes" as a boolean option, 2.0 as a number of days)."""

from __future__ import annotations

import pytest

from tests.games.client import snapshot


@pytest.fixture
def started(api):
    return api.start_game("english")


@pytest.mark.parametrize("ply", ["0", True, 0.0, None, [0]])
def test_a_ply_of_another_type_is_refused(api, started, ply):
    game_id, seats = started
    before = snapshot()
    answer = api.call("POST", f"/v1/games/{game_id}/moves", {"move": "11-15", "ply": ply}, token=seats["black"])
    assert answer.status == 422 and answer.code == "invalid_request", answer.body
    assert snapshot() == before


@pytest.mark.parametrize(
    "options",
    [
        {"mandatory_capture": "yes"},
        {"mandatory_capture": "false"},
        {"mandatory_capture": 1},
        {"days_per_move": 2.0},
        {"days_per_move": "2"},
        {"days_per_move": True},
        {"swap_colors": "no"},
        {"move_limit": "80"},
        {"move_limit": 80.0},
    ],
)
def test_an_option_of_another_type_is_refused(api, options):
    token = api.new_player()["token"]
    before = snapshot()
    answer = api.call("POST", "/v1/games", {"game": "english", "options": options}, token=token)
    assert answer.status == 422 and answer.code in ("invalid_request", "invalid_option"), answer.body
    assert snapshot() == before


@pytest.mark.parametrize(
    "body", [{"opponent": {"type": "cpu", "level": "2"}}, {"opponent": {"type": "cpu", "level": 2.0}}]
)
def test_a_computer_level_of_another_type_is_refused(api, body):
    token = api.new_player()["token"]
    before = snapshot()
    answer = api.call("POST", "/v1/games", {"game": "chess", **body}, token=token)
    assert answer.status == 422 and answer.code == "invalid_request", answer.body
    assert snapshot() == before


@pytest.mark.parametrize("name", [5, True, ["Asha"]])
def test_a_name_of_another_type_is_refused(api, name):
    before = snapshot()
    answer = api.call("POST", "/v1/players", {"name": name})
    assert answer.status == 422 and answer.code == "invalid_request", answer.body
    assert snapshot() == before


def test_well_typed_options_still_work(api):
    token = api.new_player()["token"]
    options = {"mandatory_capture": False, "days_per_move": 2, "swap_colors": False, "move_limit": 80}
    answer = api.create(token, "english", options=options)
    assert {name: answer.body["game"]["options"][name] for name in options} == options
