"""The cost model (tests/load/costs.py) against the template it prices and the page that quotes it."""

from __future__ import annotations

from local.template import ROOT, Template
from tests.load import costs


def test_every_priced_route_is_a_template_route_at_its_functions_memory():
    template = Template()
    memory = {route.key: template.functions[route.function].memory_mb for route in template.routes}
    # A name may say how the route is used after it, in brackets: "GET /v1/games/{id} (live poll, 304)".
    assert {name: route.function_mb for name, route in costs.ROUTES.items()} == {
        name: memory[name.split(" (")[0]] for name in costs.ROUTES
    }
    assert set(costs.MIX) <= set(costs.ROUTES)


def test_the_capacity_page_quotes_the_models_table():
    page = (ROOT / "docs" / "capacity.md").read_text(encoding="utf-8")
    assert costs.table() in page
    assert costs.usage() in page


def test_costs_grow_with_players_once_past_the_free_tiers():
    small, large = (sum(costs.monthly_costs(players).values()) for players in (100_000, 1_000_000))
    assert 9 * small < large < 11 * small
