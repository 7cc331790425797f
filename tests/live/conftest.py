"""What the live socket's tests share beside tests/fixtures.py's tables (moto, dynalite; LIVE_TABLE among them)."""

from __future__ import annotations


def use_live_table(request, monkeypatch, backend: str) -> None:
    """The live table on moto or on a real dynalite server (under the name the tables got)."""
    tables = request.getfixturevalue("moto_tables" if backend == "moto" else "dynalite_tables")
    (live,) = [table["TableName"] for table in tables if table["TableName"].startswith("LiveTable")]
    monkeypatch.setenv("LIVE_TABLE", live)
