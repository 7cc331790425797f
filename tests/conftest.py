"""Test set-up shared by every test: import paths as Lambda sees them."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Lambda puts each function's code (CodeUri: functions/) at the top of sys.path and the rules
# layer beside it; the tests import them the same way (``import validate_move.handler``).
for path in (ROOT, ROOT / "functions"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
