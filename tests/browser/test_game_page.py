"""The game page as a phone shows it (360x740): the board near the top of the screen with whose turn it is on
the line above, wherever the game was opened from; check said, marked on the king and refused moves told why;
an unknown game's link; no deadline against the computer."""

from __future__ import annotations

import pytest

from tests.browser.boards import after, expected_pieces
from tests.browser.test_mchezo import START, Player

TOP_LIMIT = 200  # px from the viewport's top to the board's top edge
PHONE = {"width": 360, "height": 740}


def board_top(player: Player, scrolled: bool) -> float:
    """The board's top edge in px from the top of the viewport, once its squares are drawn; with ``scrolled``,
    from the top of the page (the player has since scrolled down, to the invitation's Copy button)."""
    player.page.locator("#game .board-host button[data-square]").first.wait_for()
    box = player.page.locator("#game .board-host").bounding_box()
    assert box is not None
    return box["y"] + (player.page.evaluate("scrollY") if scrolled else 0)


def box_y(player: Player) -> float:
    box = player.page.locator("#game .board-host").bounding_box()
    assert box is not None
    return box["y"]


def assert_board_first(player: Player, scrolled: bool = False) -> None:
    top = board_top(player, scrolled)
    assert 0 <= top <= TOP_LIMIT, f"the board starts {top} px down"
    status = player.status.bounding_box()
    assert status is not None and status["y"] < box_y(player)  # whose turn: on the line above the board
    assert player.status.inner_text().strip()


def test_check_is_said_marked_and_explained_and_the_board_comes_first(contexts, needs_dynamodb):
    asha, baraka = Player(contexts, "tl", "Asha", PHONE), Player(contexts, "sw", "Baraka", PHONE)
    link = asha.create("chess", "white")
    assert_board_first(asha, scrolled=True)
    baraka.join(link)
    assert_board_first(baraka)
    asha.page.clock.fast_forward(5_100)
    asha.page.emulate_media(reduced_motion="reduce")  # she asked her phone for less motion: no slide for her
    moves: list[str] = []
    slid = "(node) => node.querySelector('.grid').dataset.slid || ''"
    for mover, watcher, move, squares in (
        (asha, baraka, "e4", "e2-e4"),
        (baraka, asha, "f6", "f7-f6"),
        (asha, baraka, "Qh5+", "d1-h5"),
    ):
        record_status_texts(mover)
        mover.move("chess", after_moves(moves), move)
        moves.append(move)
        mover.sees("chess", START["chess"], moves, poll=False)
        assert mover.messages["sending_move"] in mover.page.evaluate("window.statusTexts")  # until the answer
        watcher.sees("chess", START["chess"], moves)
        # The opponent's move: both its squares marked, and slid in unless the watcher asked for less motion.
        for square in squares.split("-"):
            assert "last" in (watcher.board.square(square).get_attribute("class") or "").split()
        grid = watcher.page.locator("#game .board-host")
        assert grid.evaluate(slid) == ("" if watcher is asha else squares)

    # Black is in check: his status says so in Swahili (the live region reads it out), hers in Tagalog.
    baraka.wait_status(baraka.messages["check_your_turn"])
    asha.wait_status(asha.messages["check_waiting"])
    assert baraka.status.get_attribute("aria-live") == "polite"
    for player in (asha, baraka):
        assert "check" in (player.board.square("e8").get_attribute("class") or "").split()
        assert "check" not in (player.board.square("e1").get_attribute("class") or "").split()
    # A tap on a piece that cannot save the king is refused with the reason, in chess's piece words.
    baraka.board.click("a7")
    baraka.page.locator("#game .board-host").get_by_text(baraka.messages["refusal_in_check"]).wait_for()

    baraka.move("chess", after_moves(moves), "g6")
    moves.append("g6")
    baraka.sees("chess", START["chess"], moves, poll=False)
    assert "check" not in (baraka.board.square("e8").get_attribute("class") or "").split()
    assert baraka.messages["check_waiting"] not in baraka.status.inner_text()

    # The move list just under the board, numbered in pairs, its newest move in view.
    board, listing = (baraka.page.locator(f"#game {part}").bounding_box() for part in (".board-host", ".moves"))
    assert board and listing and 0 <= listing["y"] - (board["y"] + board["height"]) < 40
    newest = baraka.page.locator("#game .moves li").last.bounding_box()
    assert (
        newest and listing["x"] <= newest["x"] and newest["x"] + newest["width"] <= listing["x"] + listing["width"] + 1
    )
    # A reload (and so a notification's link) opens the game with its board at the top.
    baraka.page.reload()
    assert_board_first(baraka)
    # Her inbox: tapping the game brings its board to the top of the screen.
    asha.page.goto("/tl/mchezo/")
    asha.page.locator("#inbox a[data-game]").first.click()
    asha.sees("chess", START["chess"], moves, poll=False)
    assert_board_first(asha)


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_game_opened_from_the_inbox_has_its_board_first(contexts, needs_dynamodb, lang):
    asha, baraka = Player(contexts, lang, "Asha", PHONE), Player(contexts, lang, "Baraka", PHONE)
    baraka.join(asha.create("chess", "white"))
    # Her games page, scrolled down a little: the tap on the game brings its board to the top of the screen.
    asha.open(f"/{lang}/mchezo/")
    row = asha.page.locator("#inbox a[data-game]").first
    row.wait_for()
    asha.page.mouse.wheel(0, 300)
    row.click()
    asha.sees("chess", START["chess"], [], poll=False)
    assert_board_first(asha)
    assert asha.messages["your_turn"] in asha.status.inner_text()


def record_status_texts(player: Player) -> None:
    """Every text the game's status line shows from now on, in ``window.statusTexts``."""
    player.page.evaluate(
        """() => {
          const node = document.querySelector("#game .status");
          window.statusTexts = [];
          new MutationObserver(() => window.statusTexts.push(node.textContent))
            .observe(node, { childList: true, characterData: true, subtree: true });
        }"""
    )


def after_moves(moves: list[str]) -> str:
    return after("chess", START["chess"], *moves)


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_an_unknown_game_says_so_and_offers_no_game_actions(contexts, lang):
    player = Player(contexts, lang, viewport=PHONE)
    player.open(f"/{lang}/mchezo/#game=no-such-game")
    title = player.page.locator("#game .game-title")
    title.filter(has_text=player.messages["error_game_not_found"]).wait_for()
    start = player.page.locator("#game .missing a")
    assert start.inner_text() == player.messages["start_a_game"]
    for action in ("resign", "offer", "rematch"):
        assert not player.action_visible(action)
    assert player.page.locator("#game a.download").is_hidden()
    assert player.messages["network_error"] not in player.page.locator("#game").inner_text()
    start.click()
    player.page.locator("#create-form").wait_for(state="visible")


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_game_against_the_computer_shows_no_deadline(contexts, needs_dynamodb, lang):
    player = Player(contexts, lang, viewport=PHONE)
    player.open(f"/{lang}/mchezo/")
    player.page.select_option("#game-choice", "chess")
    player.page.select_option("#opponent-choice", "1")
    player.page.select_option("#color-choice", "white")
    player.page.locator("#create-form button[type=submit]").click()
    player.wait_status(player.messages["your_turn"])
    assert player.status.inner_text().strip() == player.messages["your_turn"]
    assert_board_first(player)
    # The inbox at 360 px: the game as a row of its own (no bullet, the width of the list), with no time left.
    player.page.goto(f"/{lang}/mchezo/")
    row = player.page.locator("#inbox [data-group='your_move'] li").first
    row.wait_for()
    days = player.messages["days_left"]["other"].split("{n}")[-1].strip()
    assert days not in row.inner_text() and player.page.locator("#inbox").get_attribute("data-under-a-day") not in (
        row.inner_text()
    )
    assert row.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    link, listing = row.locator("a").bounding_box(), player.page.locator("#inbox .game-list").first.bounding_box()
    assert link and listing and link["height"] >= 44 and abs(link["width"] - listing["width"]) < 1
    assert link["x"] + link["width"] <= PHONE["width"]


def test_a_move_made_offline_is_drawn_with_a_neutral_note(contexts, needs_dynamodb):
    asha, ben = Player(contexts, "sw", viewport=PHONE), Player(contexts, "tl", viewport=PHONE)
    link = asha.create("chess", "white")
    ben.join(link)
    asha.page.clock.fast_forward(5_100)  # her page sees that Ben joined: her move is next
    asha.wait_status(asha.messages["your_turn"])
    asha.page.context.set_offline(True)
    asha.move("chess", START["chess"], "e4")
    queued = asha.page.locator("#offline-messages").get_attribute("data-move-queued") or ""
    asha.status.filter(has_text=queued.split("%(move)s")[0].strip()).wait_for()
    # Drawn on her board while it waits (both squares marked), its note neutral: nothing went wrong.
    asha.board.wait_for_pieces(expected_pieces("chess", after_moves(["e4"])), timeout=5_000)
    for square in ("e2", "e4"):
        assert "last" in (asha.board.square(square).get_attribute("class") or "").split()
    note = (asha.status.get_attribute("class") or "").split()
    assert "queued" in note and "bad" not in note
    asha.page.context.set_offline(False)  # the `online` event sends it
    asha.page.wait_for_function("(node) => !node.classList.contains('queued')", arg=asha.status.element_handle())
