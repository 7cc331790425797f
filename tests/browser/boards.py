"""Playing on the site's board component the way a person does (clicking squares), and reading it back.

What the board shows is compared with positions computed here by the rules layer, never with the page's
own idea of the position.
"""

from __future__ import annotations

import chess

from shared_rules import get_game
from shared_rules.chess_game import ChessGame
from tests.checks import draughts_game


def page_config(page) -> dict:
    """The JSON a page embeds for its scripts (messages, square maps), with a lesson's exercises from the file
    its config names (as the page fetches it)."""
    return page.evaluate(
        """async () => {
          const config = JSON.parse(document.getElementById('ubao-config').textContent);
          if (config.exercises_url) config.exercises = await (await fetch(config.exercises_url)).json();
          return config;
        }"""
    )


class BoardView:
    """One board on a page: ``host`` is the locator of its ``.board-host``."""

    def __init__(self, host):
        self.host = host

    def square(self, name: str):
        return self.host.locator(f'button[data-square="{name}"]')

    def click(self, *squares: str) -> None:
        for name in squares:
            self.square(name).click()

    def play(self, game: str, fen: str, move: str, squares: list[str] | None = None) -> None:
        """Click the squares of ``move`` (rules-layer notation) in ``fen``, and the piece a promotion asks for."""
        self.click(*(squares or move_squares(game, fen, move)))
        piece = promotion_sprite(game, fen, move)
        if piece:
            self.host.locator(f'.promo button:has(use[href="#{piece}"])').click()

    def pieces(self) -> dict[str, str]:
        """Square name -> the piece drawn on it (the sprite's id: ``pc-Q``, ``pc-wk``, ``pc-bm`` ...)."""
        found = self.host.evaluate(
            """host => Object.fromEntries([...host.querySelectorAll("button[data-square]")]
                 .map(b => [b.dataset.square, b.querySelector("use")?.getAttribute("href")])
                 .filter(([, href]) => href).map(([sq, href]) => [sq, href.slice(1)]))"""
        )
        return dict(found)

    def wait_for_pieces(self, expected: dict[str, str], timeout: float = 30_000) -> None:
        """Wait until the board shows exactly ``expected`` (square -> sprite id)."""
        self.host.page.wait_for_function(
            """([host, expected]) => {
                const shown = {};
                for (const b of host.querySelectorAll("button[data-square]")) {
                  const href = b.querySelector("use")?.getAttribute("href");
                  if (href) shown[b.dataset.square] = href.slice(1);
                }
                const keys = Object.keys(shown);
                return keys.length === Object.keys(expected).length && keys.every(k => shown[k] === expected[k]);
            }""",
            arg=[self.host.element_handle(), expected],
            timeout=timeout,
        )


def expected_pieces(game: str, fen: str) -> dict[str, str]:
    """What the board must show for ``fen``: square -> sprite id, from the rules layer's own reading."""
    if game == "chess":
        board = ChessGame().from_fen(fen).board
        return {chess.square_name(square): "pc-" + piece.symbol() for square, piece in board.piece_map().items()}
    rules = draughts_game(game)
    position = rules.from_fen(fen)
    # The PDN FEN the rules layer writes for the position, read square by square ("W:W21,K5:B1,2").
    shown = {}
    for side in position.fen().split(":")[1:]:
        colour = side[0].upper()
        for item in filter(None, side[1:].split(",")):
            king = item[0].upper() == "K"
            name = item[1:] if king else item
            assert name in rules.squares.index_of, name
            prefix = "b" if colour == "B" else ("r" if game == "english" else "w")
            shown[name] = f"pc-{prefix}{'k' if king else 'm'}"
    return shown


def move_squares(game: str, fen: str, move: str) -> list[str]:
    """The squares a person clicks for ``move``: the piece, then each square it stops on (one for chess)."""
    if game == "chess":
        chess_move = ChessGame().from_fen(fen).parse_move(move)
        return [chess.square_name(chess_move.from_square), chess.square_name(chess_move.to_square)]
    rules = draughts_game(game)
    parsed = rules.from_fen(fen).parse_move(move)
    names = rules.squares.name_of
    return [names[parsed.origin], *(names[i] for i in parsed.path)]


def promotion_sprite(game: str, fen: str, move: str) -> str | None:
    """The sprite of the piece a chess pawn becomes with ``move`` (``pc-Q``, ``pc-n`` ...), else None."""
    if game != "chess":
        return None
    position = ChessGame().from_fen(fen)
    parsed = position.parse_move(move)
    if not parsed.promotion:
        return None
    return "pc-" + chess.Piece(parsed.promotion, position.board.turn).symbol()


def after(game: str, fen: str, *moves: str) -> str:
    """The FEN after ``moves`` from ``fen``, by the rules layer."""
    position = get_game(game).from_fen(fen)
    for move in moves:
        position = position.play(move)
    return position.fen()
