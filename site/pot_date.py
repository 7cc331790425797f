"""Keep the template's creation date when only the date changed, so `make messages` on strings that did not
change leaves every catalog as it was (pybabel writes the time of each run into the header).

Usage: python site/pot_date.py BEFORE.pot site/locale/messages.pot
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CREATION_DATE = re.compile(r'^"POT-Creation-Date: [^"\n]*"$', re.MULTILINE)


def keep_date(before: str, after: str) -> str:
    """``after``, with ``before``'s creation date where nothing else differs."""
    if CREATION_DATE.sub("", before) == CREATION_DATE.sub("", after):
        return before
    return after


def main(before_path: str, after_path: str) -> None:
    before = Path(before_path)
    after = Path(after_path)
    if before.is_file():
        after.write_text(keep_date(before.read_text(encoding="utf-8"), after.read_text(encoding="utf-8")), "utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
