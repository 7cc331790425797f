"""What every DynamoDB repository shares besides its requests: the table it is on, and an item's key.

A repository names its table where it is declared: ``class DynamoPlayers(DynamoTable, env="PLAYERS_TABLE",
default="PlayersTable")``. Its ``table`` is the one given (a test's), else the name in that environment
variable (``template.yaml`` sets it with ``!Ref``), else the table's logical name (the local runner's).
"""

from __future__ import annotations

import os
from typing import Any, ClassVar


class DynamoTable:
    """A repository on one DynamoDB table (``table``)."""

    env: ClassVar[str] = ""
    default: ClassVar[str] = ""

    def __init_subclass__(cls, *, env: str | None = None, default: str | None = None, **options: Any) -> None:
        super().__init_subclass__(**options)
        if env is not None:
            cls.env = env
        if default is not None:
            cls.default = default

    def __init__(self, table: str | None = None) -> None:
        self.table = table or self.table_name()

    @classmethod
    def table_name(cls) -> str:
        """The table's name when none is given: the environment's, else its logical name."""
        return os.environ.get(cls.env) or cls.default


def item_key(pk: str, sk: str) -> dict[str, Any]:
    """The key of an item in a table keyed ``pk`` and ``sk`` (both strings)."""
    return {"pk": {"S": pk}, "sk": {"S": sk}}
