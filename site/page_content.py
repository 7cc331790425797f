"""The rules and lessons of each language and game (site/content/{lang}/{game}.yaml), and the small, safe
subset of Markdown their texts are written in."""

from __future__ import annotations

import re
from functools import cache
from itertools import groupby
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup, escape

CONTENT = Path(__file__).resolve().parent / "content"


@cache
def content(lang: str, game: str) -> dict[str, Any]:
    with (CONTENT / lang / f"{game}.yaml").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.safe_load(handle)
    return loaded


_INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"`(.+?)`"), r"<code>\1</code>"),
]
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def markup(text: str, lang: str) -> Markup:
    """A small, safe subset of Markdown: paragraphs, '- ' lists, **bold**, `code`, [links](/{lang}/...).

    Within a block, each run of "- " lines is a list and each run of other lines a paragraph, so a lead
    line ("Castling is allowed only when:") followed by its items, and a closing line after them, render as
    a paragraph, a list and a paragraph."""
    blocks = re.split(r"\n\s*\n", (text or "").strip())
    out = []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        for is_item, group in groupby(lines, key=lambda line: line.startswith("- ")):
            run = list(group)
            if is_item:
                items = "".join(f"<li>{_inline(line[2:], lang)}</li>" for line in run)
                out.append(f"<ul>{items}</ul>")
            else:
                out.append(f"<p>{_inline(' '.join(run), lang)}</p>")
    return Markup("\n".join(out))


def _inline(text: str, lang: str) -> str:
    result = str(escape(text))
    for pattern, replacement in _INLINE:
        result = pattern.sub(replacement, result)
    return _LINK.sub(lambda m: f'<a href="{m.group(2).replace("{lang}", lang)}">{m.group(1)}</a>', result)
