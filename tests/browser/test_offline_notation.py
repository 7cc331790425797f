"""A chess puzzle move made offline is named as chess players write it (SAN, "Qxb1+"), not by the squares
the board sends ("a1b1"), on a phone (360x740) in Swahili and Tagalog."""

from __future__ import annotations

import chess
import pytest

from tests.browser.boards import BoardView, expected_pieces
from tests.browser.offline_pages import outbox
from tests.checks import known

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_an_offline_chess_attempt_is_shown_in_san(contexts, needs_dynamodb, lang):
    from puzzles.catalog import find
    from tests.browser.test_fumbo import clicks_for, wrong_first_move

    page = contexts.new(viewport=PHONE).new_page()
    with (
        page.expect_response(lambda r: "/v1/puzzles/daily?game=chess" in r.url) as daily,
        page.expect_response(lambda r: r.url.endswith("/v1/validate")) as legal,
    ):
        page.goto(f"/{lang}/fumbo/")
    puzzle = daily.value.json()
    assert legal.value.ok  # the board knows the legal moves, by their squares and in SAN
    board = BoardView(page.locator("#puzzle-chess .board-host"))
    board.wait_for_pieces(expected_pieces("chess", puzzle["fen"]))
    wrong = wrong_first_move(find(puzzle["id"]))
    uci = chess.Board(puzzle["fen"]).parse_san(wrong).uci()

    page.context.set_offline(True)
    board.click(*known(clicks_for("chess", puzzle["fen"], wrong)))
    queued = page.locator("#offline-messages").get_attribute("data-attempt-queued") or ""
    status = page.locator("#puzzle-chess .status")
    status.filter(has_text=queued.replace("%(move)s", wrong)).wait_for()
    assert uci not in status.inner_text()
    (kept,) = outbox(page, "attempts")
    assert kept["moves"] == [uci]  # what is sent stays the squares: the server reads them
    page.context.set_offline(False)
