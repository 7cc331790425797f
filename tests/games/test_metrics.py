"""The games function's metrics (common/web/metrics.py): CloudWatch embedded-metric lines in its log, one per
request, counting what was stored, never a retry of what already was."""

from __future__ import annotations

import json
import threading


def emitted(capsys) -> dict[str, float]:
    """Sum of each metric over the EMF lines printed since the last call (reason-dimensioned ones by reason)."""
    totals: dict[str, float] = {}
    for line in capsys.readouterr().out.splitlines():
        if not line.startswith('{"_aws"'):
            continue
        document = json.loads(line)
        for directive in document["_aws"]["CloudWatchMetrics"]:
            for metric in directive["Metrics"]:
                name = metric["Name"] + (f":{document['reason']}" if "reason" in document else "")
                totals[name] = totals.get(name, 0) + sum(document[metric["Name"]])
    return totals


def test_a_game_counts_its_creation_moves_and_end_once(api, capsys):
    game_id, seats = api.start_game()
    assert emitted(capsys) == {"GamesCreated": 1}
    api.play(game_id, seats, ["f3", "e5", "g4"])
    retry = api.move(seats["white"], game_id, "g4", 2)  # the same move again: already stored, not counted
    assert retry.status == 200
    assert emitted(capsys) == {"MovesPlayed": 3}
    refused = api.move(seats["black"], game_id, "Ke3", 3)
    assert refused.status == 422
    assert emitted(capsys) == {f"Refusals:{refused.code}": 1}
    api.play(game_id, seats, ["Qh4#"])
    assert emitted(capsys) == {"MovesPlayed": 1, "GamesFinished": 1}
    late = api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"])  # over already: nothing stored
    assert emitted(capsys) == {f"Refusals:{late.code}": 1}


def test_an_invocation_flushes_only_its_own_counts(capsys):
    """The local runner runs the stream's function on a thread beside a request: each flush writes the counts of
    its own invocation, never the other's (a shared set was also iterated by one while the other added to it)."""
    from common.web import metrics

    counted, flushed = threading.Event(), threading.Event()

    def stream_invocation() -> None:
        counted.wait(10)
        metrics.count(metrics.PUSH_SENT)
        metrics.flush()
        flushed.set()

    beside = threading.Thread(target=stream_invocation)
    beside.start()
    metrics.count(metrics.MOVES_PLAYED)  # the request's count, not yet flushed
    counted.set()
    assert flushed.wait(10)
    beside.join()
    assert emitted(capsys) == {"PushSent": 1}
    metrics.flush()  # the request ends
    assert emitted(capsys) == {"MovesPlayed": 1}
