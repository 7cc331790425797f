"""One phone for two (pass-and-play) on a 360x740 phone, offline, in Swahili and Tagalog.

The play page is visited once online (the service worker keeps it and the whole shell); then the phone loses
its network and two players play a whole English draughts game on it: a random game from shared_rules, chosen
to end in a win and to hold a forced capture and a crowning, played through the board (taps) and the move
form. The page's own rules (site/modules/draughts_rules.js) must take every move, refuse a quiet move when a
capture is compulsory, crown the man, hand the phone over between turns with the board turned, end the game
as the rules do, offer its PDN, and keep it on the phone across a reload. A short chess game (chess.js) ends
in mate offline too, after the page was closed mid-game.
"""

from __future__ import annotations

import random

import pytest

from shared_rules import get_game
from tests.browser.boards import BoardView
from tests.browser.harness import controlled
from tests.browser.offline_pages import saved
from tests.checks import draughts_game
from tests.site.conftest import build_site

PHONE = {"width": 360, "height": 740}
SIDES = {"english": {"white": "Red", "black": "Black"}, "chess": {"white": "White", "black": "Black"}}


def english_game() -> tuple[list[str], int, int, str]:
    """A random English draughts game to its end by the rules: its moves, the ply of its first forced capture
    (a capture while a quiet move would be legal without the rule), of its first crowning, and the winner."""
    game = draughts_game("english")
    for seed in range(1000):
        rng = random.Random(seed)
        position, forced, crowned = game.start(), None, None
        moves: list[str] = []
        while not position.status().is_over and len(moves) < 64:
            legal = position.legal_moves()
            if forced is None and legal[0].captured and game.engine.quiet_moves(position.state):
                forced = len(moves)
            move = rng.choice(legal)
            if crowned is None and move.crowned and forced is not None and len(moves) > forced:
                crowned = len(moves)
            moves.append(position.notation(move))
            position = position.play(move)
        status = position.status()
        if status.result in ("white", "black") and forced is not None and crowned is not None:
            return moves, forced, crowned, status.result
    raise AssertionError("no game fits")


def squares_of(move: str) -> list[str]:
    return move.replace("x", "-").split("-")


def open_offline(contexts, lang: str):
    context = contexts.new(viewport=PHONE)
    page = context.new_page()
    page.goto(f"/{lang}/mchezo/")
    controlled(page)
    saved(page, f"/{lang}/mchezo/")
    context.set_offline(True)
    page.reload()
    return context, page


def start(page, game: str, handover: bool = True) -> None:
    page.select_option("#game-choice", game)
    page.locator("#pass-handover").set_checked(handover)
    page.locator("#pass-play-start").click()
    page.locator("#pass-game .board-host button[data-square]").first.wait_for()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_whole_english_draughts_game_offline_on_one_phone(contexts, lang):
    t = build_site.translations(lang)
    moves, forced, crowned, winner = english_game()
    context, page = open_offline(contexts, lang)
    start(page, "english")
    box = page.locator("#pass-game")
    board = BoardView(box.locator(".board-host"))
    assert box.is_visible() and box.locator(".board-host").bounding_box()["y"] < 200  # the board in view at once
    rules = draughts_game("english")
    position = rules.start()
    first_squares = []
    for ply, move in enumerate(moves):
        mover = position.turn
        first_squares.append(box.locator(".board-host button[data-square]").first.get_attribute("data-square"))
        if ply == forced:
            # A man that could step forward, were it not for the capture: the page's rules refuse to pick it up.
            quiet = rules.engine.quiet_moves(position.state)[0]
            board.click(rules.squares.name_of[quiet.origin])
            refusal = box.locator(".board-note").inner_text()
            assert refusal.startswith(t.gettext("A capture is compulsory: %(moves)s.").split(":")[0]), refusal
            board.click(*squares_of(move))
        elif ply in (0, crowned):
            board.click(*squares_of(move))
        else:
            box.locator(".move-form input").fill(move)
            box.locator(".move-form button").click()
        position = position.play(move)
        if ply == crowned:
            destination = squares_of(move)[-1]
            assert board.pieces()[destination] == ("pc-wk" if mover == "white" else "pc-bk")
        if position.status().is_over:
            break
        side = t.gettext(SIDES["english"][position.turn])
        assert box.locator(".handover-text").inner_text() == t.gettext("Pass the phone to %(side)s.") % {"side": side}
        box.locator(".handover button").click()
    # The board turned for each player: its first square is the opposite corner on the other side's turns.
    assert first_squares[0] != first_squares[1] and first_squares[0] == first_squares[2]

    won = t.gettext("Red won." if winner == "white" else "Black won.")
    assert box.locator(".game-head .status").inner_text().startswith(won.rstrip(".")), winner
    assert box.locator(".handover").is_hidden() and box.locator(".move-form").is_hidden()
    pdn = page.evaluate("async () => (await fetch(document.querySelector('#pass-game .download').href)).text()")
    assert '[GameType "21"]' in pdn and ("2-0" if winner == "white" else "0-2") in pdn
    assert " ".join(moves[:2]) in pdn and moves[-1] in pdn
    assert page.locator("#pass-game .download").get_attribute("download").endswith(".pdn")

    # Kept on the phone: after a reload (still offline) the finished game is listed with its file.
    page.reload()
    start(page, "english")
    kept = box.locator(".kept li")
    assert kept.count() == 1 and won.rstrip(".") in kept.inner_text()
    assert page.evaluate("JSON.parse(localStorage.getItem('ubao.passPlay.games'))[0].moves.length") == len(moves)


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_a_short_chess_game_ends_in_mate_offline(contexts, lang):
    t = build_site.translations(lang)
    context, page = open_offline(contexts, lang)
    start(page, "chess", handover=False)
    box = page.locator("#pass-game")
    board = BoardView(box.locator(".board-host"))
    for move in ("f2f3", "e7e5", "g2g4"):
        board.click(move[:2], move[2:])
    assert box.locator(".handover").is_hidden()  # no hand-over screen when it is switched off
    # The page closed mid-game (a reload, still offline): the phone carries on from where it was.
    page.reload()
    start(page, "chess", handover=False)
    assert box.locator(".moves").inner_text().split() == ["f3", "e5", "g4"]
    assert box.locator(".game-head .status").inner_text() == t.gettext("Black to move.")
    box.locator(".move-form input").fill("Qh4#")
    box.locator(".move-form button").click()
    status = box.locator(".game-head .status").inner_text()
    assert status.startswith(t.gettext("Black won.").rstrip(".")) and t.gettext("by checkmate") in status
    pgn = page.evaluate("async () => (await fetch(document.querySelector('#pass-game .download').href)).text()")
    assert "1. f3 e5 2. g4 Qh4#" in pgn and "0-1" in pgn


def test_tanzanian_draughts_on_one_phone_ends_in_an_agreed_draw(contexts):
    """The Tanzanian rules come from the same module under the other description (algebraic squares, White
    first); the players' own word ends the game, and its PDN names the variant's GameType."""
    t = build_site.translations("sw")
    context, page = open_offline(contexts, "sw")
    start(page, "tanzanian", handover=False)
    box = page.locator("#pass-game")
    position = get_game("tanzanian").start()
    for move in ("c3-d4", "f6-e5", "d4xf6"):  # the capture is the only move the rules leave
        if move == "d4xf6":
            assert position.legal_notations() == ["d4xf6"]
        box.locator(".move-form input").fill(move)
        box.locator(".move-form button").click()
        position = position.play(move)
    assert box.locator(".moves").inner_text().split() == ["c3-d4", "f6-e5", "d4xf6"]
    box.locator('[data-action="draw"]').click()
    status = box.locator(".game-head .status").inner_text()
    assert status.startswith(t.gettext("The game is a draw.").rstrip(".")) and t.gettext("by agreement") in status
    pdn = page.evaluate("async () => (await fetch(document.querySelector('#pass-game .download').href)).text()")
    assert '[GameType "99,W,8,8,A0,0"]' in pdn and "{Draw agreed.} 1-1" in pdn
