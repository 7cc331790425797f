"""What every DynamoDB repository shares: the table it is on, an item's key, and the requests written the same
way in each (an ``UpdateItem``, a page of a Query newest first).

A repository names its table where it is declared: ``class DynamoPlayers(DynamoTable, env="PLAYERS_TABLE",
default="PlayersTable")``. Its ``table`` is the one given (a test's), else the name in that environment
variable (``template.yaml`` sets it with ``!Ref``), else the table's logical name (the local runner's).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from common.persistence.store import call, read

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.literals import ReturnValueType
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef, UpdateItemInputTypeDef


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

    def update(
        self,
        key: dict[str, Any],
        expression: str,
        condition: str | None = None,
        *,
        names: Mapping[str, str] | None = None,
        values: Mapping[str, Any] | None = None,
        returns: ReturnValueType | None = None,
    ) -> dict[str, Any] | None:
        """One ``UpdateItem`` of the item at ``key`` (through ``store.call``): DynamoDB's answer, or None when
        ``condition`` failed. ``names`` and ``values`` by placeholder (``{"#p": ...}``, ``{":one": {"N": "1"}}``:
        typed attributes, as every request takes them); ``returns`` DynamoDB's ``ReturnValues`` (``"ALL_NEW"``)."""
        params: UpdateItemInputTypeDef = {"TableName": self.table, "Key": key, "UpdateExpression": expression}
        if condition:
            params["ConditionExpression"] = condition
        if names:
            params["ExpressionAttributeNames"] = dict(names)
        if values:
            params["ExpressionAttributeValues"] = dict(values)
        if returns:
            params["ReturnValues"] = returns
        return call("update_item", **params)


def item_key(pk: str, sk: str) -> dict[str, Any]:
    """The key of an item in a table keyed ``pk`` and ``sk`` (both strings)."""
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def newest_first(params: QueryInputTypeDef, limit: int, start: dict[str, Any] | None) -> dict[str, Any]:
    """One page of the Query ``params``, the highest sort key first: at most ``limit`` items, after ``start`` (the
    key of the last item of the page before, as a list's cursor names it; None: from the top)."""
    page: QueryInputTypeDef = {**params, "ScanIndexForward": False, "Limit": limit}
    if start is not None:
        page["ExclusiveStartKey"] = start
    return read("query", **page)
