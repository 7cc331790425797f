"""The country codes the API takes (``common.players.domain.COUNTRIES``) are ISO 3166-1 alpha-2's assigned codes, as
the tz database lists them, and XK (Kosovo, which CloudFront gives)."""

from __future__ import annotations

from pathlib import Path

import pytest
from common.players.domain import COUNTRIES, InvalidCountry, country_code, viewer_country

ISO3166_TAB = Path("/usr/share/zoneinfo/iso3166.tab")


@pytest.mark.skipif(not ISO3166_TAB.is_file(), reason="no tz database on this machine")
def test_the_codes_are_iso_3166_alpha_2_as_the_tz_database_lists_them():
    lines = ISO3166_TAB.read_text(encoding="utf-8").splitlines()
    listed = {line.split("\t")[0] for line in lines if line and not line.startswith("#")}
    assert len(listed) == 249 and listed | {"XK"} == COUNTRIES


@pytest.mark.parametrize("value", ["tz", "TZA", "XX", "", " TZ", "T1"])
def test_anything_else_is_refused_with_its_code(value):
    with pytest.raises(InvalidCountry) as refused:
        country_code(value)
    assert refused.value.code == "invalid_country" and "ISO 3166-1 alpha-2" in str(refused.value)
    assert viewer_country(value) is None or value.strip() in COUNTRIES


def test_a_country_is_taken_as_written():
    assert [country_code(code) for code in ("TZ", "KE", "PH", "XK")] == ["TZ", "KE", "PH", "XK"]
    assert viewer_country(" PH ") == "PH"
