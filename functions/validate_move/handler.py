"""POST /v1/validate (ValidateMoveFunction in template.yaml): thin; the rules layer does the work."""

from common.web.api import Api
from common.web.depends import Limiter
from common.web.models import ErrorResponse
from common.web.routes import Routes

from validate_move.models import ValidateRequest, ValidateResponse
from validate_move.service import validate_move

router = Routes("rules")


@router.post(
    "/v1/validate",
    summary="Check a move",
    description="Whether `move` is legal after `moves` from `fen`. An illegal move is a 200 answer with "
    "`legal: false`; a malformed request (bad JSON, unknown game, bad FEN or option, an illegal move inside "
    "`moves`) is an error.",
    operation_id="validateMove",
    responses={
        200: {"description": "The verdict on the move."},
        400: {"description": "The body is not JSON.", "content": {"application/json": {"model": ErrorResponse}}},
        413: {"description": "The body is over 64 KiB.", "content": {"application/json": {"model": ErrorResponse}}},
        422: {
            "description": "The request is JSON but wrong: a field, the game, an option, the FEN or the history.",
            "content": {"application/json": {"model": ErrorResponse}},
        },
    },
)
def validate(request: ValidateRequest, limiter: Limiter) -> ValidateResponse:
    limiter.charge_validate(len(request.moves))  # long histories, per source address (docs/limits.md)
    return validate_move(request)


def create_app() -> Api:
    """The resolver with this function's routes (one per process on Lambda; tests may make more)."""
    return Api.with_routers(router)


app = create_app()
lambda_handler = app.lambda_handler
