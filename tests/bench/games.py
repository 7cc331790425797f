"""Section ``games``: DynamoDB reads, writes and item sizes per games request, and the warm move request on
moto beside a validate request."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import statistics

from tests.bench.common import _LAMBDA_CONTEXT, _function, _moto_environment, _validate_event, heading
from tests.bench.replay import _answer_of, _cpu_and_answer, _cpu_of, _games_event, _handler_answer, _Replay, _StoreMeter


def bench_games() -> None:
    """DynamoDB reads, writes and item sizes per games request, and the warm move request on moto."""
    import random

    from moto import mock_aws

    _moto_environment()
    with mock_aws():
        from common.persistence import store
        from games import handler

        from local.dynamodb import create_tables, table_definitions
        from tests.games.client import Api

        store.reset_clients(session=True)  # a session made now, inside the mock
        create_tables(table_definitions())
        api = Api(_function(handler))
        meter = _StoreMeter(store)

        heading("games: DynamoDB calls and item sizes per request (moto)")
        per_move: list[tuple[int, int]] = []
        head_sizes: dict[str, int] = {}
        event_sizes: dict[str, int] = {}
        for game, fen in (
            ("chess", None),
            ("english", None),
            ("tanzanian", None),
            ("chess", "8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1"),
        ):
            game_id, seats = api.start_game(game, fen=fen)
            chooser = random.Random(4)
            state = api.get(game_id).body
            while state["state"] == "active" and state["ply"] < 300:
                move = chooser.choice(state["legal_moves"])
                with meter:
                    answer = api.move(seats[state["turn"]], game_id, move, state["ply"])
                assert answer.status == 200, answer.body
                per_move.append((meter.reads, meter.writes))
                label = f"{game}{' (minor pieces)' if fen else ''}"
                head_sizes[label] = max(head_sizes.get(label, 0), meter.largest("H"))
                event_sizes[label] = max(event_sizes.get(label, 0), meter.largest("E"))
                state = answer.body
            print(
                f"{label:<24} {state['ply']:>4} plies, ended {state['status']['reason'] or 'ongoing':<22}"
                f" largest head {head_sizes[label]:>4} B, largest move item {event_sizes[label]:>4} B"
            )
        reads = max(read for read, _ in per_move)
        writes = max(write for _, write in per_move)
        print(
            f"{len(per_move)} move requests on one instance: at most {reads} read(s) and {writes} write(s) each "
            f"(target: at most 1 read and 2 writes, every item under 1,024 B; it keeps each game's head, an "
            f"instance that has not seen the game reads it)"
        )
        print(
            f"worst case of a chess head, by construction: {_worst_head_size(store)} B (99 repetition keys, the "
            f"last two moves, 24-character names in 2-byte letters, the longest FEN and options)"
        )

        game_id, seats = api.start_game("chess")
        api.move(seats["white"], game_id, "e4", 0)
        for name, call in (
            ("retry of an accepted move", lambda: api.move(seats["white"], game_id, "e4", 0)),
            ("stale ply (409)", lambda: api.move(seats["white"], game_id, "d4", 0)),
            ("poll, unchanged (304)", lambda: api.get(game_id, headers={"if-none-match": '"2.3"'})),
            ("GET the whole game", lambda: api.get(game_id)),
            ("list my games (two seats)", lambda: api.call("GET", "/v1/players/me/games", token=seats["white"])),
        ):
            with meter:
                call()
            print(f"{name:<28} {meter.reads} read(s), {meter.writes} write(s)")

        heading("games: a move request beside a validate request (CPU time less DynamoDB's, median)")
        from games.domain import forget_positions
        from validate_move.handler import lambda_handler as validate_handler

        from local.events import LambdaContext

        namespace: dict = {}
        exec(_LAMBDA_CONTEXT, namespace)
        context = namespace["Context"]()
        games_context = LambdaContext(function_name="GamesFunction", timeout_seconds=900)

        recorder, replay = Api(_function(handler)), _Replay(store.client())

        def move(game_id: str, token: str, text: str, state: dict) -> tuple[float, float, dict]:
            """The CPU of a move request and of a validate request of the same move in the same position, taken
            in turn (so that a load that comes and goes weighs on both alike), and the game after the move. The
            move is made on two instances that keep the same heads: on ``recorder`` against moto, then on ``api``
            with moto's answers replayed (``_Replay``, as in section length)."""
            validate_event = _validate_event({"game": "chess", "fen": state["fen"], "move": text})
            validate = _cpu_of(meter, functools.partial(_handler_answer, validate_handler, validate_event, context))
            event = _games_event("POST", game_id, "/moves", body={"move": text, "ply": state["ply"]}, token=token)
            with contextlib.redirect_stdout(io.StringIO()):  # the function's EMF metric lines
                answers = replay.record(functools.partial(recorder.app.lambda_handler, event, games_context))
                forget_positions()  # each request restores its position
                request = functools.partial(replay.replay, answers, api.app.lambda_handler, event, games_context)
                cpu, answer = _cpu_and_answer(meter, functools.partial(_answer_of, request))
            return cpu, validate, json.loads(answer.body)

        first = []
        for _ in range(60):
            game_id, seats = api.start_game("chess")
            state = recorder.get(game_id).body  # the recorder keeps the head too
            first.append(move(game_id, seats["white"], "e4", state)[:2])
        long_id, long_seats = api.start_game("chess", fen="8/8/3k4/8/8/3K4/8/4N1B1 w - - 0 1")
        state = recorder.get(long_id).body
        chooser, late = random.Random(9), []
        while state["state"] == "active" and state["ply"] < 90:
            quiet = [move for move in state["legal_moves"] if "x" not in move] or state["legal_moves"]
            *cpu, state = move(long_id, long_seats[state["turn"]], chooser.choice(quiet), state)
            late.append(cpu)
        print(f"{'':<44}{'move':>9}{'validate':>10}")
        for label, pairs in (
            ("chess, e4 (a new game)", first),
            (f"chess, quiet endgame (to ply {state['ply']})", late[-20:]),
        ):
            moved, validated = (statistics.median(cpu[index] for cpu in pairs) for index in (0, 1))
            print(f"{label:<44}{moved * 1e3:7.2f}ms{validated * 1e3:8.2f}ms{moved / validated:6.1f}x")
        print(
            "Each move on the instance that created the game or served the last move (2 DynamoDB calls; section"
            " length has an instance that reads the head too). Round one measured 53x at ply 90."
        )
    store.reset_clients()


def _worst_head_size(store) -> int:
    """The largest head of a chess game the games function can write: every field at its longest, and the
    fifty-move rule's 99 earlier repetition keys (a draughts game with the repetition rule keeps 25 B per
    position since the last irreversible move, bounded by the 1,000-ply limit)."""
    from games.domain import GameHead, PlayedMove, Seat
    from games.repository.codec import head_record

    from shared_rules import Snapshot

    name = "Ŵ" * 24
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 99 100"
    seat = Seat("x" * 12, b"x" * 32, name)
    last = PlayedMove(99_998, "white", "Qxh8+", "h1h8", fen)
    head = GameHead(
        id="x" * 12,
        game="chess",
        options={"days_per_move": 14, "swap_colors": False},
        seq=999_999,
        ply=99_999,
        state="active",
        turn="white",
        result="ongoing",
        reason=None,
        white=seat,
        black=seat,
        snapshot=Snapshot(fen, 99_999, b"k" * 8 * 99),
        created=4_102_444_800_000,
        updated=4_102_444_800_000,
        last_moves=(last, last),
        deadline=4_102_444_800_000,
        draw_offer="white",
        rematch="x" * 12,
        rematch_of="x" * 12,
        max_plies=100_000,
        start_fen=fen,  # a game from a position of its own
    )
    record = head_record(head)
    return store.item_size({**record, "pk": record.pop("id"), "sk": "H"})
