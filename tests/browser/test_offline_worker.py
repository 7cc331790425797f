"""Offline first in Chromium, the service worker's part: moves and puzzle attempts kept offline are sent by the
worker (Background Sync) with the page closed, and a conflict shows at the next open."""

from __future__ import annotations

import time

from tests.browser.harness import controlled, http, page_token
from tests.browser.offline_pages import outbox, wait_on_fake_time
from tests.checks import known


def sent_by_the_worker(context, store: str, outcome: dict) -> None:
    """With no game or puzzle page open, wait until the service worker has sent the kept record and written
    what the server said on it (``outcome``'s fields; a page of the same origin that does not touch the
    outbox reads it)."""
    reader = context.new_page()
    reader.goto("/en/sheria/")
    deadline = time.monotonic() + 30
    while [{key: (record["outcome"] or {}).get(key) for key in outcome} for record in outbox(reader, store)] != [
        outcome
    ]:
        assert time.monotonic() < deadline, outbox(reader, store)
        time.sleep(0.2)
    reader.close()


def with_background_sync(player):
    """The test's Player grants the clipboard, and Chromium then refuses every permission not granted (the
    page falls back to the `online` event then, as the two tests above show): grant Background Sync too."""
    player.page.context.grant_permissions(["clipboard-read", "clipboard-write", "background-sync"])
    return player


def test_a_move_kept_offline_is_sent_by_the_worker_with_the_page_closed(contexts, server, needs_dynamodb):
    from tests.browser.boards import after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]
    asha, ben = with_background_sync(Player(contexts, "sw")), Player(contexts, "en")
    link = asha.create("chess", "white")
    ben.join(link)
    wait_on_fake_time(asha, None)  # Asha's page sees that Ben joined
    game_url = asha.page.url
    controlled(asha.page)

    asha.page.context.set_offline(True)
    asha.move("chess", start, "e4")
    queued = asha.page.locator("#offline-messages").get_attribute("data-move-queued")
    asha.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    (kept,) = outbox(asha.page, "moves")
    token = page_token(asha.page)
    assert kept["move"] in ("e4", "e2e4") and (kept["ply"], kept["token"], kept["outcome"]) == (0, token, None)
    context = asha.page.context
    asha.page.close()  # the game page is gone: only the worker can send the move now

    context.set_offline(False)  # the browser fires the worker's `sync`
    sent_by_the_worker(context, "moves", {"kind": "sent"})
    wait_on_fake_time(ben, expected_pieces("chess", after("chess", start, "e4")))

    # The next open shows what happened to the move, and forgets it.
    page = context.new_page()
    page.goto(game_url)
    sent = page.locator("#offline-messages").get_attribute("data-move-sent").replace("%(move)s", kept["move"])
    page.locator("#game .status").filter(has_text=sent).wait_for()
    assert outbox(page, "moves") == []


def test_a_conflicting_move_sent_by_the_worker_shows_the_opponents_move_at_the_next_open(
    contexts, server, needs_dynamodb
):
    from tests.browser.boards import BoardView, after, expected_pieces
    from tests.browser.test_mchezo import START, Player

    start = START["chess"]
    asha, ben = Player(contexts, "sw"), with_background_sync(Player(contexts, "tl"))
    link = asha.create("chess", "black")
    ben.join(link)  # Ben plays white
    game_url = ben.page.url
    controlled(ben.page)
    game_id = game_url.split("#game=")[1].split("&")[0]

    ben.page.context.set_offline(True)
    ben.move("chess", start, "e4")
    queued = ben.page.locator("#offline-messages").get_attribute("data-move-queued")
    ben.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    token = page_token(ben.page)
    context = ben.page.context
    ben.page.close()
    # Meanwhile Ben's other phone plays d4: the kept e4 was made at a ply the game has left.
    assert http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "d4", "ply": 0}, token)["ply"] == 1

    context.set_offline(False)
    sent_by_the_worker(context, "moves", {"kind": "conflict"})
    page = context.new_page()
    page.goto(game_url)
    first = page.locator("#offline-messages").get_attribute("data-opponent-first").split("%(move)s")[0].strip()
    page.locator("#game .status").filter(has_text=first).wait_for()
    BoardView(page.locator("#game .board-host")).wait_for_pieces(
        expected_pieces("chess", after("chess", start, "d4")), timeout=5_000
    )
    assert outbox(page, "moves") == []


def test_a_puzzle_attempt_kept_offline_is_sent_by_the_worker_and_the_progress_shows_it(
    contexts, server, needs_dynamodb
):
    from puzzles.catalog import find
    from tests.browser.boards import BoardView, expected_pieces, page_config
    from tests.browser.test_fumbo import clicks_for, wrong_first_move

    context = contexts.new()
    page = context.new_page()
    with page.expect_response(lambda r: "/v1/puzzles/daily?game=english" in r.url) as daily:
        page.goto("/en/fumbo/")
    puzzles = {"english": daily.value.json()}
    puzzles["tanzanian"] = page.request.get("/v1/puzzles/daily?game=tanzanian").json()
    missed = page_config(page)["fumbo"]["puzzle_missed"]

    def wrong_move(game: str) -> tuple[BoardView, str]:
        puzzle = puzzles[game]
        board = BoardView(page.locator(f"#puzzle-{game} .board-host"))
        board.wait_for_pieces(expected_pieces(game, puzzle["fen"]))
        return board, wrong_first_move(find(puzzle["id"]))

    # Online first, so that this browser has a player (and a token the worker can send with).
    board, move = wrong_move("english")
    board.click(*known(clicks_for("english", puzzles["english"]["fen"], move)))
    page.locator("#puzzle-english .status").filter(has_text=missed).wait_for()
    controlled(page)
    token = page_token(page)

    def progress() -> dict:
        return page.request.get("/v1/players/me/puzzles", headers={"Authorization": f"Bearer {token}"}).json()

    assert progress()["failed"] == 1

    context.set_offline(True)
    board, move = wrong_move("tanzanian")
    board.click(*known(clicks_for("tanzanian", puzzles["tanzanian"]["fen"], move)))
    queued = page.locator("#offline-messages").get_attribute("data-attempt-queued")
    page.locator("#puzzle-tanzanian .status").filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    (kept,) = outbox(page, "attempts")
    assert (kept["id"], kept["moves"], kept["token"]) == (puzzles["tanzanian"]["id"], [move], token)
    page.close()

    context.set_offline(False)
    sent_by_the_worker(context, "attempts", {"status": 200, "result": "failed"})
    assert progress()["failed"] == 2  # the server judged it with the page closed

    page = context.new_page()  # the next open shows the verdict on the board and forgets the record
    page.goto("/en/fumbo/")
    page.locator("#puzzle-tanzanian .status").filter(has_text=missed).wait_for()
    deadline = time.monotonic() + 10
    while outbox(page, "attempts"):
        assert time.monotonic() < deadline, outbox(page, "attempts")
        time.sleep(0.2)
    page.locator("#progress").wait_for(state="visible")
