"""docs/architecture.md's table of units and layers ("Every function, layer by layer") is the tree's: every unit
has a column, and every cell says what is there (``yes`` a module, ``package`` a folder, ``-`` nothing)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = ROOT / "functions"
DOC = ROOT / "docs" / "architecture.md"
LAYERS = ("handler", "models", "service", "domain", "repository")
#: Units that are not a function's package: the players, the one part of common built as a unit.
SHARED_UNITS = ("common/players",)


def table(text: str) -> dict[str, dict[str, str]]:
    """The layer table as {unit: {layer: cell}}."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    header = next(line for line in lines if line.startswith("| file | holds |"))
    units = [cell.strip() for cell in header.strip("|").split("|")][2:]
    found: dict[str, dict[str, str]] = {unit: {} for unit in units}
    for line in lines:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        layer = cells[0].strip("`")
        if layer in LAYERS and len(cells) == len(units) + 2:
            for unit, cell in zip(units, cells[2:], strict=True):
                found[unit][layer] = cell
    return found


def on_disk(unit: Path, layer: str) -> str:
    if (unit / layer).is_dir():
        return "package"
    return "yes" if (unit / f"{layer}.py").is_file() else "-"


def units_in_tree(functions: Path = FUNCTIONS) -> list[str]:
    packages = [path.name for path in functions.iterdir() if (path / "__init__.py").is_file() and path.name != "common"]
    return sorted([*packages, *SHARED_UNITS])


def mismatches(documented: dict[str, dict[str, str]], functions: Path = FUNCTIONS) -> list[str]:
    found = [f"{unit}: not in the table" for unit in units_in_tree(functions) if unit not in documented]
    for unit, cells in documented.items():
        if not (functions / unit).is_dir():
            found.append(f"{unit}: in the table, not in functions/")
            continue
        for layer in LAYERS:
            there = on_disk(functions / unit, layer)
            if cells.get(layer) != there:
                found.append(f"{unit}/{layer}: the table says {cells.get(layer)!r}, the tree has {there!r}")
    return found


def test_the_table_lists_every_unit_and_matches_the_tree() -> None:
    assert mismatches(table(DOC.read_text(encoding="utf-8"))) == []


def test_a_stale_table_is_found(tmp_path: Path) -> None:
    for unit in ("games", "push", "new_unit"):
        (tmp_path / unit).mkdir()
        (tmp_path / unit / "__init__.py").write_text("")
    (tmp_path / "games" / "handler").mkdir()
    (tmp_path / "push" / "handler.py").write_text("")
    (tmp_path / "push" / "service.py").write_text("")
    documented = {
        "games": {"handler": "yes", "models": "-", "service": "-", "domain": "-", "repository": "-"},
        "push": {"handler": "yes", "models": "-", "service": "-", "domain": "-", "repository": "-"},
    }
    assert mismatches(documented, tmp_path) == [
        "common/players: not in the table",
        "new_unit: not in the table",
        "games/handler: the table says 'yes', the tree has 'package'",
        "push/service: the table says '-', the tree has 'yes'",
    ]
