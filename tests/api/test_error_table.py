"""One table of error codes (``common.web.errors.ERRORS``): every code a function raises is in it, the resolver
answers each with the table's status, and the OpenAPI file and the site's catalogs say the same."""

import importlib
import json
import pkgutil
import re
import sys
from pathlib import Path
from typing import Annotated, TypeVar

import pytest
from aws_lambda_powertools.event_handler import Depends, Request
from babel.messages.pofile import read_po
from common.errors import DomainError
from common.players.service import Unauthorized
from common.web.api import Api
from common.web.errors import ERRORS, FALLBACK_CATALOG_KEY, RULES_ERROR_STATUS

from shared_rules.errors import GameOver, RulesError
from tests.api.helpers import call

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = ROOT / "functions"
LANGS = ("sw", "tl", "en")
#: A code spelled in a refusal: ``code = "..."`` on a class or ``code="..."`` where one is raised.
_SPELLED_CODE = re.compile(r"""\bcode\s*=\s*"([a-z_]+)\"""")
E = TypeVar("E")


def _import_every_function_module() -> None:
    for package in (
        "common",
        "games",
        "live",
        "notify",
        "puzzles_api",
        "push",
        "rules_page",
        "validate_move",
        "api_fallback",
    ):
        root = importlib.import_module(package)
        for module in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            importlib.import_module(module.name)


def _subclasses(kind: type[E]) -> set[type[E]]:
    found: set[type[E]] = set()
    for sub in kind.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def _play_messages() -> dict[str, str]:
    site = str(ROOT / "site")
    if site not in sys.path:
        sys.path.insert(0, site)  # site/ is not a package; play_messages reads its markers from the site's catalogs
    import play_messages

    return play_messages.PLAY_MESSAGES


# -- the table against the code ----------------------------------------------------------------------------
def test_every_refusal_class_has_a_code_of_the_table():
    _import_every_function_module()
    kinds = _subclasses(DomainError) | {DomainError} | _subclasses(RulesError) | {RulesError}
    missing = {kind.__qualname__: kind.code for kind in kinds if kind.code not in ERRORS}
    assert not missing, f"add these codes to common.web.errors.ERRORS: {missing}"


def test_every_code_spelled_in_the_functions_and_the_rules_is_in_the_table():
    sources = [*FUNCTIONS.rglob("*.py"), *(ROOT / "shared_rules").rglob("*.py")]
    spelled = {code for path in sources for code in _SPELLED_CODE.findall(path.read_text(encoding="utf-8"))}
    assert spelled, "the pattern found no code: it no longer matches how refusals are written"
    assert spelled - set(ERRORS) == set()


def test_codes_are_unique_snake_case_and_errors_are_4xx_or_5xx():
    for code, spec in ERRORS.items():
        assert spec.code == code and re.fullmatch(r"[a-z]+(_[a-z]+)*", code)
        assert 400 <= spec.status < 600 and spec.when


# -- the resolver answers with the table ---------------------------------------------------------------------
def _raising_app() -> Api:
    app = Api()

    @app.get("/v1/refuse/{code}")
    def refuse(code: str) -> dict:
        raise DomainError(f"refused with {code}", code=code)

    def needs_a_player(request: Request) -> str:
        raise Unauthorized("no player here")

    @app.get("/v1/guarded")
    def guarded(player: Annotated[str, Depends(needs_a_player)]) -> dict:
        return {"player": player}

    @app.get("/v1/over")
    def over() -> dict:
        raise GameOver("the game has ended")

    return app


APP = _raising_app()


@pytest.mark.parametrize("code", sorted(set(ERRORS) - {"internal_error"}))
def test_a_refusal_is_answered_with_the_status_and_headers_of_its_code(code):
    spec = ERRORS[code]
    answer = call(APP.lambda_handler, "GET", f"/v1/refuse/{code}")
    assert (answer.status, answer.error_code) == (spec.status, code)
    assert answer.body["error"]["message"] == f"refused with {code}"
    for name, value in spec.headers.items():
        assert answer.headers[name.lower()] == value


def test_a_code_missing_from_the_table_is_our_bug():
    answer = call(APP.lambda_handler, "GET", "/v1/refuse/no_such_code")
    assert (answer.status, answer.error_code) == (500, "internal_error")


def test_a_refusal_raised_in_a_dependency_reaches_the_exception_handler():
    """Powertools wraps what a dependency raises; from 3.37.0 its resolver hands the original exception to the
    exception handlers (the floor in functions/requirements.txt), so ``CurrentPlayer`` answers 401, not 500."""
    answer = call(APP.lambda_handler, "GET", "/v1/guarded")
    assert (answer.status, answer.error_code) == (401, "unauthorized")
    assert answer.headers["www-authenticate"] == 'Bearer realm="ubao"'


def test_a_refused_move_is_422_whatever_its_code():
    assert ERRORS["game_over"].status == 409  # a game action on a finished game
    answer = call(APP.lambda_handler, "GET", "/v1/over")
    assert (answer.status, answer.error_code) == (RULES_ERROR_STATUS, "game_over")
    assert answer.body["error"]["reason"] == "game_over"


# -- the table against the OpenAPI file ----------------------------------------------------------------------
def _openapi() -> dict:
    return json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))


def test_the_openapi_file_lists_every_code_with_its_status():
    description = _openapi()["components"]["schemas"]["ErrorDetail"]["properties"]["code"]["description"]
    listed = re.findall(r"^- `([a-z_]+)` \((\d{3})\)", description, flags=re.MULTILINE)
    assert listed == [(code, str(int(spec.status))) for code, spec in ERRORS.items()]


def test_every_error_status_a_route_documents_is_the_status_of_some_code():
    statuses = {int(spec.status) for spec in ERRORS.values()}
    documented = {
        (method.upper(), path, int(status))
        for path, operations in _openapi()["paths"].items()
        for method, operation in operations.items()
        for status in operation.get("responses", {})
        if status[0] in "45"
    }
    assert documented, "no route documents an error"
    assert {entry for entry in documented if entry[2] not in statuses} == set()


# -- the table against the site's catalogs -------------------------------------------------------------------
def test_the_page_texts_of_error_codes_are_exactly_the_codes_the_table_says_have_one():
    keys = {key for key in _play_messages() if key.startswith("error_")}
    assert keys == {spec.catalog_key for spec in ERRORS.values() if spec.has_text}


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_words_every_error_text(lang):
    with (ROOT / "site" / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = {message.id: message for message in read_po(handle) if message.id}
    texts = _play_messages()
    for key in {spec.catalog_key for spec in ERRORS.values()} | {FALLBACK_CATALOG_KEY}:
        message = catalog.get(texts[key])
        assert message is not None, f"{lang}: no entry for {key}"
        assert lang == "en" or (message.string and not message.fuzzy), f"{lang}: {key} is not translated"
