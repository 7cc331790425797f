"""DynamoDB's typed attributes to and from plain values (``str``, ``int``, ``float``, ``bool``, ``bytes``,
``None``, ``list``, ``dict``), and the size DynamoDB bills for an item. Floats are written in fixed point
(ratings), so a round trip gives back what went in; boto3's ``TypeSerializer`` would want ``Decimal``.
"""

from __future__ import annotations

from typing import Any


def to_attribute(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, int):
        return {"N": str(value)}
    if isinstance(value, float):
        return {"N": _float_text(value)}
    if isinstance(value, (bytes, bytearray)):
        return {"B": bytes(value)}
    if value is None:
        return {"NULL": True}
    if isinstance(value, dict):
        return {"M": {str(key): to_attribute(item) for key, item in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"L": [to_attribute(item) for item in value]}
    raise TypeError(f"cannot store a {type(value).__name__}")


def _float_text(value: float) -> str:
    """A finite float as DynamoDB's number text: fixed point, 12 decimals at most (ratings need far fewer)."""
    if value != value or value in (float("inf"), float("-inf")):
        raise TypeError("cannot store a NaN or infinite number")
    text = f"{value:.12f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def from_attribute(attribute: dict[str, Any]) -> Any:
    ((kind, value),) = attribute.items()
    if kind == "S":
        return value
    if kind == "N":
        return int(value) if value.lstrip("-").isdigit() else float(value)
    if kind == "BOOL":
        return bool(value)
    if kind == "B":
        return bytes(value)
    if kind == "NULL":
        return None
    if kind == "M":
        return {key: from_attribute(item) for key, item in value.items()}
    if kind == "L":
        return [from_attribute(item) for item in value]
    raise TypeError(f"unexpected DynamoDB type {kind}")


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
