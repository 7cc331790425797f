"""What the help, terms and privacy pages (Msaada, Masharti, Faragha) are built from."""

from __future__ import annotations

import os
from typing import Any

from help_topics import TERMS, TOPICS
from stored_data import STORED_TABLES

#: The AWS region the stack is deployed to (``make deploy``); the privacy page names it.
REGION_VARIABLE = "UBAO_AWS_REGION"
DEFAULT_REGION = "af-south-1 (Cape Town)"


def context(key: str) -> dict[str, Any]:
    if key == "msaada":
        return {"topics": TOPICS}
    if key == "masharti":
        return {"terms": TERMS}
    return {"stored_tables": STORED_TABLES, "region": os.environ.get(REGION_VARIABLE) or DEFAULT_REGION}
