"""POST /v1/validate through its Lambda handler, with API Gateway payload-2.0 events.

Legal moves are checked against python-chess directly (chess) and against positions worked out by hand
(draughts); every malformed kind of request gets its 4xx and the API's error shape, never a 500.
"""

from __future__ import annotations

import json

import chess
import pytest
from pydantic import TypeAdapter
from validate_move.handler import lambda_handler
from validate_move.models import MAX_HISTORY_MOVES, ValidateResponse

from local.events import LambdaContext, http_api_event
from tests.api.helpers import assert_error, call, logged_lines

RESPONSE = TypeAdapter(ValidateResponse)
ENGLISH_START_WHITE_REPLIES = ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


def validate(body, **kwargs):
    text = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return call(lambda_handler, "POST", "/v1/validate", text, **kwargs)


def verdict(body, **kwargs):
    answer = validate(body, **kwargs)
    assert answer.status == 200, answer.body
    RESPONSE.validate_python(answer.body)  # the documented response model, exactly
    return answer.body


# ---------------------------------------------------------------------------------------- legal moves
def test_a_legal_chess_move_gives_the_position_after_it_and_the_replies():
    board = chess.Board()
    board.push_san("e4")
    body = verdict({"game": "chess", "move": "e4"})
    assert body["legal"] is True
    assert body["move"] == "e4"
    assert body["fen"] == board.fen()
    assert body["status"] == {"result": "ongoing", "reason": None}
    assert sorted(body["legal_moves"]) == sorted(board.san(move) for move in board.legal_moves)


def test_a_chess_move_in_another_notation_comes_back_canonical():
    body = verdict({"game": "chess", "moves": ["e4", "e5"], "move": "g1f3"})
    assert body["legal"] is True and body["move"] == "Nf3"


def test_checkmate_ends_the_game_with_no_moves_left():
    body = verdict({"game": "chess", "moves": ["f3", "e5", "g4"], "move": "Qh4"})
    assert body["move"] == "Qh4#"
    assert body["status"] == {"result": "black", "reason": "checkmate"}
    assert body["legal_moves"] == []


def test_the_history_counts_for_repetition():
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    body = verdict({"game": "chess", "moves": shuffle, "move": "Ng8"})
    assert body["status"] == {"result": "draw", "reason": "threefold_repetition"}
    # The same move without the history is an ordinary move.
    fresh = verdict({"game": "chess", "fen": chess.Board().fen(), "moves": ["Nf3", "Nf6", "Ng1"], "move": "Ng8"})
    assert fresh["status"]["result"] == "ongoing"


def test_a_legal_english_draughts_move():
    body = verdict({"game": "english", "move": "9-13"})
    assert body["fen"] == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13"
    assert body["legal_moves"] == ENGLISH_START_WHITE_REPLIES


def test_a_legal_tanzanian_draughts_move():
    body = verdict({"game": "tanzanian", "move": "a3-b4"})
    assert body["fen"] == "B:Wa1,b2,b4,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
    assert body["legal_moves"] == ["b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"]


def test_options_are_passed_to_the_rules():
    # With a move limit of 1 ply, the first move ends the game in a draw.
    body = verdict({"game": "english", "move": "9-13", "options": {"move_limit": 1}})
    assert body["status"] == {"result": "draw", "reason": "move_limit"}


# ------------------------------------------------------------------ illegal moves are answers, not errors
def test_an_illegal_move_is_a_200_answer_with_the_legal_moves():
    body = verdict({"game": "chess", "move": "e5"})
    assert body["legal"] is False
    assert body["error"]["code"] == "illegal_move" and "e5" in body["error"]["message"]
    assert sorted(body["legal_moves"]) == sorted(chess.Board().san(move) for move in chess.Board().legal_moves)


def test_an_illegal_draughts_move():
    body = verdict({"game": "english", "move": "21-17"})  # White's man, but Black moves first
    assert body["legal"] is False and body["error"]["code"] == "illegal_move"
    assert body["error"]["reason"] == "wrong_color"
    assert body["legal_moves"] == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_an_ambiguous_move_says_so():
    body = verdict({"game": "chess", "fen": "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "move": "Nd2"})
    assert body["legal"] is False and body["error"]["code"] == "ambiguous_move"
    assert {"Nbd2", "Nfd2"} <= set(body["legal_moves"])


def test_a_move_after_the_end_is_refused_as_game_over():
    body = verdict({"game": "chess", "moves": ["f3", "e5", "g4", "Qh4#"], "move": "a3"})
    assert body == {
        "legal": False,
        "error": {"code": "game_over", "message": body["error"]["message"], "reason": "game_over"},
        "legal_moves": [],
        "legal_moves_uci": [],
    }
    assert "checkmate" in body["error"]["message"]


# --------------------------------------------------------------------------------------- malformed
@pytest.mark.parametrize(
    ("body", "status", "code", "says"),
    [
        ("{not json", 400, "invalid_json", "not valid JSON"),
        ('{"game": "chess", "move": NaN}', 400, "invalid_json", "NaN"),
        ('{"game": "chess", "move": "e4", "x": ' + "9" * 5000 + "}", 400, "invalid_json", "not valid JSON"),
        ("[" * 5000 + "]" * 5000, 400, "invalid_json", "nested too deeply"),
        ("", 422, "invalid_request", "body"),
        ("[1, 2]", 422, "invalid_body", "an array"),
        ('"e4"', 422, "invalid_body", "a string"),
        ("  null", 422, "invalid_body", "null"),
        ("[1, 2", 400, "invalid_json", "not valid JSON"),
        ({"move": "e4"}, 422, "invalid_request", "game"),
        ({"game": "chess"}, 422, "invalid_request", "move"),
        ({"game": "go", "move": "e4"}, 422, "invalid_request", "game"),
        ({"game": "chess", "move": ""}, 422, "invalid_request", "move"),
        ({"game": "chess", "move": 5}, 422, "invalid_request", "move"),
        ({"game": "chess", "move": "e4", "mvoe": "e4"}, 422, "invalid_request", "mvoe"),
        ({"game": "chess", "move": "e4", "moves": "e2e4"}, 422, "invalid_request", "moves"),
        ({"game": "chess", "move": "e4", "moves": ["e4", None]}, 422, "invalid_request", "moves[1]"),
        ({"game": "chess", "move": "e4", "moves": ["a3"] * (MAX_HISTORY_MOVES + 1)}, 422, "invalid_request", "moves"),
        ({"game": "chess", "move": "e4", "fen": "x" * 201}, 422, "invalid_request", "fen"),
        ({"game": "chess", "move": "e4", "options": []}, 422, "invalid_request", "options"),
        ({"game": "chess", "move": "e4", "options": {"a": {"b": 1}}}, 422, "invalid_request", "options"),
        ({"game": "chess", "move": "e4", "fen": "not a fen"}, 422, "invalid_fen", "not a fen"),
        ({"game": "chess", "move": "e4", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, 422, "invalid_fen", "king"),
        ({"game": "english", "move": "9-13", "fen": "W:W1:B1"}, 422, "invalid_fen", "square 1"),
        ({"game": "english", "move": "9-13", "options": {"flying_kings": True}}, 422, "invalid_option", "flying"),
        ({"game": "english", "move": "9-13", "options": {"move_limit": 0}}, 422, "invalid_option", "move_limit"),
        ({"game": "chess", "move": "e4", "options": {"mandatory_capture": True}}, 422, "invalid_option", "mandatory"),
        ({"game": "chess", "moves": ["e4", "e4"], "move": "d5"}, 422, "illegal_move", "move 2"),
        ({"game": "english", "moves": ["9-13", "9-13"], "move": "10-14"}, 422, "illegal_move", "move 2"),
    ],
)
def test_a_malformed_request_gets_a_4xx_that_says_what_is_wrong(body, status, code, says):
    answer = validate(body)
    message = assert_error(answer, status, code)
    assert says.lower() in message.lower(), message


def test_a_body_over_64_kib_is_refused_with_413():
    padding = "a" * (64 * 1024)
    assert_error(validate({"game": "chess", "move": "e4", "pad": padding}), 413, "payload_too_large")


def test_a_body_of_exactly_64_kib_is_read():
    body = json.dumps({"game": "chess", "move": "e4", "fen": None})
    body = body[:-1] + " " * (64 * 1024 - len(body)) + "}"
    assert len(body.encode()) == 64 * 1024
    assert validate(body).status == 200


def test_multibyte_text_is_measured_in_bytes():
    # 30,000 characters but 90,000 bytes of UTF-8: over the limit.
    assert_error(validate({"game": "chess", "move": "e4", "pad": "\u20ac" * 30_000}), 413, "payload_too_large")


def test_a_base64_body_is_decoded_and_checked():
    body = json.dumps({"game": "chess", "move": "e4"})
    assert validate(body, base64_body=True).status == 200
    assert_error(validate("x" * (70 * 1024), base64_body=True), 413, "payload_too_large")
    assert_error(validate(b"\xff\xfe{}", base64_body=True), 400, "invalid_json")


def test_a_body_that_is_not_base64_although_marked_so():
    from local.events import LambdaContext, http_api_event

    event = http_api_event("POST", "/v1/validate", headers={"content-type": "application/json"}, body="{}")
    event["isBase64Encoded"] = True
    event["body"] = "%%% not base64 %%%"
    result = lambda_handler(event, LambdaContext(function_name="test"))
    assert result["statusCode"] == 400
    assert json.loads(result["body"])["error"]["code"] == "invalid_json"


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", None]
)
def test_a_body_not_sent_as_json_is_refused_with_415(content_type):
    # A cross-site page can POST text/plain or a form without a CORS preflight: neither may reach a route.
    headers = {"content-type": content_type} if content_type is not None else {}
    event = http_api_event("POST", "/v1/validate", headers=headers, body='{"game": "chess", "move": "e4"}')
    result = lambda_handler(event, LambdaContext(function_name="test"))
    assert result["statusCode"] == 415, result
    assert json.loads(result["body"])["error"]["code"] == "unsupported_media_type"


@pytest.mark.parametrize("content_type", ["application/json", "Application/JSON; charset=utf-8"])
def test_a_json_body_is_read_with_its_parameters(content_type):
    answer = validate({"game": "chess", "move": "e4"}, headers={"content-type": content_type})
    assert answer.status == 200 and answer.body["legal"] is True


# --------------------------------------------------------------------------------- routes and methods
def test_another_method_on_the_path_is_405_with_allow():
    answer = call(lambda_handler, "GET", "/v1/validate")
    assert_error(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"


def test_an_unknown_path_is_404():
    assert_error(call(lambda_handler, "POST", "/v1/nothing", "{}"), 404, "not_found")


# ------------------------------------------------------------------------------------------- logs
def test_every_log_line_carries_the_request_id_as_correlation_id():
    with logged_lines() as stream:
        validate({"game": "go", "move": "e4"}, request_id="req-123-abc")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines, "the refusal is logged"
    assert all(line["correlation_id"] == "req-123-abc" for line in lines)
    assert lines[-1]["code"] == "invalid_request" and lines[-1]["level"] == "INFO"


# ------------------------------------------------------------------ every refusal says why (error.reason)
ENGLISH_CAPTURE = "B:W18,27:B14,5"  # Black to move; 14x23x32 is compulsory


@pytest.mark.parametrize(
    ("request_body", "reason"),
    [
        ({"game": "english", "fen": ENGLISH_CAPTURE, "move": "5-9"}, "capture_required"),
        ({"game": "english", "fen": ENGLISH_CAPTURE, "move": "13-17"}, "no_piece"),
        ({"game": "english", "fen": ENGLISH_CAPTURE, "move": "27-24"}, "wrong_color"),
        ({"game": "english", "move": "9-18"}, "blocked"),
        ({"game": "english", "move": "hello"}, "unknown_move"),
        ({"game": "tanzanian", "fen": "W:Wh2:Bg3,e5,c5", "move": "h2-g1"}, "capture_required"),
        ({"game": "tanzanian", "move": "d4-e5"}, "no_piece"),
        ({"game": "chess", "move": "e2e5"}, "blocked"),
        ({"game": "chess", "move": "e7e5"}, "wrong_color"),
        ({"game": "chess", "move": "e4e5"}, "no_piece"),
        ({"game": "chess", "fen": "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "move": "Qd4"}, "no_piece"),
        ({"game": "chess", "move": "Ke2"}, "blocked"),
        ({"game": "chess", "fen": "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "move": "Nd2"}, "ambiguous"),
    ],
)
def test_a_refused_move_carries_its_reason(request_body, reason):
    body = verdict(request_body)
    assert body["legal"] is False
    assert body["error"]["reason"] == reason, body["error"]


def test_a_required_capture_is_named_in_the_message():
    body = verdict({"game": "english", "fen": ENGLISH_CAPTURE, "move": "5-9"})
    assert body["legal_moves"] == ["14x23x32"]
    assert "14x23x32" in body["error"]["message"]


def test_chess_moves_come_by_their_squares_too():
    board = chess.Board()
    board.push_san("e4")
    body = verdict({"game": "chess", "move": "e4"})
    assert sorted(body["legal_moves_uci"]) == sorted(move.uci() for move in board.legal_moves)
    assert verdict({"game": "english", "move": "9-13"})["legal_moves_uci"] is None
