"""The time zones the API accepts: IANA zone names, without the tz database's aliases for other purposes."""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

#: Not places: the POSIX and leap-second trees, the server's own zone, the POSIX default rules and the
#: placeholder zone. A client that sends them means no particular place, and they make one player's
#: "day" whatever the server's configuration says.
EXCLUDED_PREFIXES = ("posix/", "right/")
EXCLUDED_NAMES = frozenset({"localtime", "posixrules", "Factory"})


@cache
def allowed_zones() -> frozenset[str]:
    return frozenset(
        name for name in available_timezones() if not name.startswith(EXCLUDED_PREFIXES) and name not in EXCLUDED_NAMES
    )


def is_allowed_zone(name: str) -> bool:
    return name in allowed_zones()
