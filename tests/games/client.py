"""Calling the games function the way API Gateway does, and shortcuts for the steps of a game."""

from __future__ import annotations

import base64
import json
import multiprocessing
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from common.persistence import store

from local.events import LambdaContext, http_api_event

#: The function's timeout as the simulated Lambda context tells it (template.yaml's); the bench raises it, since
#: moto on a loaded machine can take longer than a real DynamoDB would (the deadline has its own tests).
TIMEOUT_SECONDS = 10


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any  # parsed JSON, or the text when the answer is not JSON
    text: str

    @property
    def code(self) -> str | None:
        return self.body["error"]["code"] if isinstance(self.body, dict) and "error" in self.body else None

    @property
    def game(self) -> dict:
        """The game in a 200 answer (a GameState) or in a 201/409 answer that wraps it."""
        body = self.body
        return body["game"] if "game" in body and isinstance(body["game"], dict) else body


def invoke(app, function_name: str, method: str, path: str, *, host: str = "127.0.0.1:3000", **request: Any) -> Answer:
    """One request to the resolver ``app`` of the function ``function_name`` (``FunctionApi.call``'s arguments)."""
    api = FunctionApi(app, host)
    api.function_name = function_name
    return api.call(method, path, **request)


def at_once(make_api, calls) -> list[Answer]:
    """Run each ``call(api)`` in its own forked process (a Lambda instance, ``make_api()`` its resolver), all
    released together by a barrier; the answers in the order of ``calls``."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(calls))
    results = context.Queue()

    def run(index, call):
        store.reset_clients()  # a forked process must not share the parent's connections
        api = make_api()
        barrier.wait(timeout=60)
        answer = call(api)
        results.put((index, answer.status, answer.headers, answer.body, answer.text))

    processes = [context.Process(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for process in processes:
        process.start()
    answers = {}
    for _ in processes:
        index, status, headers, body, text = results.get(timeout=120)
        answers[index] = Answer(status, headers, body, text)
    for process in processes:
        process.join(timeout=30)
    return [answers[index] for index in range(len(calls))]


class FunctionApi:
    """One simulated Lambda instance of a function (its own resolver, as each instance has)."""

    function_name = "GamesFunction"

    def __init__(self, app, host: str = "127.0.0.1:3000"):
        self.app = app
        self.host = host
        self.headers: dict[str, str] = {}  # sent with every call (a call's own headers win)

    def resolver_for(self, path: str):
        """The resolver that answers ``path`` (the function's own)."""
        return self.app

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        query: dict | None = None,
        raw_body: str | bytes | None = None,
    ) -> Answer:
        """One request to the function's resolver as API Gateway sends it; query values that are None are left out;
        ``headers`` over the instance's own."""
        all_headers = {"host": self.host, "content-type": "application/json", **self.headers, **(headers or {})}
        if token is not None:
            all_headers["authorization"] = f"Bearer {token}"
        payload = raw_body if raw_body is not None else (json.dumps(body) if body is not None else None)
        query_text = urlencode({key: value for key, value in (query or {}).items() if value is not None})
        event = http_api_event(method, path, headers=all_headers, body=payload, query=query_text)
        context = LambdaContext(function_name=self.function_name, timeout_seconds=TIMEOUT_SECONDS)
        result = self.resolver_for(path).lambda_handler(event, context)
        text = result.get("body") or ""
        if result.get("isBase64Encoded"):
            text = base64.b64decode(text).decode("utf-8")
        lowered = {name.lower(): value for name, value in (result.get("headers") or {}).items()}
        json_answer = bool(text) and lowered.get("content-type", "").startswith("application/json")
        try:
            parsed = json.loads(text) if json_answer else text
        except ValueError:
            parsed = text
        return Answer(result["statusCode"], lowered, parsed, text)


class Api(FunctionApi):
    """One simulated Lambda instance of the games function."""

    def __init__(self, handler_module, host: str = "127.0.0.1:3000"):
        super().__init__(handler_module.create_app(), host)

    # -- shortcuts: each asserts the step worked, so a test reads as the game it plays ----------------
    def new_player(self, name: str | None = None) -> dict:
        answer = self.call("POST", "/v1/players", {"name": name} if name else {})
        assert answer.status == 201, answer.body
        return answer.body

    def create(self, token: str, game: str = "chess", color: str = "white", **extra) -> Answer:
        answer = self.call("POST", "/v1/games", {"game": game, "color": color, **extra}, token=token)
        assert answer.status == 201, answer.body
        return answer

    def join(self, token: str, game_id: str, invite: str) -> Answer:
        return self.call("POST", f"/v1/games/{game_id}/join", {"invite": invite}, token=token)

    def move(self, token: str, game_id: str, move: str, ply: int) -> Answer:
        return self.call("POST", f"/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token=token)

    def get(self, game_id: str, **kwargs) -> Answer:
        return self.call("GET", f"/v1/games/{game_id}", **kwargs)

    def all_moves(self, game_id: str) -> list[str]:
        """The whole move list as a client rebuilds it: the game's latest moves, then older pages until
        ``earlier`` is null (docs/games.md, "Reading a game")."""
        view = self.get(game_id).body
        moves, earlier = list(view["moves"]), view["earlier"]
        while earlier is not None:
            page = self.call("GET", f"/v1/games/{game_id}/moves", query={"before": earlier}).body
            moves, earlier = page["moves"] + moves, page["earlier"]
        return moves

    def start_game(
        self, game: str = "chess", fen: str | None = None, options: dict | None = None, creator_color: str = "white"
    ):
        """Two players and a started game: (game id, {color: token})."""
        creator, friend = self.new_player("Asha"), self.new_player("Baraka")
        extra: dict[str, str | dict] = {}
        if fen:
            extra["fen"] = fen
        if options:
            extra["options"] = options
        created = self.create(creator["token"], game, creator_color, **extra)
        game_id = created.body["game"]["id"]
        joined = self.join(friend["token"], game_id, created.body["invite"]["code"])
        assert joined.status == 200, joined.body
        seats = {created.body["seat"]: creator["token"], joined.body["seat"]: friend["token"]}
        return game_id, seats

    def play(self, game_id: str, seats: dict, moves: list[str]) -> dict:
        """Play ``moves`` in turn from the current position; the last state."""
        state = self.get(game_id).body
        for text in moves:
            answer = self.move(seats[state["turn"]], game_id, text, state["ply"])
            assert answer.status == 200, (text, answer.body)
            state = answer.body
        return state

    def open_moves(self, game_id: str, seats: dict, plies: int = 4) -> dict:
        """Play ``plies`` moves (each the first legal one), so a rated game counts when it ends: one that ends
        before each side has made two moves is aborted (docs/games.md, "Fair play"). The last state."""
        state = self.get(game_id).body
        for _ in range(plies):
            state = self.play(game_id, seats, [state["legal_moves"][0]])
        return state


def snapshot() -> dict[str, list]:
    """Every item of the games, players and ratings tables there are (to prove that a refused request wrote nothing)."""
    import os

    tables = {}
    for variable in ("GAMES_TABLE", "PLAYERS_TABLE", "RATINGS_TABLE"):
        name = os.environ.get(variable)
        if name is not None:  # a function's tests without that table (the puzzles' have no ratings) skip it
            tables[name] = sorted(scan_table(name), key=repr)
    return tables


def scan_table(name: str) -> list[dict[str, Any]]:
    """Every item of a table, read consistently, page after page."""
    from common.persistence import store

    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"TableName": name, "ConsistentRead": True}
    while True:
        answer = store.client().scan(**params)
        items.extend(store.from_item(item) for item in answer["Items"])
        if "LastEvaluatedKey" not in answer:
            return items
        params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
