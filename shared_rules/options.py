"""Table options: explicit, typed, validated parameters with the seeds' defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOption


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: type  # bool or int
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def coerce(self, value: Any) -> Any:
        if value is None and self.nullable:
            return None
        if self.kind is bool:
            return _as_bool(self.name, value)
        return self._as_int(value)

    def from_text(self, text: str) -> Any:
        """The value a command line spells (``true``, ``no``, ``80``, ``none``), for ``coerce`` to check."""
        word = text.strip().lower()
        if self.nullable and word in ("none", "null"):
            return None
        if self.kind is bool and word in _BOOL_WORDS:
            return _BOOL_WORDS[word]
        if self.kind is int and word.lstrip("-").isdigit():
            return int(word)
        return text

    def _as_int(self, value: Any) -> int:
        # Strict: an API that read "80" or true as a number would accept what a client did not mean.
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOption(f"option {self.name!r} must be a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOption(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOption(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value


_BOOL_WORDS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False, "on": True, "off": False}


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):  # strict: "yes" or 1 is refused (the command line spells it: ``from_text``)
        return value
    raise InvalidOption(f"option {name!r} must be true or false, not {value!r}")


def validate_options(game: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return every option of ``specs``, defaults filled in; reject unknown names and bad values."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise InvalidOption(f"unknown option {unknown[0]!r} for {game} (allowed: {allowed})")
    return {name: spec.coerce(given[name]) if name in given else spec.default for name, spec in known.items()}
