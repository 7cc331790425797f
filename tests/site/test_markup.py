"""The content's small Markdown: a lead line followed by "- " items is a paragraph and a list, everywhere."""

from __future__ import annotations

import re

import build_site

PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S)
# A list item that leaked into running text: " - " between words, or a paragraph that starts with "- ".
LITERAL_ITEM = re.compile(r"(^|[:;.]\s+|\s)-\s+(\*\*|<strong>|\w)")


def test_a_lead_line_and_its_items_are_a_paragraph_and_a_list():
    html = build_site.markup("Allowed only when:\n- one;\n- two.\nAfterwards, a last line.", "en")
    assert html == "<p>Allowed only when:</p>\n<ul><li>one;</li><li>two.</li></ul>\n<p>Afterwards, a last line.</p>"


def test_lines_of_a_paragraph_are_joined_and_blank_lines_start_a_new_block():
    html = build_site.markup("one\ntwo\n\n- a\n- b\n\nthree", "sw")
    assert html == "<p>one two</p>\n<ul><li>a</li><li>b</li></ul>\n<p>three</p>"


def test_a_dash_inside_a_sentence_is_not_an_item():
    assert build_site.markup("Play 11-15 - then wait.", "en") == "<p>Play 11-15 - then wait.</p>"


def test_no_page_has_a_literal_list_marker_in_a_paragraph(built):
    checked = 0
    for path, page in built.pages.items():
        for paragraph in PARAGRAPH.findall(page.html):
            text = re.sub(r"<[^>]+>", "", paragraph)
            assert not LITERAL_ITEM.search(text), (path, text[:120])
            checked += 1
    assert checked > 300  # every page's paragraphs were read


def test_the_check_finds_a_list_rendered_as_a_paragraph():
    broken = "<p>Castling is allowed only when: - neither the king nor that rook has moved; - every square</p>"
    (paragraph,) = PARAGRAPH.findall(broken)
    assert LITERAL_ITEM.search(paragraph)
