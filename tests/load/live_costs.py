"""What a live table costs deployed, over the live socket against polling, in the model of docs/capacity.md
(``tests/load/costs.py``: its prices and its price of a request).

A table is 10 minutes and 40 plies (the model's live table), with its two players and ``watchers`` more pages.

* **Polling**: each page reads the game every second, 600 polls in 10 minutes (``live poll, 304``).
* **The socket**: each page asks a ticket (an HTTP request), opens one connection (``$connect``: the ticket's
  conditional delete, a slot of the player and one of the address, the connection item), subscribes (the
  connection read, the game read twice, the follower and the connection written, one message in and one out),
  and closes (``$disconnect``: the connection read, the follower, the slots and the connection deleted); it is
  connected 10 minutes. Each of the table's events goes out in one fan-out invocation: one consistent Query
  of the followers and one read of the game, then one message to each page. A page also reads the game once
  when a turn's time is up: not counted (a table where moves come in time has none).

DynamoDB calls are counted from ``functions/live`` (each item under 1 KB: one unit a write, one a strongly
consistent read of up to 4 KB). The functions' CPU times are estimates (not yet measured deployed): a few
milliseconds each at 512 MB, the fan-out's the largest (it renders the game as a GET does).
"""

from __future__ import annotations

from tests.load.costs import LOG_KB_PER_REQUEST, PRICES, request_usd, wall_ms

MINUTES = 10
EVENTS = 42  # 40 plies, the join and the end
#: API Gateway WebSocket: $1.00 a million messages (32 KB each, the first billion), $0.25 a million connection
#: minutes (awsforengineers.com, "AWS API Gateway pricing explained", May 2025; aws.amazon.com/api-gateway/pricing)
MESSAGE_USD = 1.00 / 1e6
CONNECTION_MINUTE_USD = 0.25 / 1e6
SOCKET_MB = 512
#: (CPU ms estimated, DynamoDB calls, read units, write units) of each invocation of the live functions.
INVOCATIONS = {
    "ticket": (4.0, 1, 0, 1),  # PutItem of the ticket (plus the tickets' token bucket: 1 read, 1 write)
    "connect": (5.0, 5, 2, 4),  # DeleteItem ticket; Query + PutItem a slot, twice; PutItem connection
    "subscribe": (12.0, 5, 5, 2),  # GetItem connection; the game (Query) twice; PutItem follower, connection
    "disconnect": (4.0, 5, 1, 4),  # GetItem connection; DeleteItem follower, two slots, connection
    "fanout": (15.0, 2, 3, 0),  # per event of a followed game: Query followers (consistent), the game
}


def invocation_usd(name: str, memory_mb: int = SOCKET_MB) -> float:
    cpu_ms, calls, rru, wru = INVOCATIONS[name]
    wall = wall_ms(cpu_ms, memory_mb, calls)
    return (
        PRICES["lambda_request"]
        + memory_mb / 1024 * wall / 1000 * PRICES["lambda_gb_second_arm"]
        + rru * PRICES["dynamodb_rru"]
        + wru * PRICES["dynamodb_wru"]
        + LOG_KB_PER_REQUEST / 1024 / 1024 * PRICES["logs_ingested_gb"]
    )


def ticket_usd() -> float:
    """The ticket's HTTP request: API Gateway, CloudFront's request, the function and its rate bucket."""
    bucket = PRICES["dynamodb_rru"] + PRICES["dynamodb_wru"]
    return invocation_usd("ticket") + PRICES["http_api_request"] + PRICES["cloudfront_request"] + bucket


def socket_table(watchers: int = 0) -> dict[str, float]:
    """The socket's cost of one table, by part, and its counts."""
    pages = 2 + watchers
    per_page = ticket_usd() + sum(invocation_usd(name) for name in ("connect", "subscribe", "disconnect"))
    return {
        "pages": pages,
        "messages": EVENTS * pages + 2 * pages,  # each event to each page; each subscription's message and reply
        "connection_minutes": MINUTES * pages,
        "connections_usd": pages * per_page,
        "messages_usd": (EVENTS * pages + 2 * pages) * MESSAGE_USD,
        "minutes_usd": MINUTES * pages * CONNECTION_MINUTE_USD,
        "fanout_usd": EVENTS * invocation_usd("fanout"),
    }


def socket_table_usd(watchers: int = 0) -> float:
    parts = socket_table(watchers)
    return sum(value for name, value in parts.items() if name.endswith("_usd"))


def polling_table_usd(watchers: int = 0) -> float:
    """Polling's cost of the same table: every page's 600 polls (the moves themselves cost the same both ways)."""
    return (2 + watchers) * MINUTES * 60 * request_usd("GET /v1/games/{id} (live poll, 304)")


def report() -> None:
    print("  a 10-minute live table (40 plies) in docs/capacity.md's model, per 1,000 tables:")
    for watchers in (0, 20):
        parts = socket_table(watchers)
        socket, polling = socket_table_usd(watchers) * 1000, polling_table_usd(watchers) * 1000
        print(
            f"    {2 + watchers:2} pages: socket ${socket:.2f} ({parts['messages']:.0f} messages, "
            f"{parts['connection_minutes']:.0f} connection-minutes a table) against polling ${polling:.2f} "
            f"({(2 + watchers) * MINUTES * 60} polls): {socket / polling:.3f} of it (goal: at most 0.1)"
        )


if __name__ == "__main__":
    report()
