"""The base of every refusal a service or a domain raises: a plain exception with a stable ``code``.

A domain knows nothing of HTTP: it raises ``DomainError`` (or a subclass) with the code that names the
refusal, and the edge (``common.web.api.Api``) answers with the status that ``common.web.errors.ERRORS``
gives that code. A refusal is declared with its code in one line: ``class NoSuchGame(DomainError,
code="game_not_found"): ...`` (a docstring in place of ``...`` when the name does not say it all). Clients and the site's catalogs (``error_<code>``) key on the code, so a code never changes
once shipped.
"""

from __future__ import annotations


class DomainError(Exception):
    """A refusal: ``code`` is stable for clients; ``reason`` an optional finer code (``error.reason``).

    ``retry_after`` (seconds), when set, says the same request may succeed later (a busy store, a limit).
    ``refused_move`` marks a move the rules refuse: such a refusal is 422 whatever its code, as every
    refusal of the rules layer (``common.web.errors`` says why).
    """

    code = "bad_request"
    reason: str | None = None
    retry_after: int | None = None
    refused_move = False

    def __init_subclass__(cls, *, code: str | None = None) -> None:
        """``class NoSuchGame(DomainError, code="game_not_found")``: the class's code, said where it is named."""
        super().__init_subclass__()
        if code is not None:
            cls.code = code

    def __init__(self, message: str, *, code: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if reason is not None:
            self.reason = reason
