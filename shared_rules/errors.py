"""The errors the rules layer raises. Every one carries a stable ``code`` for APIs."""


class RulesError(ValueError):
    """Base of every error caused by bad input to the rules layer."""

    code = "invalid_input"


class UnknownGame(RulesError):
    code = "unknown_game"


class InvalidOption(RulesError):
    code = "invalid_option"


class InvalidFen(RulesError):
    code = "invalid_fen"


#: Why a move was refused, for clients to explain it in the player's language (``InvalidMove.reason``).
MOVE_REASONS = (
    "unknown_move",  # the text names no move (bad notation, or no piece can make it)
    "no_piece",  # the move starts on an empty square
    "wrong_color",  # the move starts on a piece of the side not to move
    "capture_required",  # a capture is compulsory and this move is not one of the compulsory captures
    "blocked",  # the player's own piece cannot go there (occupied, out of reach, or it would leave the king in check)
    "ambiguous",  # the text fits more than one legal move
    "game_over",  # the game has ended
    "not_your_turn",  # (games API) the player is not the side to move
)


class InvalidMove(RulesError):
    """The text is not a move at all (bad notation) or names no legal move.

    ``reason`` (one of ``MOVE_REASONS``) says why, so every client words the refusal in its own language.
    """

    code = "illegal_move"
    default_reason = "unknown_move"

    def __init__(self, message: str, index: int | None = None, reason: str | None = None):
        super().__init__(message)
        self.index = index
        self.reason = reason or self.default_reason


class AmbiguousMove(InvalidMove):
    code = "ambiguous_move"
    default_reason = "ambiguous"


class GameOver(InvalidMove):
    code = "game_over"
    default_reason = "game_over"
