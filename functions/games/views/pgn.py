"""A chess game as PGN, written by python-chess (``chess.pgn``): ``games.views.export`` gives the tags (escaped),
the comments and the ending; python-chess numbers the moves, places the comments and wraps the lines."""

from __future__ import annotations

from collections.abc import Callable

import chess.pgn

from games.domain import AnyEvent, GameHead, Moved
from games.views import LINE_WIDTH


class PgnExporter(chess.pgn.StringExporter):
    """python-chess's PGN writer, with comments written ``{like this}`` as ubao's exports always have been.
    A node's comments are joined by ``COMMENTS_APART``, so each stays a comment of its own."""

    def visit_comment(self, comment: str) -> None:
        self.write_token("{" + comment + "} ")
        self.force_movenumber = True  # the move after a comment carries its number ("N...")


COMMENTS_APART = "} {"


def pgn_text(
    tags: list[tuple[str, str]],
    events: list[AnyEvent],
    head: GameHead,
    ending: str | None,
    comment_of: Callable[[AnyEvent, GameHead], str | None],
) -> str:
    """The PGN of a chess game: each event's comment after the move it follows (before the first move, the
    game's own comment), the ending's after the last move."""
    game = chess.pgn.Game()
    for name, value in tags:  # the Seven Tag Roster first, as PGN orders it; the others as given
        game.headers[name] = value
    board = game.board()  # from the FEN tag when the game did not start from the usual position
    node: chess.pgn.GameNode = game
    comments: list[str] = []
    for event in events:
        if isinstance(event, Moved):
            node.comment = COMMENTS_APART.join(comments)
            comments = []
            move = board.parse_san(event.move)  # a log that does not replay is a bug: ValueError, a 500
            board.push(move)
            node = node.add_variation(move)
        elif comment := comment_of(event, head):
            comments.append(comment)
    node.comment = COMMENTS_APART.join([*comments, *([ending] if ending else [])])
    text: str = game.accept(PgnExporter(columns=LINE_WIDTH + 1))  # tokens end with a space: lines stay < 80
    return text + "\n"
