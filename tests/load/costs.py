"""The monthly cost of ubao for 1,000, 100,000 and 1,000,000 daily active players (docs/capacity.md).

    python -m tests.load.costs      prints the tables docs/capacity.md holds (a test checks they agree)

Inputs: what `make load` measured per route (CPU time in the function, DynamoDB calls and the capacity
units DynamoDB reported), the cold starts of `make bench capacity`, the page bytes of `make bench
offline`, the memory sizes of template.yaml, a stated mix of what one player does in a day, and the
prices, each with where it was read and when (PRICES). Everything is arithmetic on those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FULL_VCPU_MB = 1769
#: Wall time per DynamoDB call (a single-digit-millisecond service in the same region): billed, no CPU.
STORE_CALL_MS = 5.0
#: One cold start per this many invocations (AWS: INIT in under 1% of invocations; we take 1 in 200).
INVOCATIONS_PER_COLD_START = 200
#: The busiest hour against the day's mean (evenings in Dar es Salaam and Manila, five hours apart).
PEAK_HOUR_TO_MEAN = 3.0
#: The busiest second against the day's mean, for hot keys (every player told at once that something is out).
BURST_TO_MEAN = 20
DAYS_A_MONTH = 30

#: USD, us-east-1 unless said; read on 2026-12-01 in the stored pages named (the search tool's corpora).
PRICES = {
    "lambda_gb_second_arm": 0.0000133334,  # cloudchipr.com/blog/aws-lambda-pricing; git.mcrn.ar .../lambda-13-cost.md
    "lambda_request": 0.20 / 1e6,  # same sources
    "lambda_free_requests": 1e6,  # a month, always (notes.kodekloud.com/docs/AWS-Lambda/.../Pricing)
    "lambda_free_gb_seconds": 400_000,  # same
    "http_api_request": 1.00
    / 1e6,  # first 300 M a month (docs.aws.amazon.com whitepaper, API Gateway cost optimization)
    "http_api_request_over_300m": 0.90 / 1e6,  # same
    "dynamodb_wru": 0.625
    / 1e6,  # on-demand, after the Nov 2024 cut (airbyte.com/data-engineering-resources/dynamodb-pricing)
    "dynamodb_rru": 0.125 / 1e6,  # same
    "cloudfront_gb_africa": 0.110,  # first 10 TB, South Africa, Kenya, Nigeria, Middle East (aws.amazon.com/cloudfront/pricing)
    "cloudfront_gb_asia": 0.120,  # first 10 TB, Hong Kong, Indonesia, Philippines ... (same page)
    "cloudfront_free_gb": 1024,  # a month, always (same page)
    "cloudfront_request": 0.0100 / 10_000,  # HTTPS, North America (factualminds.com ... cloudfront-pricing); see below
    "cloudfront_free_requests": 10e6,  # a month, always (aws.amazon.com/cloudfront/pricing)
    "logs_ingested_gb": 0.50,  # CloudWatch Logs, standard class (hykell.com, c3x.dev: us-east-1, June 2026)
    "sqs_request": 0.40 / 1e6,  # standard queue (cloudburn.io/blog/amazon-sqs-pricing, March 2026; factualminds.com)
    "sqs_free_requests": 1e6,  # a month, always (same pages; unanswered.io aws-sqs-pricing guide)
}


@dataclass(frozen=True)
class Route:
    """One API route as measured by `make load` (p50 CPU in the function; per request)."""

    function_mb: int
    cpu_ms: float
    calls: float
    rru: float
    wru: float  # reported by DynamoDB, plus the failed conditional writes (billed, unreported locally)
    response_kb: float


#: A rated end's writes beyond a casual end's 2: both players' rating items (about 2 KB each at 100 rated games;
#: 12.7 KB at 1,000) and the leaderboard index's delete and put for each (tests/load/hot_keys.py).
RATED_END_EXTRA_WRU = 2 * 2 + 2 * 2

#: `make load USERS=50 DURATION=60` on 2026-12-01 (warm functions, 1,474 requests, no 5xx): docs/capacity.md.
ROUTES = {
    "GET /v1/games/{id}": Route(1769, 6.64, 1.33, 1.33, 0.0, 0.8),
    "POST /v1/games/{id}/moves": Route(1769, 18.80, 5.43, 0.0, 4.5 + 190 / 205, 1.5),
    "POST /v1/games": Route(1769, 14.88, 4.54, 1.0, 3.54, 1.5),
    "POST /v1/games/{id}/join": Route(1769, 9.61, 3.0, 1.0, 2.0, 1.5),
    "POST /v1/players": Route(1769, 6.57, 2.0, 0.0, 2.0, 0.3),
    "GET /v1/puzzles/daily": Route(1024, 1.99, 0.01, 0.04, 0.0, 0.4),
    "GET /v1/puzzles/next": Route(1024, 15.22, 2.96, 5.79, 0.0, 0.4),
    "POST /v1/puzzles/{id}/attempt": Route(1024, 9.21, 2.55, 1.0, 1.55, 0.3),
    "GET /v1/players/me/puzzles": Route(1024, 6.77, 1.74, 1.0, 0.74, 0.6),
    "POST /v1/validate": Route(1024, 3.02, 0.0, 0.0, 0.0, 0.8),
    # CPU: `python -m tests.bench routes` on 2026-12-02 (the function's own, moto's taken out; validate 4.2 ms in
    # the same run against 3.0 above: a busier machine); calls and units: `make load` on 2026-12-02 (dynalite);
    # a rated end's: tests.bench ratings and the rating item's size (RATED_END_*). "(...)": how it is used.
    "GET /v1/games/{id} (live poll, 304)": Route(1769, 4.58, 1.0, 1.0, 0.0, 0.3),
    "POST /v1/games/{id}/moves (live)": Route(1769, 18.80, 5.43, 0.0, 4.5, 1.5),
    # The seek rows were measured when a seek was an item of its own; a seek is now a waiting game (docs/games.md):
    # an offer writes the game's first event and head (one write more), an accept is a join (one call and one
    # write fewer: `tests.bench lobby`), a withdrawal an event and a head (one write more).
    "POST /v1/seeks": Route(1769, 9.46, 8.33, 2.0, 5.0, 0.8),
    "GET /v1/seeks": Route(1769, 5.43, 2.0, 1.5, 0.0, 3.0),
    "GET /v1/seeks/{id}": Route(1769, 6.30, 2.0, 2.0, 0.0, 0.5),
    "POST /v1/seeks/{id}/accept": Route(1769, 11.24, 4.5, 2.0, 3.5, 1.5),
    "DELETE /v1/seeks/{id}": Route(1769, 6.98, 4.0, 2.0, 2.0, 0.5),
    "GET /v1/players/me": Route(1769, 5.35, 2.0, 1.0, 0.0, 0.5),
    "GET /v1/leaderboard": Route(1769, 4.83, 1.0, 2.5, 0.0, 3.0),
    "POST /v1/games/{id}/resign (rated end)": Route(1769, 11.52, 9.0, 3.0, 2.0 + RATED_END_EXTRA_WRU, 1.5),
    "POST /v1/games/{id}/review": Route(1769, 9.26, 6.0, 3.0, 3.0, 0.3),
    "GET /v1/games/{id}/review": Route(1769, 3.56, 1.0, 1.0, 0.0, 3.0),
}

#: Live tables played per daily player a day, challenges offered, rated games ended (each counted once, for
#: one of its two players), and reviews run (every rated end's, asked by the notify function, and one casual
#: game in twenty's, asked by a player).
LIVE_GAMES = 0.2
SEEK_OFFERS = 0.25
RATED_ENDS = 0.125
REVIEWS = RATED_ENDS + 0.05
#: `make bench review` (docs/engine.md): CPU seconds of a 60-ply review at one full vCPU (1,769 MB), chess and
#: draughts; 60% of the reviewed games are chess (the hot-key model's share).
REVIEW_CPU_SECONDS = 0.6 * 13.6 + 0.4 * 10.0
REVIEW_MB = 1769
#: A review's own DynamoDB units (the pending item, the result of about 7 KB, a personal puzzle or two; the game
#: read) and its SQS requests (send, receive, delete).
REVIEW_WRU, REVIEW_RRU, REVIEW_SQS_REQUESTS = 10.0, 3.0, 3

#: What one daily active player does in a day (the stated mix).
MIX = {
    "GET /v1/games/{id}": 60,  # a game page open five minutes a day, polling every 5 s (15 s on your move)
    "POST /v1/games/{id}/moves": 13,  # 3 correspondence moves and 10 against the computer
    "POST /v1/games": 0.8,  # a new game most days (0.3 correspondence, 0.5 against the computer)
    "POST /v1/games/{id}/join": 0.3,
    "POST /v1/players": 0.05,  # a new phone every 20 days
    "GET /v1/puzzles/daily": 1,
    "GET /v1/puzzles/next": 3,
    "POST /v1/puzzles/{id}/attempt": 8,  # the daily puzzle and three more, two steps each
    "GET /v1/players/me/puzzles": 1,
    "POST /v1/validate": 4,
    # Live tables: one player in five plays one a day, of 40 plies at 15 s a move (10 minutes), polling every
    # second (LIVE_POLL_MS): 600 polls a game, nearly all a 304.
    "GET /v1/games/{id} (live poll, 304)": LIVE_GAMES * 600,
    "POST /v1/games/{id}/moves (live)": LIVE_GAMES * 20,
    # The lobby: "Play anyone" once every other day: one's ratings and the list (again after an offer); half
    # accept a challenge, half offer one and wait about 30 s (5 s polls); one offer in five is withdrawn.
    "GET /v1/players/me": 0.5,
    "GET /v1/seeks": 0.75,
    "POST /v1/seeks": SEEK_OFFERS,
    "POST /v1/seeks/{id}/accept": 0.25,
    "GET /v1/seeks/{id}": SEEK_OFFERS * 6,
    "DELETE /v1/seeks/{id}": SEEK_OFFERS / 5,
    "GET /v1/leaderboard": 0.2,
    # Half of the lobby's games are rated; each end is one request (of one of its two players).
    "POST /v1/games/{id}/resign (rated end)": RATED_ENDS,
    "POST /v1/games/{id}/review": 0.1,
    "GET /v1/games/{id}/review": 0.3,
}
#: `make bench offline`: a first visit of a page (HTML, CSS, scripts; Brotli) and a repeat visit (the worker
#: revalidates the HTML: 304). One page view in eight is a first visit.
PAGE_VIEWS = 8
FIRST_VISIT_KB, FIRST_VISIT_REQUESTS = 20.0, 10
REPEAT_VISIT_KB, REPEAT_VISIT_REQUESTS = 0.7, 2
#: Application log lines per API request (measured on make run) plus Lambda's JSON platform lines and the API
#: access log line.
LOG_KB_PER_REQUEST = 0.6 + 0.5 + 0.25
#: `make bench capacity`: CPU time of a cold start (import the handler), by function memory.
COLD_START_CPU_MS = {1769: 515, 1024: 470}


def wall_ms(cpu_ms: float, memory_mb: int, calls: float) -> float:
    return cpu_ms * FULL_VCPU_MB / min(memory_mb, FULL_VCPU_MB) + calls * STORE_CALL_MS


def per_player_day() -> dict[str, float]:
    """Usage of one daily active player in one day."""
    requests = sum(MIX.values())
    gb_seconds = 0.0
    rru = wru = response_kb = 0.0
    for name, count in MIX.items():
        route = ROUTES[name]
        warm = wall_ms(route.cpu_ms, route.function_mb, route.calls)
        cold = COLD_START_CPU_MS[route.function_mb] * FULL_VCPU_MB / min(route.function_mb, FULL_VCPU_MB)
        gb_seconds += count * route.function_mb / 1024 * (warm + cold / INVOCATIONS_PER_COLD_START) / 1000
        rru, wru, response_kb = (
            rru + count * route.rru,
            wru + count * route.wru,
            response_kb + count * route.response_kb,
        )
    gb_seconds += REVIEWS * review_gb_seconds()
    rru, wru = rru + REVIEWS * REVIEW_RRU, wru + REVIEWS * REVIEW_WRU
    first = PAGE_VIEWS / 8
    page_kb = first * FIRST_VISIT_KB + (PAGE_VIEWS - first) * REPEAT_VISIT_KB
    edge_requests = first * FIRST_VISIT_REQUESTS + (PAGE_VIEWS - first) * REPEAT_VISIT_REQUESTS + requests
    return {
        "api_requests": requests,
        "gb_seconds": gb_seconds,
        "rru": rru,
        "wru": wru,
        "edge_gb": (page_kb + response_kb) / 1024 / 1024,
        "edge_requests": edge_requests,
        "log_gb": requests * LOG_KB_PER_REQUEST / 1024 / 1024,
        "sqs_requests": REVIEWS * REVIEW_SQS_REQUESTS,
    }


def review_gb_seconds() -> float:
    """What one review of a 60-ply game bills: its CPU time at one full vCPU, at the function's memory."""
    return REVIEW_CPU_SECONDS * FULL_VCPU_MB / min(REVIEW_MB, FULL_VCPU_MB) * REVIEW_MB / 1024


def monthly_costs(players: int) -> dict[str, float]:
    """USD a month for ``players`` daily active players, line by line (free tiers that never expire applied)."""
    day = per_player_day()
    month = {name: value * players * DAYS_A_MONTH for name, value in day.items()}
    edge_gb_price = (PRICES["cloudfront_gb_africa"] + PRICES["cloudfront_gb_asia"]) / 2  # half each way
    return {
        "Lambda requests": max(0.0, month["api_requests"] - PRICES["lambda_free_requests"]) * PRICES["lambda_request"],
        "Lambda GB-seconds": max(0.0, month["gb_seconds"] - PRICES["lambda_free_gb_seconds"])
        * PRICES["lambda_gb_second_arm"],
        "API Gateway (HTTP API)": _http_api(month["api_requests"]),
        "DynamoDB reads": month["rru"] * PRICES["dynamodb_rru"],
        "DynamoDB writes": month["wru"] * PRICES["dynamodb_wru"],
        "CloudFront bytes": max(0.0, month["edge_gb"] - PRICES["cloudfront_free_gb"]) * edge_gb_price,
        "CloudFront requests": max(0.0, month["edge_requests"] - PRICES["cloudfront_free_requests"])
        * PRICES["cloudfront_request"],
        "CloudWatch Logs": month["log_gb"] * PRICES["logs_ingested_gb"],
        "SQS (reviews)": max(0.0, month["sqs_requests"] - PRICES["sqs_free_requests"]) * PRICES["sqs_request"],
    }


def peak_concurrency(players: int, function_mb: int) -> float:
    """Lambda instances busy at once in the busiest hour for the routes of the function of ``function_mb``."""
    seconds = 0.0
    for name, count in MIX.items():
        route = ROUTES[name]
        if route.function_mb == function_mb:
            seconds += count * wall_ms(route.cpu_ms, route.function_mb, route.calls) / 1000
    return players * seconds / 86_400 * PEAK_HOUR_TO_MEAN


def peak_route_rate(players: int, route_key: str) -> float:
    """Requests a second in the busiest hour on one template route (what its throttle counts): every use of it."""
    uses = sum(count for name, count in MIX.items() if name.split(" (")[0] == route_key)
    return players * uses / 86_400 * PEAK_HOUR_TO_MEAN


def peak_reviews_running(players: int) -> float:
    """Reviews running at once in the busiest hour (against ReviewFunction's reserved concurrency)."""
    return players * REVIEWS * REVIEW_CPU_SECONDS / 86_400 * PEAK_HOUR_TO_MEAN


def request_usd(name: str) -> float:
    """What one request of ``name`` costs deployed, past the free tiers: API Gateway, Lambda (request and
    duration), DynamoDB, CloudFront's request and bytes, and its log lines."""
    route = ROUTES[name]
    warm = wall_ms(route.cpu_ms, route.function_mb, route.calls)
    edge_gb_price = (PRICES["cloudfront_gb_africa"] + PRICES["cloudfront_gb_asia"]) / 2
    return (
        PRICES["http_api_request"]
        + PRICES["lambda_request"]
        + route.function_mb / 1024 * warm / 1000 * PRICES["lambda_gb_second_arm"]
        + route.rru * PRICES["dynamodb_rru"]
        + route.wru * PRICES["dynamodb_wru"]
        + PRICES["cloudfront_request"]
        + route.response_kb / 1024 / 1024 * edge_gb_price
        + LOG_KB_PER_REQUEST / 1024 / 1024 * PRICES["logs_ingested_gb"]
    )


def live_game_usd() -> float:
    """A live table's 10 minutes: both players' polls (600 each) and its 40 moves."""
    return 2 * 600 * request_usd("GET /v1/games/{id} (live poll, 304)") + 40 * request_usd(
        "POST /v1/games/{id}/moves (live)"
    )


def table(sizes: tuple[int, ...] = (1_000, 100_000, 1_000_000)) -> str:
    costs = {players: monthly_costs(players) for players in sizes}
    lines = ["| USD a month | " + " | ".join(f"{players:,} players" for players in sizes) + " |"]
    lines.append("| --- |" + " ---: |" * len(sizes))
    for line in costs[sizes[0]]:
        lines.append(f"| {line} | " + " | ".join(_usd(costs[players][line]) for players in sizes) + " |")
    lines.append("| **total** | " + " | ".join(f"**{_usd(sum(costs[p].values()))}**" for p in sizes) + " |")
    lines.append("| per player | " + " | ".join(f"{sum(costs[p].values()) / p * 100:.2f} ¢" for p in sizes) + " |")
    return "\n".join(lines)


def usage() -> str:
    day = per_player_day()
    return (
        f"One player a day: {day['api_requests']:.1f} API requests, {day['gb_seconds']:.3f} GB-s, "
        f"{day['rru']:.1f} RRU, {day['wru']:.1f} WRU, {day['edge_gb'] * 1024 * 1024:.0f} KB and "
        f"{day['edge_requests']:.0f} requests at CloudFront, {day['log_gb'] * 1024 * 1024:.0f} KB of logs."
    )


def _http_api(requests: float) -> float:
    first = min(requests, 300e6)
    return first * PRICES["http_api_request"] + (requests - first) * PRICES["http_api_request_over_300m"]


def _usd(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.2f}" if value >= 0.005 else "0"


def main() -> None:
    print(usage())
    print()
    print(table())
    print()
    for players in (1_000, 100_000, 1_000_000):
        games, puzzles = peak_concurrency(players, 1769), peak_concurrency(players, 1024)
        polls = peak_route_rate(players, "GET /v1/games/{id}")
        print(
            f"{players:>9,} players, busiest hour: games {math.ceil(games)} instances, puzzles and validate "
            f"{math.ceil(puzzles)}, reviews {peak_reviews_running(players):,.1f} at once, "
            f"GET /v1/games/{{id}} {polls:,.0f} requests/s"
        )
    poll = request_usd("GET /v1/games/{id} (live poll, 304)")
    print(
        f"\na live poll (304): ${poll * 1e6:.2f} a million; a live table's 10 minutes: ${live_game_usd():.4f}; "
        f"a review: {review_gb_seconds():.1f} GB-s, ${review_gb_seconds() * PRICES['lambda_gb_second_arm']:.5f}"
    )


if __name__ == "__main__":
    main()
