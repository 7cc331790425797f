"""Test set-up shared by every test: import paths as Lambda sees them."""

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No test asserts a time (speed is measured in `make bench`), and that includes Hypothesis: its per-example
# deadline and its "too slow" health check time the machine, so a busy CI runner
# failed a property that holds. Every property test runs under this profile; each keeps its own examples.
settings.register_profile(
    "ubao",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ubao")

# The functions' tests' fixtures (tables on moto or dynalite, the clock, the games API), seen by every folder.
pytest_plugins = ["tests.fixtures"]

ROOT = Path(__file__).resolve().parent.parent
# Lambda puts each function's code (CodeUri: functions/) at the top of sys.path and the rules
# layer beside it; the tests import them the same way (``import validate_move.handler``).
for path in (ROOT, ROOT / "functions"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` (make test) with the browser tests as one group, so one worker runs them all with one
    local server and one Chromium. Their ``xdist_group`` mark alone no longer reaches the scheduler on pytest
    9.2 (https://github.com/pytest-dev/pytest-xdist/issues/1386), so the group is also named here from the path; elsewhere the mark rules."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Scheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.startswith("tests/browser/") else super()._split_scope(nodeid)

    return Scheduling(config, log)
