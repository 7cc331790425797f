"""DynamoDB's typed attributes to and from plain values (``str``, ``int``, ``float``, ``bool``, ``bytes``,
``None``, ``list``, ``dict``), with boto3's own ``TypeSerializer`` and ``TypeDeserializer``, and the size
DynamoDB bills for an item. boto3 speaks ``Decimal`` for numbers: a float goes in as fixed point (ratings),
so a round trip gives back what went in; a number comes back as ``int`` when it has no fraction.

boto3 is imported on the first conversion, not at import (it comes with the first store call anyway).
"""

from __future__ import annotations

import copy
from decimal import Decimal
from functools import cache
from typing import Any


def to_attribute(value: Any) -> dict[str, Any]:
    attribute: dict[str, Any] = _serializer().serialize(_for_boto3(value))
    return attribute


def from_attribute(attribute: dict[str, Any]) -> Any:
    return _plain(_deserializer().deserialize(attribute))


@cache
def _serializer() -> Any:
    from boto3.dynamodb.types import TypeSerializer

    return TypeSerializer()


@cache
def _deserializer() -> Any:
    from boto3.dynamodb.types import TypeDeserializer

    return TypeDeserializer()


def _for_boto3(value: Any) -> Any:
    """What ``TypeSerializer`` takes: floats as ``Decimal`` in fixed point, tuples as lists, bytearrays as bytes."""
    if isinstance(value, float):
        return Decimal(_float_text(value))
    if isinstance(value, dict):
        return {str(key): _for_boto3(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_for_boto3(item) for item in value]
    if isinstance(value, bytearray):
        return bytes(value)
    if value is None or isinstance(value, (bool, str, int, bytes)):
        return value
    raise TypeError(f"cannot store a {type(value).__name__}")


def _float_text(value: float) -> str:
    """A finite float as DynamoDB's number text: fixed point, 12 decimals at most (ratings need far fewer)."""
    if value != value or value in (float("inf"), float("-inf")):
        raise TypeError("cannot store a NaN or infinite number")
    text = f"{value:.12f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _plain(value: Any) -> Any:
    """``TypeDeserializer``'s values as plain ones: ``Decimal`` to ``int`` or ``float``, ``Binary`` to bytes."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return int(value) if isinstance(exponent, int) and exponent >= 0 else float(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, (set, frozenset)):
        return {_plain(item) for item in value}
    return bytes(value.value)  # boto3's Binary


def to_item(record: dict[str, Any]) -> dict[str, Any]:
    """An item from a record; ``None`` values are left out (an absent attribute, not a NULL)."""
    return {key: to_attribute(value) for key, value in record.items() if value is not None}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    return {key: from_attribute(value) for key, value in item.items()}


def item_size(record: dict[str, Any]) -> int:
    """The size DynamoDB bills for an item (attribute names plus values), in bytes, by its documented rules."""
    return sum(len(name.encode("utf-8")) + _value_size(value) for name, value in to_item(record).items())


def _value_size(attribute: dict[str, Any]) -> int:
    ((kind, value),) = attribute.items()
    if kind == "S":
        return len(value.encode("utf-8"))
    if kind == "B":
        return len(value)
    if kind == "N":
        digits = value.lstrip("-").replace(".", "").strip("0") or "0"
        return (len(digits) + 1) // 2 + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(name.encode("utf-8")) + _value_size(item) + 1 for name, item in value.items())
    if kind == "L":
        return 3 + sum(_value_size(item) + 1 for item in value)
    raise TypeError(kind)


# -- stored layouts ------------------------------------------------------------------------------------------
#: The attribute every repository writes with the version of its item's layout; items written before it have
#: none (version 0). Each repository reads every item through its own ``upgrade(record)``, which takes the
#: version off (``split_version``) and brings an older layout to the current one: the one place older
#: layouts are read.
SCHEMA_FIELD = "schema_version"

Record = dict[str, Any]


def with_version(record: Record, version: int) -> Record:
    """The record as it is written: its fields and the version of their layout."""
    return {**record, SCHEMA_FIELD: version}


def split_version(record: Record) -> tuple[int, Record]:
    """(the layout version an item was written with, 0 before versions were written; its other fields)."""
    fields = dict(record)
    return int(fields.pop(SCHEMA_FIELD, 0)), fields


def stored_copy(record: Record) -> Record:
    """What DynamoDB keeps of a record (the in-memory repositories keep the same): ``None`` values are absent."""
    return {key: copy.deepcopy(value) for key, value in record.items() if value is not None}
