"""The rules page's values and refusals: plain types, no HTTP (``common.web.errors`` maps the codes)."""

from __future__ import annotations

from dataclasses import dataclass

from common.errors import DomainError


class UnsupportedLanguage(DomainError, code="unsupported_language"): ...


class UnknownRulesPage(DomainError, code="not_found"): ...


@dataclass(frozen=True)
class RulesPage:
    lang: str
    html: str
    etag: str
