"""Two people play correspondence games through the site, each in their own browser context (their own
localStorage, so their own player token): one creates the game and copies the invite link, the other opens
the link, chooses a language and joins; moves are clicks on the board; each side sees the other's moves by
polling. The page's clock is driven by the test, so five-second polls pass at once."""

from __future__ import annotations

import chess.pgn
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.boards import BoardView, after, expected_pieces, move_squares, page_config
from tests.browser.harness import http, page_token
from tests.checks import known

START = {
    "chess": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "english": "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
}
POLL_MS = 5_000  # game.js polls this often while waiting for the other side
REMATCH_POLL_MS = 10_000  # and a finished game this often, for a rematch offer or its answer


def paired(moves: list[str]) -> list[str]:
    """The move list as the page numbers it: one line per pair ("e4 e5"), the <ol> giving "1.", "2." ..."""
    return [" ".join(moves[i : i + 2]) for i in range(0, len(moves), 2)]


class Player:
    """One person at one browser: the game page and its board."""

    def __init__(self, contexts, lang: str, name: str | None = None, viewport: dict | None = None):
        options = {"viewport": viewport} if viewport else {}
        context = contexts.new(permissions=["clipboard-read", "clipboard-write"], **options)
        self.name = name
        self.page = context.new_page()
        self.page.clock.install()  # the test can bring the page's next poll forward instead of waiting for it
        self.page.on("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
        self.lang = lang
        self.board = BoardView(self.page.locator("#game .board-host"))
        self.status = self.page.locator("#game .status")
        self.messages: dict = {}

    def open(self, url: str) -> None:
        self.page.goto(url)
        if "/mchezo/" in self.page.url:
            self.messages = page_config(self.page)["messages"]

    def create(self, game: str, colour: str) -> str:
        self.open(f"/{self.lang}/mchezo/")
        if self.name:
            self.page.locator("#name-input").fill(self.name)
        self.page.select_option("#game-choice", game)
        self.page.select_option("#color-choice", colour)
        self.page.locator("#create-form button[type=submit]").click()
        self.page.locator("#game").wait_for(state="visible")
        self.wait_status(self.messages["waiting_opponent"])
        self.page.locator("#copy-invite").click()
        self.wait_status(self.messages["link_copied"])
        link = self.page.evaluate("navigator.clipboard.readText()")
        assert link == self.page.locator("#invite-link").input_value()
        return link

    def create_live(self, game: str, turn_seconds: int) -> str:
        """A live table of ``game`` with this player as White, each turn ``turn_seconds`` long: its invite link."""
        self.open(f"/{self.lang}/mchezo/")
        self.page.locator("#name-input").fill(self.name or "")
        self.page.select_option("#game-choice", game)
        self.page.select_option("#color-choice", "white")
        self.page.select_option("#turn-choice", str(turn_seconds))
        self.page.locator("#create-form button[type=submit]").click()
        self.page.locator("#game").wait_for(state="visible")
        self.wait_status(self.messages["waiting_opponent"])
        return self.page.locator("#invite-link").input_value()

    def open_invite(self, link: str) -> None:
        self.page.goto(link)  # /game/?id=...#invite=...: a browser that has never been here chooses a language
        self.page.locator(f'a.open-game[data-lang="{self.lang}"]').click()
        self.page.wait_for_url(f"**/{self.lang}/mchezo/**")

    def join(self, link: str | None = None) -> None:
        if link:
            self.open_invite(link)
        self.messages = page_config(self.page)["messages"]
        self.page.locator("#join-button").wait_for(state="visible")
        if self.name:
            self.page.locator("#name-input").fill(self.name)
        self.page.locator("#join-button").click()
        self.wait_status(self.messages["joined"])

    def move(self, game: str, fen: str, move: str) -> None:
        self.page.locator("#game .move-form").wait_for(state="visible")  # shown only on the player's turn
        self.board.click(*move_squares(game, fen, move))

    def sees(self, game: str, fen: str, moves: list[str], poll: bool = True) -> None:
        """The board and the move list show ``moves``; with ``poll``, the page's next poll is due at once."""
        expected = expected_pieces(game, after(game, fen, *moves))
        for _ in range(4):  # a poll that crossed the move on the wire shows it at the next one
            if poll:
                self.page.clock.fast_forward(POLL_MS + 100)
            try:
                self.board.wait_for_pieces(expected, timeout=3_000)
                break
            except PlaywrightTimeout:
                continue
        self.board.wait_for_pieces(expected, timeout=3_000)
        assert self.page.locator("#game .moves li").all_inner_texts() == paired(moves)

    def wait_status(self, text: str, kind: str | None = None) -> None:
        self.page.wait_for_function(
            "([node, text, kind]) => node.textContent.includes(text) && (!kind || node.classList.contains(kind))",
            arg=[self.status.element_handle(), text, kind],
        )

    def click_action(self, action: str) -> None:
        self.page.locator(f'#game [data-action="{action}"]').click()

    def action_visible(self, action: str) -> bool:
        return self.page.locator(f'#game [data-action="{action}"]').is_visible()


def played_in_turn(game: str, turns: list[tuple[Player, Player, str]]) -> list[str]:
    """Each (mover, watcher, move) from the start: the mover plays it, and both pages then show every move so far
    (the mover's without a poll: a page reads its game again after a move). The moves played."""
    moves: list[str] = []
    for mover, watcher, move in turns:
        mover.move(game, after(game, START[game], *moves), move)
        moves.append(move)
        mover.sees(game, START[game], moves, poll=False)
        watcher.sees(game, START[game], moves)
    return moves


@pytest.fixture
def asha_and_baraka(contexts, needs_dynamodb):
    return Player(contexts, "tl", "Asha"), Player(contexts, "sw", "Baraka")


def test_a_chess_game_ends_in_checkmate(contexts, asha_and_baraka):
    asha, baraka = asha_and_baraka
    # Her browser has the Web Share API (as phones do): Share hands the invite to the system's share sheet.
    asha.page.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    link = asha.create("chess", "white")
    asha.page.locator("#share-invite").click()
    shared = asha.page.evaluate("window.shared")
    assert shared["url"] == link and asha.messages["game_titles"]["chess"] in shared["text"]
    # The invite link's page has a preview for chat apps (Open Graph), in every language.
    preview = baraka.page.context.request.get(link).text()
    for tag in ('property="og:title"', 'property="og:description"', 'property="og:type"'):
        assert tag in preview
    baraka.open_invite(link)
    baraka.page.locator("#join-button").wait_for(state="visible")
    invitation = baraka.page.locator("#join").inner_text()
    messages = page_config(baraka.page)["messages"]
    assert messages["invited_by"].replace("%(name)s", "Asha").replace("%(game)s", messages["game_titles"]["chess"]) in (
        invitation
    )
    assert messages["invite_you_play"].split("%(colour)s")[0] + messages["black"] in invitation
    assert messages["days_per_move"]["other"].replace("{n}", "3") in invitation
    assert messages["waiting_opponent"] not in baraka.page.locator("body").inner_text()
    assert baraka.page.locator("#join-button").is_visible()
    baraka.join()
    asha.page.clock.fast_forward(POLL_MS + 100)  # her page learns that Baraka has joined
    # Nothing new for him: his page sends the ETag back (If-None-Match) and reads a 304. On a busy machine the
    # first poll may still cross a late write of the join (docs/games.md), so the second poll may be the first 304.
    for _ in range(2):
        with baraka.page.expect_response(lambda r: "/v1/games/" in r.url and r.request.method == "GET") as poll:
            baraka.page.clock.fast_forward(POLL_MS + 100)
        if poll.value.status == 304:
            break
    assert poll.value.status == 304
    assert poll.value.request.headers.get("if-none-match")
    asha.wait_status(asha.messages["your_turn"])
    assert baraka.page.locator("#game .board-host button[data-square]").first.get_attribute("data-square") == "h1"

    moves = played_in_turn(
        "chess", [(asha, baraka, "f3"), (baraka, asha, "e5"), (asha, baraka, "g4"), (baraka, asha, "Qh4#")]
    )

    for player in (asha, baraka):
        player.wait_status(player.messages["result_black"].rstrip("."), "ok")
        player.wait_status(player.messages["reason_checkmate"])
        assert "check" in (player.board.square("e1").get_attribute("class") or "").split()  # the mated king
        assert player.action_visible("rematch") and not player.action_visible("resign")
    with asha.page.expect_download() as download:
        asha.page.locator("#game a.download").click()
    with open(download.value.path(), encoding="utf-8") as pgn:
        record = known(chess.pgn.read_game(pgn))
    assert record.headers["Result"] == "0-1"
    assert (record.headers["White"], record.headers["Black"]) == ("Asha", "Baraka")
    assert [node.san() for node in record.mainline()] == moves
    assert record.end().board().is_checkmate()
    # Her inbox: the finished game, against Baraka, in its own group.
    asha.page.goto("/tl/mchezo/")
    finished = asha.page.locator("#inbox [data-group='finished']")
    finished.wait_for(state="visible")
    assert "Baraka" in finished.inner_text() and asha.messages["result_black"].rstrip(".") in finished.inner_text()
    assert asha.page.locator("#inbox [data-group='your_move']").is_hidden()
    assert asha.page.locator("#inbox [data-group='waiting']").is_hidden()
    assert contexts.problems == []


def test_a_draughts_game_with_a_declined_draw_ends_by_resignation_and_a_rematch(contexts, asha_and_baraka):
    asha, baraka = asha_and_baraka
    link = asha.create("english", "black")  # Black moves first in English draughts
    baraka.join(link)
    asha.page.clock.fast_forward(POLL_MS + 100)
    start = START["english"]
    # 15x22 is a capture the rules force; 25x18 takes back, clicked square by square.
    moves = played_in_turn(
        "english", [(asha, baraka, "11-15"), (baraka, asha, "22-18"), (asha, baraka, "15x22"), (baraka, asha, "25x18")]
    )
    last = asha.board.square("18").get_attribute("class").split()
    assert "last" in last
    # Baraka's inbox (another tab of his): against Asha, waiting for her move, the days left.
    listing = baraka.page.context.new_page()
    listing.goto("/sw/mchezo/")
    active = listing.locator("#inbox [data-group='waiting']")
    active.wait_for(state="visible")
    line = active.inner_text()
    assert "Asha" in line and listing.locator("#inbox [data-group='your_move']").is_hidden()
    assert not listing.title().startswith("(")  # no game where it is his move
    assert baraka.messages["days_left"]["other"].replace("{n}", "3") in line
    listing.close()
    # The language links keep the game: Asha switches to English in the middle of it.
    game_id = asha.page.url.split("#game=")[1]
    asha.page.locator('.langs a[hreflang="en"]').click()
    asha.page.wait_for_url(f"**/en/mchezo/#game={game_id}")
    asha.messages = page_config(asha.page)["messages"]
    asha.sees("english", start, moves, poll=False)

    baraka.click_action("offer")
    baraka.wait_status(baraka.messages["draw_offered_by_you"])
    asha.page.clock.fast_forward(POLL_MS * 3 + 100)  # on her move she polls less often
    asha.wait_status(asha.messages["draw_offered_to_you"])
    asha.click_action("decline")
    asha.wait_status(asha.messages["your_turn"])

    asha.click_action("resign")  # the page asks first; the dialog is accepted
    for player in (asha, baraka):
        if player is baraka:
            player.page.clock.fast_forward(POLL_MS + 100)
        player.wait_status(player.messages["result_red"].rstrip("."), "ok")
        player.wait_status(player.messages["reason_resignation"])

    # Asha offers another game and Baraka accepts: one new game, the colours swapped (Asha now red: Baraka starts).
    asha.click_action("rematch")
    asha.wait_status(asha.messages["rematch_offered_by_you"])
    baraka.page.clock.fast_forward(REMATCH_POLL_MS + 100)
    baraka.wait_status(baraka.messages["rematch_offered_to_you"])
    baraka.click_action("accept-rematch")
    baraka.wait_status(baraka.messages["your_turn"])
    asha.page.clock.fast_forward(REMATCH_POLL_MS + 100)  # her next poll sees it agreed: the new game opens itself
    asha.wait_status(asha.messages["waiting_move"])
    assert asha.page.url.split("#game=")[1] == baraka.page.url.split("#game=")[1]
    baraka.move("english", start, "9-13")
    baraka.sees("english", start, ["9-13"], poll=False)
    asha.sees("english", start, ["9-13"])
    asha.wait_status(asha.messages["your_turn"])
    assert contexts.problems == []


def test_playing_the_computer_shows_legal_squares_and_its_reply_as_the_last_move(contexts, needs_dynamodb):
    asha = Player(contexts, "sw")
    asha.open("/sw/mchezo/")
    asha.page.select_option("#game-choice", "chess")
    asha.page.select_option("#opponent-choice", "1")
    asha.page.select_option("#color-choice", "white")
    asha.page.locator("#create-form button[type=submit]").click()
    asha.wait_status(asha.messages["your_turn"])
    assert asha.page.locator("#game .invite").is_hidden()
    # The server's legal moves by their squares (legal_moves_uci) let the board mark where the pawn may go.
    asha.board.click("e2")
    marked = {
        name for name in ("e3", "e4", "d3", "f3") if "dest" in (asha.board.square(name).get_attribute("class") or "")
    }
    assert marked == {"e3", "e4"}
    asha.board.click("e4")
    asha.page.wait_for_function("document.querySelectorAll('#game .moves li').length === 1")
    moves = asha.page.locator("#game .moves li").inner_text().split()
    assert moves[0] == "e4" and len(moves) == 2  # the computer's reply on the same line
    asha.board.wait_for_pieces(expected_pieces("chess", after("chess", START["chess"], *moves)))
    # The computer's reply is the last move, marked by its two squares (last_move_uci).
    board = chess.Board()
    reply = [board.push_san(san) for san in moves][-1]
    last = {name for name in chess.SQUARE_NAMES if "last" in (asha.board.square(name).get_attribute("class") or "")}
    assert last == {chess.square_name(reply.from_square), chess.square_name(reply.to_square)}
    asha.wait_status(asha.messages["your_turn"])
    assert not asha.action_visible("cpu-takeover") and not asha.action_visible("resume")
    assert contexts.problems == []


def test_a_refusal_reads_in_the_page_language_not_the_servers_english(contexts, asha_and_baraka, server):
    asha, baraka = asha_and_baraka
    link = asha.create("chess", "white")
    game_id = link.split("id=")[1].split("#")[0]
    # A link whose invite code was mangled on the way: refused, and said in Swahili from the catalog.
    baraka.open_invite(link.replace("#invite=", "#invite=x"))
    baraka.messages = page_config(baraka.page)["messages"]
    baraka.page.locator("#join-button").click()
    expect(baraka.page.locator("#join .invite-text")).to_have_text(baraka.messages["error_invalid_invite"])
    baraka.page.goto(link)  # the right link: this browser has chosen its language, so it goes straight on
    baraka.page.wait_for_url("**/sw/mchezo/**")
    baraka.join()
    asha.page.clock.fast_forward(POLL_MS + 100)  # Asha's page sees Baraka join: her move
    asha.page.locator("#game .move-form").wait_for(state="visible")
    # Asha's other phone plays e4; this page has not polled since, so its d4 comes at a ply already played.
    http(server.origin, "POST", f"/v1/games/{game_id}/moves", {"move": "e4", "ply": 0}, token=page_token(asha.page))
    asha.move("chess", START["chess"], "d4")
    asha.wait_status(asha.messages["error_stale_ply"], "bad")  # in Tagalog, and the page shows the game as it is
    asha.sees("chess", START["chess"], ["e4"], poll=False)
    for player in (asha, baraka):
        assert "the game has moved on" not in player.page.content() and "does not open" not in player.page.content()
