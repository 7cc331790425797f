"""The game page's moves you can follow and step through, on a phone (360x740) in Swahili and Tagalog:
back three moves shows that position and "back to the game" returns; the arrow keys step too; a tap on a move
shows the position after it; a draw offer declined reaches the offerer within 5 s of page time; the
opponent's multi-capture goes hop by hop, the pieces it takes marked until each hop is done."""

from __future__ import annotations

import pytest

from tests.browser.boards import after, expected_pieces
from tests.browser.test_mchezo import START, Player

PHONE = {"width": 360, "height": 740}
OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]

CREATE_FROM = """
async ([game, fen, color]) => {
  const { call, player } = await import("/static/api.js");
  const me = await player();
  const created = await call("POST", "/v1/games", { body: { game, color, fen, options: {} }, token: me.token });
  const seats = JSON.parse(localStorage.getItem("ubao.seats") || "{}");
  seats[created.game.id] = created.seat;
  localStorage.setItem("ubao.seats", JSON.stringify(seats));
  return [created.game.id, created.invite.url];
}
"""

#: Every ghost of a taken piece the board draws and removes, in order: "+d4", "-d4", ...
RECORD_GHOSTS = """() => {
  window.ghosts = [];
  const grid = document.querySelector("#game .board-host");
  new MutationObserver((changes) => {
    for (const change of changes) {
      const square = change.target.dataset && change.target.dataset.square;
      for (const node of change.addedNodes) if (node.classList && node.classList.contains("ghost")) window.ghosts.push("+" + square);
      for (const node of change.removedNodes) if (node.classList && node.classList.contains("ghost")) window.ghosts.push("-" + square);
    }
  }).observe(grid, { childList: true, subtree: true });
}"""


def shows(player: Player, moves: list[str]) -> None:
    player.board.wait_for_pieces(expected_pieces("chess", after("chess", START["chess"], *moves)), timeout=5_000)


def current_move(player: Player) -> str:
    return player.page.locator("#game .moves button[aria-current]").inner_text()


def step(player: Player, name: str) -> None:
    player.page.locator(f'#game .move-steps [data-step="{name}"]').click()


def play_opening(contexts, lang: str) -> tuple[Player, Player]:
    asha, baraka = Player(contexts, lang, "Asha", PHONE), Player(contexts, lang, "Baraka", PHONE)
    link = asha.create("chess", "white")
    baraka.join(link)
    asha.page.clock.fast_forward(5_100)
    for i, move in enumerate(OPENING):
        mover, watcher = (asha, baraka) if i % 2 == 0 else (baraka, asha)
        mover.move("chess", after("chess", START["chess"], *OPENING[:i]), move)
        mover.sees("chess", START["chess"], OPENING[: i + 1], poll=False)
        watcher.sees("chess", START["chess"], OPENING[: i + 1])
    return asha, baraka


def chess_on_two_phones(contexts, lang: str) -> tuple[Player, Player]:
    """Asha (White) and Baraka on two phones in ``lang``, in a chess game she created and he joined: her move."""
    asha, baraka = Player(contexts, lang, "Asha", PHONE), Player(contexts, lang, "Baraka", PHONE)
    baraka.join(asha.create("chess", "white"))
    asha.page.clock.fast_forward(5_100)
    asha.wait_status(asha.messages["your_turn"])
    return asha, baraka


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_stepping_back_and_forth_through_the_moves(contexts, needs_dynamodb, lang):
    asha, baraka = play_opening(contexts, lang)
    live = asha.page.locator("#game .move-steps .back-to-game")
    assert live.is_hidden() and current_move(asha) == "a6"  # the game as it is now: its newest move

    for _ in range(3):
        step(asha, "back")
    shows(asha, OPENING[:3])
    assert current_move(asha) == "Nf3" and live.is_visible()
    assert live.inner_text().strip() not in ("", "Back to the game")  # in the page's language
    live.click()
    shows(asha, OPENING)
    assert live.is_hidden() and current_move(asha) == "a6"
    asha.move("chess", after("chess", START["chess"], *OPENING), "Ba4")  # the board plays again once back

    # The arrow keys, away from the board and the move box: back, the start, forward (the move slides in), the end.
    moves = [*OPENING, "Ba4"]
    asha.sees("chess", START["chess"], moves, poll=False)
    asha.page.locator("#game .game-title").click()
    for key, shown in (("ArrowLeft", 6), ("ArrowLeft", 5), ("ArrowUp", 0), ("ArrowRight", 1)):
        asha.page.keyboard.press(key)
        shows(asha, moves[:shown])
    slid = asha.page.locator("#game .board-host .grid").get_attribute("data-slid")
    assert slid == "e2-e4" and asha.board.square("e4").get_attribute("class").split().count("last") == 1
    assert asha.page.locator('#game .move-steps [data-step="first"]').is_disabled() is False
    asha.page.keyboard.press("ArrowDown")
    shows(asha, moves)
    assert live.is_hidden()

    # A tap on a move shows the position after it; his new move does not pull her board away from it.
    asha.page.locator("#game .moves button[data-ply='2']").click()
    shows(asha, moves[:2])
    baraka.sees("chess", START["chess"], moves)
    baraka.move("chess", after("chess", START["chess"], *moves), "Nf6")
    asha.page.clock.fast_forward(2_600)
    asha.page.locator("#game .moves button[data-ply='8']").wait_for()
    shows(asha, moves[:2])
    live.click()
    shows(asha, [*moves, "Nf6"])


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_declined_draw_offer_reaches_the_offerer_within_five_seconds(contexts, needs_dynamodb, lang):
    asha, baraka = chess_on_two_phones(contexts, lang)
    asha.click_action("offer")  # on her own turn: her page must still hear the answer quickly
    asha.wait_status(asha.messages["draw_offered_by_you"])
    baraka.page.clock.fast_forward(2_600)
    baraka.page.locator('#game [data-action="decline"]').wait_for(state="visible")
    baraka.click_action("decline")
    baraka.page.locator('#game [data-action="decline"]').wait_for(state="hidden")
    # A poll already on its way when Baraka declined may still answer 304: the news is the first 200.
    with asha.page.expect_response(lambda r: "/v1/games/" in r.url and r.request.method == "GET" and r.status == 200):
        asha.page.clock.fast_forward(5_000)
    asha.wait_status(asha.messages["draw_declined"])
    assert asha.action_visible("offer") and not asha.action_visible("accept")
    # Polls that find nothing new are 304s of a few hundred bytes.
    with asha.page.expect_response(lambda r: "/v1/games/" in r.url and r.request.method == "GET") as quiet:
        asha.page.clock.fast_forward(3_000)
    sizes = quiet.value.request.sizes()
    assert quiet.value.status == 304 and sizes["responseBodySize"] + sizes["responseHeadersSize"] < 1_000


@pytest.mark.parametrize(("lang", "reduced"), [("sw", False), ("tl", False), ("tl", True)])
def test_the_opponents_multi_capture_goes_hop_by_hop(contexts, needs_dynamodb, server, lang, reduced):
    asha, baraka = Player(contexts, lang, "Asha", PHONE), Player(contexts, lang, "Baraka", PHONE)
    fen = "W:We5,c3,h2:Bf6,g7"  # after h2-g3, Black must take both men: f6xd4xb2
    asha.open(f"/{lang}/mchezo/")
    game_id, link = asha.page.evaluate(server.with_assets(CREATE_FROM), ["tanzanian", fen, "white"])
    asha.open(f"/{lang}/mchezo/#game={game_id}")
    baraka.join(link)
    asha.page.clock.fast_forward(5_100)
    if reduced:
        asha.page.emulate_media(reduced_motion="reduce")
    asha.move("tanzanian", fen, "h2-g3")
    asha.board.wait_for_pieces(expected_pieces("tanzanian", after("tanzanian", fen, "h2-g3")))
    baraka.sees("tanzanian", fen, ["h2-g3"])
    baraka.page.locator("#game .move-form input").fill("f6xd4xb2")
    baraka.page.locator("#game .move-form button[type=submit]").click()

    asha.page.evaluate(RECORD_GHOSTS)
    asha.page.clock.fast_forward(2_600)
    asha.board.wait_for_pieces(expected_pieces("tanzanian", after("tanzanian", fen, "h2-g3", "f6xd4xb2")))
    grid = asha.page.locator("#game .board-host .grid")
    assert grid.get_attribute("data-hops") == "f6-d4-b2"
    for square in ("e5", "c3"):  # the taken men's squares stay marked
        assert "taken" in (asha.board.square(square).get_attribute("class") or "").split()
    if reduced:
        asha.page.wait_for_timeout(600)
        assert asha.page.evaluate("window.ghosts") == []  # nothing moves for her
        return
    # Each taken man is drawn, marked, until its hop is done: the first hop's before the second's.
    asha.page.wait_for_function("() => window.ghosts.length === 4")
    assert asha.page.evaluate("window.ghosts") == ["+e5", "+c3", "-e5", "-c3"]
