"""The export route: a game as PGN (chess, checked with python-chess as the oracle) or PDN (draughts)."""

from __future__ import annotations

from tests.checks import known
from tests.games.test_games_api import assert_refused


def test_export_chess_as_pgn(api):
    import io

    import chess.pgn

    game_id, seats = api.start_game()
    api.play(game_id, seats, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"])
    api.call("POST", f"/v1/games/{game_id}/resign", token=seats["black"])
    answer = api.call("GET", f"/v1/games/{game_id}/export")
    assert answer.status == 200 and answer.headers["content-type"].startswith("application/x-chess-pgn")
    assert answer.headers["content-disposition"] == f'attachment; filename="ubao-chess-{game_id}.pgn"'
    parsed = known(chess.pgn.read_game(io.StringIO(answer.text)))  # python-chess as the oracle
    assert [node.san() for node in parsed.mainline()] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert parsed.headers["Result"] == "1-0" and parsed.headers["White"] == "Asha"
    assert parsed.headers["Black"] == "Baraka" and parsed.headers["Termination"] == "normal"
    assert list(parsed.headers)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert "{Black resigns.}" in answer.text and not parsed.errors
    assert all(len(line) < 80 for line in answer.text.splitlines())


def test_export_a_set_up_chess_game(api):
    import io

    import chess.pgn

    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    game_id, seats = api.start_game("chess", fen=fen)
    api.play(game_id, seats, ["Kd7", "e4", "Ke6"])
    text = api.call("GET", f"/v1/games/{game_id}/export").text
    parsed = known(chess.pgn.read_game(io.StringIO(text)))
    assert parsed.headers["SetUp"] == "1" and parsed.headers["FEN"] == fen
    assert [node.san() for node in parsed.mainline()] == ["Kd7", "e4", "Ke6"]
    assert "40... Kd7 41. e4 Ke6 *" in text


def test_export_english_draughts_as_pdn(api):
    from draughts.PDN import PDNReader

    game_id, seats = api.start_game("english")
    api.play(game_id, seats, ["11-15", "23-19", "8-11", "22-17"])
    api.call("POST", f"/v1/games/{game_id}/draw", {"action": "offer"}, token=seats["white"])
    api.call("POST", f"/v1/games/{game_id}/draw", {"action": "accept"}, token=seats["black"])
    answer = api.call("GET", f"/v1/games/{game_id}/export")
    assert answer.headers["content-disposition"].endswith('.pdn"')
    parsed = PDNReader(pdn_text=answer.text).games[0]  # pydraughts as the oracle
    assert parsed.tags["GameType"] == "21" and parsed.tags["Result"] == "1-1"
    assert parsed.moves == ["11-15", "23-19", "8-11", "22-17"]
    assert "1. 11-15 23-19 2. 8-11 22-17 {Draw agreed.} 1-1" in answer.text


def test_export_tanzanian_draughts_as_pdn(api):
    game_id, seats = api.start_game("tanzanian")
    api.play(game_id, seats, ["c3-d4", "f6-e5", "d4xf6"])
    text = api.call("GET", f"/v1/games/{game_id}/export").text
    assert '[GameType "' in text and ',W,8,8,A0,0"]' in text
    assert '[Variant "Tanzanian draughts (TZD-8x8-v1)"]' in text
    assert "1. c3-d4 f6-e5 2. d4xf6 *" in text


def test_export_unknown_game(api):
    assert_refused(api.call("GET", "/v1/games/AAAAAAAAAAAA/export"), 404, "game_not_found")
