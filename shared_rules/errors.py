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


class InvalidMove(RulesError):
    """The text is not a move at all (bad notation) or names no legal move."""

    code = "illegal_move"

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


class AmbiguousMove(InvalidMove):
    code = "ambiguous_move"


class GameOver(InvalidMove):
    code = "game_over"
