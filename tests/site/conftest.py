"""The site is built once per test session into a temporary folder; the tests read what was written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
# site/ is not a package (its name would shadow the stdlib's ``site``): import its modules by path.
if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))

import build_site  # noqa: E402

from tests.site.pages import BuiltSite  # noqa: E402

BASE_URL = "https://ubao.test"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> BuiltSite:
    out = tmp_path_factory.mktemp("site") / "build"
    report = build_site.build(out, BASE_URL)
    return BuiltSite(out, BASE_URL, report)
