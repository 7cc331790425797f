"""The one error shape of the HTTP API, and ``ERRORS``: every ``code`` an answer can carry, with its status.

Every error answer is ``{"error": {"code": ..., "message": ...}}`` (a refused move adds ``reason``). Services
and domains raise plain exceptions with a ``code`` (``common.errors.DomainError``, and the rules layer's
``shared_rules.RulesError``); ``common.web.api.Api`` answers each with the status ``ERRORS`` gives its code,
for every function. The site shows a refusal by its code: the catalog key ``error_<code>`` when the table
says the code has a text of its own, else ``request_refused`` (``site/play_messages.py``); the server's
``message`` is English, for developers. ``tests/api/test_error_table.py`` checks that this table, the
OpenAPI description and the catalogs agree.

Why 422 and not 400 for the rules codes: 400 means "we could not read your request", 422 means "we read it
and it asks for something impossible". Both model errors and rules errors are the second kind, so a
client handles one status for "fix the content" and another for "fix the encoding". A refused move is 422
whatever its code (``game_over`` included: the same code is a 409 when a game action other than a move
finds the game over).

The edge's own refusals (a body that is not JSON, no such route...) are ``ApiError``: a ``DomainError`` that
may carry response headers (``Allow``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from types import MappingProxyType

from common.errors import DomainError

MAX_BODY_BYTES = 64 * 1024

#: The status of every ``shared_rules.RulesError`` and of every refused move (see the module docstring).
RULES_ERROR_STATUS = HTTPStatus.UNPROCESSABLE_ENTITY
#: The catalog key of a refusal whose code has no text of its own.
FALLBACK_CATALOG_KEY = "request_refused"


@dataclass(frozen=True)
class ErrorSpec:
    """What an error code means over HTTP: its status, when it happens, and how the site words it."""

    code: str
    status: HTTPStatus
    when: str
    has_text: bool = False  # the site's catalogs hold a text of its own, under ``error_<code>``
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def catalog_key(self) -> str:
        return f"error_{self.code}" if self.has_text else FALLBACK_CATALOG_KEY


_S = HTTPStatus
_SPECS = (
    ErrorSpec("bad_request", _S.BAD_REQUEST, "the request cannot be read (an edge refusal without a finer code)"),
    ErrorSpec(
        "invalid_json", _S.BAD_REQUEST, "the body is not JSON (bad syntax, NaN, too deep, not UTF-8, bad base64)"
    ),
    ErrorSpec(
        "unauthorized",
        _S.UNAUTHORIZED,
        "no player token, or not the token of any player",
        headers=MappingProxyType({"WWW-Authenticate": 'Bearer realm="ubao"'}),
    ),
    ErrorSpec("forbidden", _S.FORBIDDEN, "the player may not do this"),
    ErrorSpec("not_a_player", _S.FORBIDDEN, "the player holds no seat in this game", has_text=True),
    ErrorSpec("not_your_turn", _S.FORBIDDEN, "a move sent when it is the opponent's turn"),
    ErrorSpec("invalid_invite", _S.FORBIDDEN, "the invite code does not open this game", has_text=True),
    ErrorSpec("player_blocked", _S.FORBIDDEN, "one of the two players blocked the other", has_text=True),
    ErrorSpec("out_of_range", _S.FORBIDDEN, "the challenge's rating range excludes the player", has_text=True),
    ErrorSpec("not_your_seek", _S.FORBIDDEN, "a challenge withdrawn by a player who did not make it", has_text=True),
    # The live WebSocket (functions/live): its $connect refusals are the handshake's status, the rest messages.
    ErrorSpec("invalid_ticket", _S.FORBIDDEN, "a live ticket that is unknown, used already or expired"),
    ErrorSpec("not_allowed_to_follow", _S.FORBIDDEN, "a private game followed by someone not of its two players"),
    ErrorSpec("not_found", _S.NOT_FOUND, "no route has this path, or no rules page has this name"),
    ErrorSpec("game_not_found", _S.NOT_FOUND, "no game has this id", has_text=True),
    ErrorSpec("seek_not_found", _S.NOT_FOUND, "no open challenge has this id (withdrawn or expired)", has_text=True),
    ErrorSpec("puzzle_not_found", _S.NOT_FOUND, "no puzzle has this id"),
    ErrorSpec("block_not_found", _S.NOT_FOUND, "the player has no block with this id"),
    ErrorSpec("review_not_found", _S.NOT_FOUND, "no review of this game has been asked for", has_text=True),
    ErrorSpec("no_puzzle_left", _S.NOT_FOUND, "the player has played every puzzle asked for"),
    ErrorSpec("connection_gone", _S.GONE, "a live message on a connection that is closed"),
    ErrorSpec("method_not_allowed", _S.METHOD_NOT_ALLOWED, "a route has this path but not this method (see `Allow`)"),
    ErrorSpec("conflict", _S.CONFLICT, "the game is not in a state that allows this"),
    ErrorSpec("stale_ply", _S.CONFLICT, "the game has moved on since the move was chosen", has_text=True),
    ErrorSpec("game_not_started", _S.CONFLICT, "the game waits for its second player", has_text=True),
    ErrorSpec("game_over", _S.CONFLICT, "the game is over (a refused move: 422)"),
    ErrorSpec("your_move", _S.CONFLICT, "a claim made when it is the claimant's own move", has_text=True),
    ErrorSpec("deadline_not_passed", _S.CONFLICT, "a claim made before the opponent's time is up", has_text=True),
    ErrorSpec("no_draw_offer", _S.CONFLICT, "a draw accepted or declined that nobody offered", has_text=True),
    ErrorSpec("game_not_finished", _S.CONFLICT, "a rematch or a review asked before the game is over", has_text=True),
    ErrorSpec("no_rematch_offer", _S.CONFLICT, "a rematch accepted or declined that nobody offered", has_text=True),
    # The community (functions/community): follows and feedback.
    ErrorSpec("player_not_found", _S.NOT_FOUND, "no player with this id can be followed", has_text=True),
    ErrorSpec("follow_not_found", _S.NOT_FOUND, "the player does not follow that player"),
    ErrorSpec("cannot_follow_yourself", _S.CONFLICT, "a player asked to follow themselves", has_text=True),
    ErrorSpec("you_blocked_player", _S.CONFLICT, "a follow of a player the asker blocked", has_text=True),
    ErrorSpec("too_many_players_followed", _S.CONFLICT, "the player follows the most players already", has_text=True),
    # Direct challenges (functions/community/challenges).
    ErrorSpec("not_a_friend", _S.FORBIDDEN, "a challenge to a player who is not a friend (or blocked)", has_text=True),
    ErrorSpec("challenge_not_found", _S.NOT_FOUND, "the player has no challenge with this id", has_text=True),
    ErrorSpec("challenge_closed", _S.CONFLICT, "the challenge was answered, withdrawn or lapsed", has_text=True),
    ErrorSpec("already_challenged", _S.CONFLICT, "an open challenge to this friend exists", has_text=True),
    ErrorSpec("too_many_challenges", _S.CONFLICT, "the player has the most challenges out", has_text=True),
    ErrorSpec("no_opponent", _S.CONFLICT, "a block asked in a game with no other player"),
    ErrorSpec("too_many_blocks", _S.CONFLICT, "the player keeps the most blocks already"),
    ErrorSpec("not_abortable", _S.CONFLICT, "an abort after both sides made two moves", has_text=True),
    ErrorSpec("computer_plays_your_seat", _S.CONFLICT, "the computer plays the seat since time ran out", has_text=True),
    ErrorSpec("turn_time_over", _S.CONFLICT, "a move after a live turn's deadline (nothing changes)", has_text=True),
    ErrorSpec("game_full", _S.CONFLICT, "both seats are taken", has_text=True),
    ErrorSpec("own_game", _S.CONFLICT, "the creator of a game tried to join it", has_text=True),
    ErrorSpec("seek_taken", _S.CONFLICT, "another player accepted the challenge first", has_text=True),
    ErrorSpec("own_seek", _S.CONFLICT, "a player tried to accept their own challenge", has_text=True),
    ErrorSpec(
        "invalid_rating_range",
        _S.UNPROCESSABLE_ENTITY,
        "a seek's rating range that excludes the seeker or reaches less than 100 on a side",
        has_text=True,
    ),
    ErrorSpec("too_many_seeks", _S.CONFLICT, "the player has 3 open challenges already", has_text=True),
    # -- clubs (issue 42, functions/clubs and common/clubs) --
    ErrorSpec("club_not_found", _S.NOT_FOUND, "no club has this id", has_text=True),
    ErrorSpec(
        "wrong_club_code", _S.FORBIDDEN, "the code does not open the club (renewed, or never its code)", has_text=True
    ),
    ErrorSpec("club_full", _S.CONFLICT, "the club has 500 members", has_text=True),
    ErrorSpec("too_many_clubs", _S.CONFLICT, "the player is in 20 clubs already", has_text=True),
    ErrorSpec(
        "not_club_owner", _S.FORBIDDEN, "only the club's owner renews its code or removes a member", has_text=True
    ),
    ErrorSpec("not_club_member", _S.NOT_FOUND, "the player is not in the club", has_text=True),
    ErrorSpec("owner_stays_in_club", _S.CONFLICT, "the owner leaves only as the club's last member", has_text=True),
    ErrorSpec("club_members_only", _S.FORBIDDEN, "a club's tournament made or joined by a non-member", has_text=True),
    # -- tournaments (issue 40, functions/tournaments) --
    ErrorSpec("invalid_tournament", _S.UNPROCESSABLE_ENTITY, "the tournaments domain refused the request"),
    ErrorSpec(
        "invalid_tournament_invite", _S.FORBIDDEN, "the invite code does not open the private tournament", has_text=True
    ),
    ErrorSpec("tournament_not_found", _S.NOT_FOUND, "no tournament has this id", has_text=True),
    ErrorSpec("tournament_started", _S.CONFLICT, "a league that has started takes no entries", has_text=True),
    ErrorSpec("tournament_full", _S.CONFLICT, "every place of the tournament is taken", has_text=True),
    ErrorSpec("tournament_over", _S.CONFLICT, "the tournament is over", has_text=True),
    ErrorSpec("already_entered", _S.CONFLICT, "the player is in the tournament already", has_text=True),
    ErrorSpec("not_entered", _S.CONFLICT, "the player is not in the tournament"),
    ErrorSpec("invalid_league_size", _S.UNPROCESSABLE_ENTITY, "a league of fewer than 3 or more than 8", has_text=True),
    ErrorSpec(
        "invalid_cup_size",
        _S.UNPROCESSABLE_ENTITY,
        "a cup of other than 2, 4 or 8 groups of 4 to 6 players",
        has_text=True,
    ),
    ErrorSpec(
        "invalid_arena_length",
        _S.UNPROCESSABLE_ENTITY,
        "an arena shorter than 20 or longer than 120 minutes",
        has_text=True,
    ),
    ErrorSpec(
        "starts_in_past", _S.UNPROCESSABLE_ENTITY, "a start time that has passed (or none for an arena)", has_text=True
    ),
    ErrorSpec("arena_needs_live_table", _S.UNPROCESSABLE_ENTITY, "an arena asked without turn_seconds"),
    ErrorSpec("not_an_arena", _S.CONFLICT, "presence sent to a league (only an arena pairs who is present)"),
    ErrorSpec(
        "blocked_entrant", _S.CONFLICT, "a player in the league and the joiner blocked one another", has_text=True
    ),
    # -- end of tournaments --
    ErrorSpec("too_many_follows", _S.CONFLICT, "a live connection follows the most games already"),
    ErrorSpec("payload_too_large", _S.REQUEST_ENTITY_TOO_LARGE, "the body is over 64 KiB"),
    ErrorSpec(
        "unsupported_media_type",
        _S.UNSUPPORTED_MEDIA_TYPE,
        "a body sent without `Content-Type: application/json`",
        has_text=True,
    ),
    ErrorSpec(
        "invalid_request", _S.UNPROCESSABLE_ENTITY, "the JSON does not match the request model (names the field)"
    ),
    ErrorSpec("invalid_body", _S.UNPROCESSABLE_ENTITY, "the body is JSON but not an object", has_text=True),
    ErrorSpec("invalid_input", _S.UNPROCESSABLE_ENTITY, "the rules layer cannot read the input"),
    ErrorSpec("unknown_game", _S.UNPROCESSABLE_ENTITY, "no game of that name"),
    ErrorSpec("invalid_option", _S.UNPROCESSABLE_ENTITY, "a game option the game does not have, or a wrong value"),
    ErrorSpec(
        "rated_not_allowed",
        _S.UNPROCESSABLE_ENTITY,
        "a rated game asked against the computer or from a custom position",
        has_text=True,
    ),
    ErrorSpec("invalid_fen", _S.UNPROCESSABLE_ENTITY, "the position is not a valid FEN of the game"),
    ErrorSpec("illegal_move", _S.UNPROCESSABLE_ENTITY, "the move is not legal (with `reason`)"),
    ErrorSpec("ambiguous_move", _S.UNPROCESSABLE_ENTITY, "the text fits more than one legal move"),
    ErrorSpec("game_error", _S.UNPROCESSABLE_ENTITY, "the games domain refused the request"),
    ErrorSpec("invalid_cursor", _S.UNPROCESSABLE_ENTITY, "a list cursor this API did not give"),
    ErrorSpec("invalid_name", _S.UNPROCESSABLE_ENTITY, "a display name that breaks the naming rules", has_text=True),
    ErrorSpec("invalid_date", _S.UNPROCESSABLE_ENTITY, "not a date, or a day with no daily puzzle"),
    ErrorSpec("invalid_theme", _S.UNPROCESSABLE_ENTITY, "no puzzle of the game has this theme"),
    ErrorSpec("invalid_tz", _S.UNPROCESSABLE_ENTITY, "not an IANA time zone"),
    ErrorSpec("invalid_country", _S.UNPROCESSABLE_ENTITY, "not a country's ISO 3166-1 alpha-2 code (capitals)"),
    ErrorSpec("attempt_over", _S.UNPROCESSABLE_ENTITY, "moves sent after the attempt was decided, or none"),
    ErrorSpec("unsupported_language", _S.UNPROCESSABLE_ENTITY, "a page language the site does not have"),
    ErrorSpec("invalid_message", _S.UNPROCESSABLE_ENTITY, "a live socket message that is not one it understands"),
    ErrorSpec("rate_limited", _S.TOO_MANY_REQUESTS, "too many requests; retry after `Retry-After`", has_text=True),
    ErrorSpec("too_many_connections", _S.TOO_MANY_REQUESTS, "the player or address holds the most live connections"),
    ErrorSpec("internal_error", _S.INTERNAL_SERVER_ERROR, "a bug; never caused by input (the tests prove it)"),
    ErrorSpec(
        "store_unavailable", _S.SERVICE_UNAVAILABLE, "the store is busy; retry after `Retry-After`", has_text=True
    ),
    ErrorSpec("push_not_configured", _S.SERVICE_UNAVAILABLE, "this deployment has no key for Web Push"),
)

#: Every code an error answer can carry (in the order of their statuses).
ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({spec.code: spec for spec in _SPECS})


class ApiError(DomainError, code="bad_request"):
    """A refusal found by the edge itself; its status is the table's for its code unless ``status`` is given."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message, code=code, reason=reason)
        self.status = int(status) if status is not None else int(ERRORS[self.code].status)
        self.headers: dict[str, str] = dict(headers or {})


class InvalidJson(ApiError, code="invalid_json"): ...


class InvalidBody(ApiError, code="invalid_body"): ...


class UnsupportedMediaType(ApiError, code="unsupported_media_type"): ...


class PayloadTooLarge(ApiError, code="payload_too_large"): ...


class NotFound(ApiError, code="not_found"): ...


class MethodNotAllowed(ApiError, code="method_not_allowed"): ...


class InvalidRequest(ApiError, code="invalid_request"): ...


def error_body(code: str, message: str, reason: str | None = None) -> dict[str, dict[str, str]]:
    """The error answer; ``reason`` (a finer machine-readable code, such as why a move is refused) when known."""
    detail = {"code": code, "message": message}
    if reason:
        detail["reason"] = reason
    return {"error": detail}
