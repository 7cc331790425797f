"""The local runner's feed of game reviews: what ReviewQueue and its event source do on AWS, for ``make run``.

The games function stores an asked-for review as ``pending`` in the reviews table (locally it sends no
message: ``common.reviews.queue.TableFeed``). ``LocalReviews`` looks for pending reviews after each request to the
games function and every few seconds, and runs ReviewFunction for each, one at a time, in a process of its
own (``python -m local.reviews GAME_ID``): a review is seconds of CPU, and the runner's requests go on
meanwhile (the runner runs its functions one at a time, under one lock, in its own process). A review that
fails is tried again on a later look, at most ``MAX_ATTEMPTS`` times, as the dead-letter queue's
``maxReceiveCount`` does on AWS.

    python -m local.reviews GAME_ID      # one review, with the function's environment (the feed runs this)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from local.events import LambdaContext
from local.template import ROOT, Template

if TYPE_CHECKING:  # boto3's stubs (a development dependency)
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import ScanInputTypeDef

FUNCTION = "ReviewFunction"
MAX_ATTEMPTS = 3
POLL_SECONDS_VARIABLE = "REVIEW_POLL_SECONDS"


def sqs_event(game_id: str) -> dict[str, Any]:
    """The event SQS gives the function for one message (the fields the function reads, and a few more)."""
    return {
        "Records": [
            {
                "messageId": f"local-{game_id}",
                "body": json.dumps({"game_id": game_id}),
                "eventSource": "aws:sqs",
                "eventSourceARN": f"arn:aws:sqs:us-east-1:000000000000:{FUNCTION}",
                "attributes": {"ApproximateReceiveCount": "1"},
            }
        ]
    }


def pending_reviews(client: DynamoDBClient, table: str) -> list[str]:
    """The ids of the games whose review is pending (a Scan: the local table is small)."""
    found: list[str] = []
    params: ScanInputTypeDef = {
        "TableName": table,
        "FilterExpression": "sk = :review AND #status = :pending",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {":review": {"S": "review"}, ":pending": {"S": "pending"}},
    }
    while True:
        page = client.scan(**params)
        found += [item["pk"]["S"].removeprefix("game#") for item in page.get("Items", [])]
        if "LastEvaluatedKey" not in page:
            return found
        params["ExclusiveStartKey"] = page["LastEvaluatedKey"]


class LocalReviews:
    """Runs ReviewFunction for each pending review, on a thread of its own, each review in its own process."""

    def __init__(
        self, client: Callable[[], DynamoDBClient], table: str, environment: dict[str, str], poll_seconds: float
    ):
        self.client = client
        self.table = table
        self.environment = environment
        self.poll_seconds = poll_seconds
        self.attempts: dict[str, int] = {}
        self._running: subprocess.Popen[bytes] | None = None  # the review under way, stopped with the runner
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="local-reviews", daemon=True)

    def start(self) -> LocalReviews:
        self._thread.start()
        return self

    def after_request(self, function_name: str, writes: object = None) -> None:
        if function_name == "GamesFunction":
            self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        running = self._running
        if running is not None and running.poll() is None:
            running.terminate()  # the runner leaves no process behind; the review stays pending for next time
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stopped.is_set():
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            try:
                self.feed()
            except Exception:
                traceback.print_exc()

    def feed(self) -> int:
        """Run every pending review not yet tried ``MAX_ATTEMPTS`` times; how many ran."""
        ran = 0
        for game_id in pending_reviews(self.client(), self.table):
            if self._stopped.is_set() or self.attempts.get(game_id, 0) >= MAX_ATTEMPTS:
                continue
            self.attempts[game_id] = self.attempts.get(game_id, 0) + 1
            command = [sys.executable, "-m", "local.reviews", game_id]
            self._running = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **self.environment})
            self._running.wait()
            ran += 1
        return ran


def start_local_reviews(template: Template, extra_environment: dict[str, str]) -> LocalReviews | None:
    """The feed for the runner, or None without a local DynamoDB or a review function in the template."""
    from local.streams import _client

    endpoint = os.environ.get("DYNAMODB_ENDPOINT")
    function = template.functions.get(FUNCTION)
    if not endpoint or function is None:
        return None
    environment = {**function.environment, **extra_environment}
    if not os.access(environment.get("UBAO_STOCKFISH", ""), os.X_OK):
        environment.pop("UBAO_STOCKFISH", None)  # the layer's path on Lambda: here, this machine's stockfish
    table = environment.get("REVIEWS_TABLE", "ReviewsTable")
    poll = float(os.environ.get(POLL_SECONDS_VARIABLE) or 5.0)
    reviews = LocalReviews(lambda: _client(endpoint), table, environment, poll).start()
    print(f"  reviews: pending reviews in {table} run {FUNCTION}, each in its own process", file=sys.stderr, flush=True)
    return reviews


def main(argv: list[str]) -> int:
    """One review: ReviewFunction's handler with an SQS event for ``argv[0]``, as Lambda would run it."""
    function = Template().functions[FUNCTION]
    for path in function.import_paths:
        sys.path.insert(0, str(path))
    from review.handler import lambda_handler

    context = LambdaContext(function_name=FUNCTION, memory_limit_in_mb=function.memory_mb, timeout_seconds=300)
    answer = lambda_handler(sqs_event(argv[0]), context)
    return 1 if answer.get("batchItemFailures") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
