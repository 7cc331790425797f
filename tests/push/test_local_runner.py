"""Web Push under the real local runner (`make run`): the games table's stream fed to the notify function by the
runner itself (local/streams.py), off the requests, and driven by what the table holds.

The runner runs in a subprocess on dynalite, as `make run` starts it; the local push service listens in this
process, so the test sees exactly what reached the "phone": one POST, its VAPID header verified, its payload
decrypted.
"""

from __future__ import annotations

import time

import pytest

from tests.runner import Http, local_runner

#: How long a test waits for the runner to do what it must (a push, a look at the table): long enough for a
#: loaded CI machine. Not a measure of speed: a passing test may take far less (speed is `make bench`'s).
MOVE_DEADLINE = 60.0


@pytest.fixture(scope="module")
def runner(dynalite_endpoint, tmp_path_factory, catalogs):
    """`python -m local.runner` on a free port, on dynalite, with a short poll and a short reminder schedule (the
    catalogs compiled: the notifications are worded from them)."""
    workdir = tmp_path_factory.mktemp("runner")
    with local_runner(
        dynalite_endpoint,
        workdir,
        lambda http: http("GET", "/v1/push/key")[0] == 200 and "push: the" in http.log(),
        Http,
        STREAM_POLL_SECONDS="1",  # the look that finds what no request announced (the crash below)
        REMINDER_SWEEP_SECONDS="1",
    ) as served:
        yield served


@pytest.fixture
def push_service():
    from local.push_service import PushService

    with PushService() as service:
        yield service


def new_game(http) -> tuple[str, dict[str, str]]:
    """Asha (White) and Baraka (Black) in a started game of chess: (game id, {color: token})."""
    tokens = {}
    for color, name in (("white", "Asha"), ("black", "Baraka")):
        status, player = http("POST", "/v1/players", {"name": name})
        assert status == 201, player
        tokens[color] = player["token"]
    # Black creates and White joins: a join that leaves the joiner to move tells nobody anything, so no notice
    # of the join can reach a subscription made just after it (the feeder runs off the requests).
    status, created = http("POST", "/v1/games", {"game": "chess", "color": "black"}, tokens["black"])
    assert status == 201, created
    game_id = created["game"]["id"]
    status, joined = http("POST", f"/v1/games/{game_id}/join", {"invite": created["invite"]["code"]}, tokens["white"])
    assert status == 200, joined
    return game_id, tokens


def subscribe(http, push_service, token: str, lang: str = "en"):
    status, key = http("GET", "/v1/push/key")
    assert status == 200, key
    browser = push_service.subscribe(server_key=key["public_key"])  # a POST signed by another key is refused
    status, answer = http("POST", "/v1/players/me/push-subscriptions", {**browser.info(), "lang": lang}, token)
    assert status == 201, answer
    return browser


def move(http, tokens, game_id: str, color: str, text: str, ply: int) -> None:
    status, answer = http("POST", f"/v1/games/{game_id}/moves", {"move": text, "ply": ply}, tokens[color])
    assert status == 200, answer


def wait_for_attempts(push_service, endpoint: str, count: int, timeout: float = MOVE_DEADLINE) -> int:
    deadline = time.monotonic() + timeout
    while push_service.attempts.get(endpoint, 0) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return push_service.attempts.get(endpoint, 0)


def wait_for_two_looks(http) -> None:
    """Until the runner's stream has completed two looks at the table from now: the second began after
    every write so far, so what those writes were to send has been sent (and what was not, never will)."""
    status, stats = http("GET", "/v1/_local/stats")
    assert status == 200, stats
    wanted = stats["stream_looks"] + 2
    deadline = time.monotonic() + MOVE_DEADLINE
    while stats["stream_looks"] < wanted and time.monotonic() < deadline:
        time.sleep(0.25)
        stats = http("GET", "/v1/_local/stats")[1]
    assert stats["stream_looks"] >= wanted, stats


def test_the_opponents_move_reaches_the_phone_and_a_gone_endpoint_is_forgotten(runner, push_service):
    game_id, tokens = new_game(runner)
    white = subscribe(runner, push_service, tokens["white"], lang="en")
    move(runner, tokens, game_id, "white", "e4", 0)
    wait_for_two_looks(runner)  # White's own move was fed to the notify function: it told White nothing
    assert push_service.attempts.get(white.endpoint, 0) == 0
    move(runner, tokens, game_id, "black", "e5", 1)
    (delivery,) = push_service.wait_for(1, timeout=MOVE_DEADLINE)
    assert delivery.endpoint == white.endpoint and push_service.refused == []
    assert delivery.claims["aud"] == push_service.origin  # the VAPID JWT verified with the runner's key
    assert delivery.json["kind"] == "your_move" and delivery.json["game"] == game_id
    assert delivery.json["body"] == "Baraka played e5 in Chess."
    wait_for_two_looks(runner)
    assert push_service.attempts[white.endpoint] == 1  # one POST, not one per look at the table

    push_service.answer_with(white.endpoint, 410)  # the browser unsubscribed: the push service says Gone
    move(runner, tokens, game_id, "white", "Nf3", 2)
    move(runner, tokens, game_id, "black", "Nc6", 3)
    assert wait_for_attempts(push_service, white.endpoint, 2) == 2
    status, listed = runner("GET", "/v1/players/me/push-subscriptions", token=tokens["white"])
    deadline = time.monotonic() + MOVE_DEADLINE
    while listed["subscriptions"] and time.monotonic() < deadline:
        time.sleep(0.1)
        status, listed = runner("GET", "/v1/players/me/push-subscriptions", token=tokens["white"])
    assert status == 200 and listed["subscriptions"] == []
    move(runner, tokens, game_id, "white", "Bb5", 4)
    move(runner, tokens, game_id, "black", "a6", 5)
    wait_for_two_looks(runner)
    assert push_service.attempts[white.endpoint] == 2  # the second move after the 410 sent nothing
    assert len(push_service.deliveries()) == 1


def test_a_move_stored_by_a_request_that_crashed_is_still_notified(
    runner, push_service, monkeypatch, dynalite_endpoint
):
    """The games function appended the event and died before its head write and before answering: no request
    ended at the runner, yet the runner's feeder finds the event in the table and the notice goes out."""
    from common.persistence import store

    from tests.games.client import Api

    game_id, tokens = new_game(runner)
    black = subscribe(runner, push_service, tokens["black"], lang="sw")
    for name, value in {
        "DYNAMODB_ENDPOINT": dynalite_endpoint,
        "GAMES_TABLE": "GamesTable",
        "PLAYERS_TABLE": "PlayersTable",
        "RATE_LIMIT_TABLE": "RateLimitTable",
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    store.reset_clients()
    from games import handler

    head_key = {"pk": {"S": game_id}, "sk": {"S": "H"}}
    before = store.client().get_item(TableName="GamesTable", Key=head_key, ConsistentRead=True)["Item"]
    # The games function itself, in this process (so the runner sees no request), on the runner's tables.
    answer = Api(handler).move(tokens["white"], game_id, "d4", 0)
    assert answer.status == 200, answer.body
    store.client().put_item(TableName="GamesTable", Item=before)  # as if the head write never happened
    try:
        (delivery,) = push_service.wait_for(1, timeout=MOVE_DEADLINE)
    finally:
        store.reset_clients()
    assert delivery.endpoint == black.endpoint
    assert delivery.json["kind"] == "your_move" and delivery.json["game"] == game_id
    assert delivery.json["title"] == "Ni zamu yako"


def test_the_runner_runs_the_reminder_sweep_on_its_schedule(runner):
    deadline = time.monotonic() + 10
    while '"reminders swept"' not in runner.log() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert '"reminders swept"' in runner.log()


def test_a_push_endpoint_that_never_answers_holds_up_no_request(runner, push_service):
    """The notify function runs beside the requests: while its push hangs on an endpoint that does not answer,
    the API answers. Before, the requests waited for the whole send: three attempts, each cut by the read
    timeout; now they are answered before the sender has made its third attempt."""
    game_id, tokens = new_game(runner)
    white = subscribe(runner, push_service, tokens["white"])
    release = push_service.stall(white.endpoint)
    try:
        move(runner, tokens, game_id, "white", "e4", 0)
        move(runner, tokens, game_id, "black", "e5", 1)  # White's "your move": its push hangs
        assert push_service.holding.wait(30)
        status, game = runner("GET", f"/v1/games/{game_id}")
        assert status == 200 and game["ply"] == 2
        move(runner, tokens, game_id, "white", "Nf3", 2)
        assert push_service.held[white.endpoint] < 3  # the send is not over: nothing waited for it
    finally:
        release.set()
