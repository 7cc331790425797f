"""The parameters of each DynamoDB operation ubao sends, for mypy: ``store.call("get_item", TableName=...)`` is
checked against ``GetItem``'s parameters as boto3's typed client checks ``client.get_item(TableName=...)``.

The types are boto3's stubs (``mypy-boto3-dynamodb``, a development dependency only): ``store`` imports this
module under ``TYPE_CHECKING`` alone, so none of it runs on Lambda. An operation not listed here is refused by
mypy: add its overload when a repository needs it. The answers stay ``dict[str, Any]``: the repositories read
their items through ``store.from_item``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, Unpack, overload

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import (
        BatchGetItemInputTypeDef,
        DeleteItemInputTypeDef,
        GetItemInputTypeDef,
        PutItemInputTypeDef,
        QueryInputTypeDef,
        ScanInputTypeDef,
        UpdateItemInputTypeDef,
    )

#: An operation's answer, as the client returns it.
Answer = dict[str, Any]
#: What a call answers when its condition fails: ``None`` for ``store.call``; nothing for ``store.read``, which
#: sends no condition (``NoReturn``: its answer is the operation's answer alone).
Failed = TypeVar("Failed", covariant=True)


class Sender(Protocol[Failed]):
    """``sender(operation, **parameters)``: one DynamoDB operation by its client method's name, with that
    method's parameters."""

    @overload
    def __call__(self, operation: Literal["get_item"], /, **params: Unpack[GetItemInputTypeDef]) -> Answer | Failed: ...
    @overload
    def __call__(
        self, operation: Literal["batch_get_item"], /, **params: Unpack[BatchGetItemInputTypeDef]
    ) -> Answer | Failed: ...
    @overload
    def __call__(self, operation: Literal["query"], /, **params: Unpack[QueryInputTypeDef]) -> Answer | Failed: ...
    @overload
    def __call__(self, operation: Literal["scan"], /, **params: Unpack[ScanInputTypeDef]) -> Answer | Failed: ...
    @overload
    def __call__(self, operation: Literal["put_item"], /, **params: Unpack[PutItemInputTypeDef]) -> Answer | Failed: ...
    @overload
    def __call__(
        self, operation: Literal["update_item"], /, **params: Unpack[UpdateItemInputTypeDef]
    ) -> Answer | Failed: ...
    @overload
    def __call__(
        self, operation: Literal["delete_item"], /, **params: Unpack[DeleteItemInputTypeDef]
    ) -> Answer | Failed: ...
