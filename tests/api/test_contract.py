"""`make contract` (local/contract.py): what it reads in the runner's log, and that it filters no operation,
so a route another branch adds is checked as soon as docs/openapi.json describes it. The run itself is
`make contract` (CI runs it after `make test`)."""

from __future__ import annotations

from pathlib import Path

from local.contract import schemathesis_command, server_errors
from local.openapi import OUTPUT as OPENAPI_FILE

LOG = """ubao is running on http://127.0.0.1:4000/
GET /v1/push/key 200 3.1 ms
{"level":"ERROR","message":"unexpected error","exception":"Traceback (most recent call last): KeyError"}
POST /v1/games/abcdefghijkl/moves 500 12.0 ms
GET /v1/games/abcdefghijkl 503 1.0 ms
TRACE /v1/validate 405 0.2 ms
"""


def test_each_5xx_but_a_503_is_found_with_what_the_runner_logged_while_answering_it():
    errors = server_errors(LOG)
    assert len(errors) == 1
    assert errors[0].endswith("POST /v1/games/abcdefghijkl/moves 500 12.0 ms")
    assert "unexpected error" in errors[0] and "push/key" not in errors[0]
    assert server_errors(LOG.replace(" 500 ", " 201 ")) == []


def test_every_operation_of_the_description_is_run():
    command = schemathesis_command("http://127.0.0.1:4000", "ubao_token", 5, 27, Path("report"))
    assert str(OPENAPI_FILE) in command
    assert not [part for part in command if part.startswith(("--include", "--exclude"))]
