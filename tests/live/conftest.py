"""Fixtures of the live socket's tests: the games tests' tables (moto, dynalite) with LIVE_TABLE among them."""

from __future__ import annotations

from tests.games.conftest import (  # noqa: F401  (fixtures)
    aws_env,
    clock,
    dynalite_server,
    dynalite_tables,
    handler,
    moto_tables,
    template_tables,
)


def use_live_table(request, monkeypatch, backend: str) -> None:
    """The live table on moto or on a real dynalite server (under the name the tables got)."""
    tables = request.getfixturevalue("moto_tables" if backend == "moto" else "dynalite_tables")
    (live,) = [table["TableName"] for table in tables if table["TableName"].startswith("LiveTable")]
    monkeypatch.setenv("LIVE_TABLE", live)
