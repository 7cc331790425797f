"""Calling the puzzles function (and the games function, which makes players) the way API Gateway does."""

from __future__ import annotations

from puzzles.catalog import Puzzle
from shared_rules import get_game
from tests.games.client import Answer, FunctionApi, scan_table


class PuzzlesApi(FunctionApi):
    """One simulated Lambda instance of the puzzles function, and one of the games function for players."""

    function_name = "PuzzlesFunction"

    def __init__(self, puzzles_handler, games_handler, host: str = "127.0.0.1:3000"):
        super().__init__(puzzles_handler.create_app(), host)
        self.games = games_handler.create_app()

    def resolver_for(self, path: str):
        return self.games if path == "/v1/players" else self.app

    # -- shortcuts: each asserts the step worked ----------------------------------------------------------
    def new_player(self) -> str:
        answer = self.call("POST", "/v1/players", {})
        assert answer.status == 201, answer.body
        return answer.body["token"]

    def daily(self, game: str, date: str | None = None, **extra) -> Answer:
        return self.call("GET", "/v1/puzzles/daily", query={"game": game, "date": date}, **extra)

    def attempt(self, puzzle_id: str, moves: list[str], token: str | None = None, tz: str | None = None) -> Answer:
        return self.call("POST", f"/v1/puzzles/{puzzle_id}/attempt", {"moves": moves}, token=token, query={"tz": tz})

    def progress(self, token: str, tz: str | None = None) -> dict:
        answer = self.call("GET", "/v1/players/me/puzzles", token=token, query={"tz": tz})
        assert answer.status == 200, answer.body
        return answer.body

    def solve(self, puzzle: Puzzle, token: str | None = None, tz: str | None = None) -> list[Answer]:
        """Play the whole solution, one solver move per request, as the site does; every answer."""
        answers, mine = [], []
        for step, move in enumerate(puzzle.solution[::2]):
            mine.append(move)
            answer = self.attempt(puzzle.id, mine, token, tz)
            assert answer.status == 200, answer.body
            answers.append(answer)
            last = step == len(puzzle.solution[::2]) - 1
            assert answer.body["result"] == ("solved" if last else "continue"), answer.body
            if not last:
                assert answer.body["reply"] == puzzle.solution[2 * step + 1]
        return answers

    def fail(self, puzzle: Puzzle, token: str | None = None, tz: str | None = None) -> Answer:
        answer = self.attempt(puzzle.id, failing_line(puzzle, latest=False), token, tz)
        assert answer.status == 200 and answer.body["result"] == "failed", answer.body
        return answer


def wrong_move(puzzle: Puzzle, step: int = 0) -> str | None:
    """A legal move at the solver's ``step`` that is neither the solution's move, nor an alternative the set
    records there, nor a win on the spot (None when the solver has no choice there, as with a forced capture)."""
    game = get_game(puzzle.game)
    position = game.replay(puzzle.solution[: 2 * step], fen=puzzle.fen)
    expected = position.parse_move(puzzle.solution[2 * step])
    accepted = [expected]  # the solution's move and the alternatives the set records at this step
    if step < len(puzzle.alternatives):
        accepted += [position.parse_move(text) for text in puzzle.alternatives[step]]
    for move in position.legal_moves():
        if move not in accepted and position.play(move).status().result != position.turn:
            return position.notation(move)
    return None


def failing_line(puzzle: Puzzle, latest: bool = True) -> list[str]:
    """The solver's moves of a line that is right up to a step and wrong there: the last step that has a wrong
    move (or the first, with ``latest`` false)."""
    solver = list(puzzle.solution[::2])
    steps = range(len(solver))
    for step in reversed(steps) if latest else steps:
        wrong = wrong_move(puzzle, step)
        if wrong is not None:
            return solver[:step] + [wrong]
    raise AssertionError(f"{puzzle.id} cannot be failed")


def snapshot() -> dict[str, list]:
    """Every item of the players and puzzle progress tables, by logical name (to prove a refusal wrote nothing)."""
    import os

    tables = {}
    for logical, variable in (("PlayersTable", "PLAYERS_TABLE"), ("PuzzleProgressTable", "PUZZLES_TABLE")):
        items = scan_table(os.environ[variable])
        tables[logical] = sorted(items, key=lambda item: repr(sorted(item.items())))
    return tables
