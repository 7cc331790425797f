"""The game review on a phone (360x740), in Swahili and Tagalog: asked for on a finished game's page, run by the
local runner's own review feed (Stockfish), then the evaluation graph, the marks beside the moves, a tap on the
graph showing that position, the better move marked on the board, and "Your mistakes" in Fumbo."""

from __future__ import annotations

import json

import pytest

from tests.browser.boards import BoardView, expected_pieces, page_config
from tests.browser.harness import http
from tests.review.test_review import QUEEN_HUNG, QUEEN_HUNG_PLY, needs_stockfish

PHONE = {"width": 360, "height": 740}
REVIEW_SECONDS = 120_000  # the feed looks every few seconds; the review itself is seconds of Stockfish


def finished_game(origin: str) -> tuple[str, dict, dict]:
    """A chess game where Black hangs the queen (ply 6), then resigns: (id, white player, black player)."""
    white, black = http(origin, "POST", "/v1/players", {}), http(origin, "POST", "/v1/players", {})
    created = http(origin, "POST", "/v1/games", {"game": "chess", "color": "white"}, token=white["token"])
    game_id = created["game"]["id"]
    http(origin, "POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, token=black["token"])
    for ply, move in enumerate(QUEEN_HUNG):
        token = (white if ply % 2 == 0 else black)["token"]
        http(origin, "POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=token)
    http(origin, "POST", f"/v1/games/{game_id}/resign", token=black["token"])
    return game_id, white, black


def phone(contexts, player: dict):
    """A phone whose browser is ``player``'s (the token kept as api.js keeps it)."""
    page = contexts.new_page(viewport=PHONE)
    kept = json.dumps({"player_id": player["player_id"], "token": player["token"]})
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(kept)})")
    return page


def reads_the_review(page, messages: dict) -> None:
    """The graph across the phone's width, the marks beside the moves, a tap on the graph, the better move."""
    graph = page.locator(".review-graph")
    graph.wait_for(timeout=REVIEW_SECONDS)
    box = graph.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    moves = page.locator(".review-move")
    assert moves.count() == len(QUEEN_HUNG)
    blunder = moves.nth(QUEEN_HUNG_PLY - 1)
    assert blunder.inner_text() == QUEEN_HUNG[QUEEN_HUNG_PLY - 1] + "??"
    assert blunder.get_attribute("data-mark") == "??"
    assert page.locator('.review-graph circle[data-mark="??"]').count() >= 1
    page.locator(f'.review-graph rect[data-ply="{QUEEN_HUNG_PLY}"]').click()  # a tap on the graph
    after = page.evaluate(f"fetch('/v1/games/' + new URLSearchParams(location.search).get('id') + '/review')"
                          f".then((r) => r.json()).then((r) => r.moves[{QUEEN_HUNG_PLY - 1}])")  # fmt: skip
    board = BoardView(page.locator("#game .board-host"))
    board.wait_for_pieces(expected_pieces("chess", after["fen"]))
    line = page.locator(".review-line")
    assert messages["review_mark_blunder"] in line.inner_text() and after["best"] in line.inner_text()
    # Numbered as the move list numbers it: Black's third move is "3 …Qd6", not "move 6".
    number, played = (QUEEN_HUNG_PLY + 1) // 2, "\u2026" + QUEEN_HUNG[QUEEN_HUNG_PLY - 1]
    assert (
        line.inner_text().startswith(messages["review_move_marked"].split("%(ply)s")[0] + str(number))
        and f"{played}" in line.inner_text()
    )
    # A tap on a marked move down in the review: the board is on the screen beside it, whole.
    page.mouse.wheel(0, 2000)
    blunder.click()
    shown = page.locator("#game .board-host").bounding_box()
    assert shown and shown["y"] >= 0 and shown["y"] + shown["width"] <= PHONE["height"], shown
    tapped = blunder.bounding_box()
    assert tapped and 0 <= tapped["y"] < PHONE["height"]  # and the move tapped is still there too
    page.locator(".review-best").click()  # the better move, marked on the board before the blunder
    for square in after["best_squares"]:
        assert "last" in (board.square(square).get_attribute("class") or "")


@needs_stockfish
@pytest.mark.usefixtures("needs_dynamodb")
def test_a_review_asked_for_in_swahili_and_read_in_tagalog_with_your_mistakes_in_fumbo(contexts, server) -> None:
    game_id, asha, baraka = finished_game(server.origin)
    # Baraka (Black, who hung his queen) asks for the review on his phone, in Swahili.
    page = phone(contexts, baraka)
    page.goto(f"/sw/mchezo/?id={game_id}")
    messages = page_config(page)["messages"]
    ask = page.locator(".review-ask")
    ask.wait_for()
    assert ask.inner_text() == messages["review_ask"]
    ask.click()
    page.locator(".review h3").wait_for()
    reads_the_review(page, messages)
    mistakes = page.locator(".review-mistakes")
    assert mistakes.inner_text() == messages["review_mistakes"]
    mistakes.click()  # his own mistake, as a puzzle in Fumbo
    page.wait_for_url("**/sw/fumbo/**")
    fumbo = page_config(page)["fumbo"]
    chess = page.locator('.puzzle[data-game="chess"]')
    meta = chess.locator(".meta")
    meta.wait_for()
    page.wait_for_function("(node) => node.textContent.length > 0", arg=meta.element_handle())
    # The opponent's punishment of his blunder, said so, numbered as the move list: "3", "…Qd6".
    punish = fumbo["mine_punish"].replace("%(number)s", str((QUEEN_HUNG_PLY + 1) // 2))
    assert meta.inner_text() == punish.replace("%(move)s", "\u2026" + QUEEN_HUNG[QUEEN_HUNG_PLY - 1])
    assert chess.locator("button.your-mistakes").inner_text() == fumbo["mine_button"]
    BoardView(chess.locator(".board-host")).click("f4", "d6")  # Bxd6: the queen his blunder left
    page.wait_for_function(
        "([node, text]) => node.textContent.includes(text)",
        arg=[chess.locator(".status").element_handle(), fumbo["replay_solved"]],
    )

    # Asha (White) opens the game on her phone, in Tagalog: the review is there, no need to ask.
    tagalog = phone(contexts, asha)
    tagalog.goto(f"/tl/mchezo/?id={game_id}")
    reads_the_review(tagalog, page_config(tagalog)["messages"])
    tagalog.goto("/tl/fumbo/#chess")
    tagalog.wait_for_function("document.body.dataset.fumbo === 'ready'")  # the day's puzzles first
    fumbo_tl = page_config(tagalog)["fumbo"]
    mine = tagalog.locator('.puzzle[data-game="chess"] button.your-mistakes')
    mine.wait_for()
    assert mine.inner_text() == fumbo_tl["mine_button"]
    mine.click()  # she made no mistake worth a puzzle
    status = tagalog.locator('.puzzle[data-game="chess"] .status')
    tagalog.wait_for_function(
        "([node, text]) => node.textContent === text", arg=[status.element_handle(), fumbo_tl["mine_none"]]
    )
