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
}

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
    }


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
    }


def peak_concurrency(players: int, function_mb: int) -> float:
    """Lambda instances busy at once in the busiest hour for the routes of the function of ``function_mb``."""
    seconds = 0.0
    for name, count in MIX.items():
        route = ROUTES[name]
        if route.function_mb == function_mb:
            seconds += count * wall_ms(route.cpu_ms, route.function_mb, route.calls) / 1000
    return players * seconds / 86_400 * PEAK_HOUR_TO_MEAN


def peak_route_rate(players: int, name: str) -> float:
    return players * MIX[name] / 86_400 * PEAK_HOUR_TO_MEAN


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
            f"{math.ceil(puzzles)}, GET /v1/games/{{id}} {polls:,.0f} requests/s"
        )


if __name__ == "__main__":
    main()
