"""The README's screenshots, taken from the real site in Debian's Chromium (`make screenshots`):

* docs/screenshots/rules-tanzanian-sw.png: a rules page (Swahili, Tanzanian draughts, the flying kings);
* docs/screenshots/game-in-progress-tl.png: a correspondence game in progress (Tagalog, chess), played by
  two browsers through the page as in tests/browser/test_mchezo.py;
* docs/screenshots/game-stepped-back-tl.png: the same game stepped back two moves (the position after
  move 2, "back to the game" under the move list);
* docs/screenshots/puzzle-tanzanian-sw.png: the Tanzanian draughts puzzle of the day (Swahili), a piece
  selected and its landing squares marked;
* docs/screenshots/lesson-english-tl.png: a lesson's first exercise (Tagalog, English draughts), a piece
  selected and its landing squares marked;
* docs/screenshots/play-sw.png: the game page as a first visit finds it (Swahili): the new game form.

All at a 360x740 phone's size, the smallest the site is written for.

    .venv/bin/python -m tests.browser.screenshots [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.browser.boards import BoardView, after, expected_pieces, move_squares
from tests.browser.harness import ROOT, LocalSite, launch_browser, missing_chromium, missing_dynamodb

PHONE = {"width": 360, "height": 740}
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
OPENING = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]
POLL_MS = 5_000
#: A fresh local server's first puzzle answers on a busy machine (each function's first call loads it).
COLD_START_MS = 90_000


#: Scrolls a node to the top of the screen, a few pixels below the edge.
TO_THE_TOP = "node => { node.scrollIntoView(); window.scrollBy(0, -8); }"


def phone_shot(browser, origin: str, path: Path, show) -> Path:
    """``path``: what a 360x740 phone shows of a page once ``show(page)`` has opened it and brought it there."""
    context = browser.new_context(base_url=origin, viewport=PHONE)
    try:
        page = context.new_page()
        show(page)
        page.screenshot(path=str(path))
    finally:
        context.close()
    return path


def rules_page(browser, origin: str, out: Path) -> Path:
    def show(page) -> None:
        page.goto("/sw/sheria/tanzanian/")
        page.locator("#flying-kings").evaluate(TO_THE_TOP)

    return phone_shot(browser, origin, out / "rules-tanzanian-sw.png", show)


def draughts_puzzle(browser, origin: str, out: Path) -> Path:
    def show(page) -> None:
        # The page's first validate answer for the puzzle lists the legal moves the board marks.
        with page.expect_response(
            lambda r: "/v1/validate" in r.url and (r.request.post_data_json or {}).get("game") == "tanzanian",
            timeout=COLD_START_MS,
        ) as answer:
            page.goto("/sw/fumbo/#tanzanian")  # its tab chosen: the page opens on that puzzle, board first
        host = page.locator("#puzzle-tanzanian .board-host")
        host.locator("button[data-square] use").first.wait_for()
        first = answer.value.json()["legal_moves"][0].replace("x", "-").split("-")[0]
        host.locator(f'button[data-square="{first}"]').click()
        host.locator("button.dest").first.wait_for()

    return phone_shot(browser, origin, out / "puzzle-tanzanian-sw.png", show)


def lesson_exercise(browser, origin: str, out: Path) -> Path:
    def show(page) -> None:
        page.goto("/tl/jifunze/english/")
        article = page.locator('.exercise[data-index="0"]')
        article.evaluate(TO_THE_TOP)
        movable = article.locator("button.mine[data-square]").first  # made playable once near the view
        movable.wait_for()
        movable.click()
        article.locator(".dest").first.wait_for()

    return phone_shot(browser, origin, out / "lesson-english-tl.png", show)


def play_page(browser, origin: str, out: Path) -> Path:
    def show(page) -> None:
        page.goto("/sw/mchezo/", wait_until="load")
        page.locator("#create").evaluate(TO_THE_TOP)

    return phone_shot(browser, origin, out / "play-sw.png", show)


def game_in_progress(browser, origin: str, out: Path) -> list[Path]:
    white = browser.new_context(base_url=origin, viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    black = browser.new_context(base_url=origin, viewport=PHONE)
    asha, baraka = white.new_page(), black.new_page()
    for page in (asha, baraka):
        page.clock.install()
    asha.goto("/tl/mchezo/")
    asha.locator("#name-input").fill("Asha")
    asha.select_option("#game-choice", "chess")
    asha.select_option("#color-choice", "white")
    asha.locator("#create-form button[type=submit]").click()
    link = asha.locator("#invite-link")
    link.wait_for(state="visible")
    baraka.goto(link.input_value())
    baraka.locator('a.open-game[data-lang="tl"]').click()
    baraka.locator("#name-input").fill("Baraka")
    baraka.locator("#join-button").click()
    baraka.locator("#game").wait_for(state="visible")
    players = {"white": asha, "black": baraka}
    for ply, move in enumerate(OPENING):
        page = players["white" if ply % 2 == 0 else "black"]
        page.clock.fast_forward(POLL_MS + 100)  # the mover's page learns of the last move
        page.locator("#game .move-form").wait_for(state="visible")
        fen = after("chess", CHESS_START, *OPENING[:ply])
        BoardView(page.locator("#game .board-host")).click(*move_squares("chess", fen, move))
        BoardView(page.locator("#game .board-host")).wait_for_pieces(
            expected_pieces("chess", after("chess", CHESS_START, *OPENING[: ply + 1]))
        )
    asha.clock.fast_forward(POLL_MS + 100)
    asha.locator("#game .move-form").wait_for(state="visible")
    path = out / "game-in-progress-tl.png"
    asha.evaluate("scrollTo(0, 0)")  # as the phone shows the game: whose turn, the board, the moves under it
    asha.screenshot(path=str(path))  # the whole width: the board spans the phone's, beyond the section's edges
    for _ in range(2):
        asha.locator('#game .move-steps [data-step="back"]').click()
    BoardView(asha.locator("#game .board-host")).wait_for_pieces(
        expected_pieces("chess", after("chess", CHESS_START, *OPENING[:-2]))
    )
    asha.evaluate("scrollTo(0, 0)")
    stepped = out / "game-stepped-back-tl.png"
    asha.screenshot(path=str(stepped))
    white.close()
    black.close()
    return [path, stepped]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    options = parser.parse_args(argv)
    problem = missing_chromium() or missing_dynamodb()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    options.out.mkdir(parents=True, exist_ok=True)
    with LocalSite() as site, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        try:
            for path in (
                rules_page(browser, site.origin, options.out),
                *game_in_progress(browser, site.origin, options.out),
                draughts_puzzle(browser, site.origin, options.out),
                lesson_exercise(browser, site.origin, options.out),
                play_page(browser, site.origin, options.out),
            ):
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
