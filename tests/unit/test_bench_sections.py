"""Every section of ``make bench`` can be run: its module imports and names its function, and the capacity
section's cold starts import each HTTP function's handler as a fresh Lambda interpreter would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.bench import SECTIONS, section
from tests.bench.capacity import FUNCTIONS, cold_start_environment, lambda_layers


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_each_section_imports_and_names_its_function(name: str) -> None:
    assert callable(section(name))


@pytest.mark.slow
def test_each_cold_start_the_capacity_section_measures_imports_its_handler() -> None:
    """The interpreter the section times, from the function's own directory (``tests/puzzles`` once shadowed
    the puzzle sets here: ``ModuleNotFoundError: puzzles.catalog``)."""
    from local.template import Template

    template = Template()
    for name in FUNCTIONS:
        function = template.functions[name]
        with lambda_layers(function) as layer_root:
            env = cold_start_environment(function, layer_root)
            imported = subprocess.run(
                [sys.executable, "-c", f"from {function.module} import {function.attribute}"],
                env=env,
                cwd=function.code_dir,
                capture_output=True,
                text=True,
                timeout=120,
            )
        assert imported.returncode == 0, f"{name}: {imported.stderr[-2000:]}"
