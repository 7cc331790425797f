"""The privacy page tells the truth: every attribute the code stores, in every table of template.yaml, is named
on the page (in each language), found by walking through everything a player can do (``tour.walk``) on moto and
scanning the tables. And the check is a real one: an attribute planted in a table is reported."""

from __future__ import annotations

import re
from html import unescape

import pytest

from local.dynamodb import table_definitions
from local.template import Template
from tests.browser.harness import build_site_module
from tests.clocks import ManualClock
from tests.fixtures import on_clock
from tests.privacy.tour import stored_attributes, walk

SECTION = re.compile(r'<section[^>]*data-table="(?P<table>\w+)"[^>]*>(?P<body>.*?)</section>', re.S)
NAMED = re.compile(r'<code class="attribute">([^<]+)</code>')


def named_on_page(html: str) -> dict[str, set[str]]:
    """The attributes the page names, by table (each table is a section with its attributes as code)."""
    return {m["table"]: {unescape(name) for name in NAMED.findall(m["body"])} for m in SECTION.finditer(html)}


def unnamed(stored: dict[str, set[str]], named: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(table, attribute) pairs stored but not named on the page."""
    return {(table, name) for table, names in stored.items() for name in names - named.get(table, set())}


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    build_site_module()  # puts site/ on the path
    from catalogs import LANGS
    from page_builder import Builder
    from pages import PAGES_BY_KEY

    builder = Builder()
    return {lang: builder.render(PAGES_BY_KEY["faragha"], lang) for lang in LANGS}


@pytest.fixture
def tables(moto_tables, local_push) -> list[str]:
    """The template's tables on moto, the functions pointed at them, local push mode; the tables' names."""
    return [table["TableName"] for table in moto_tables]


@pytest.fixture
def stored(tables) -> dict[str, set[str]]:
    from games import handler as games
    from push import handler as push
    from puzzles_api import handler as puzzles

    from tests.fixtures import Function

    overrides = on_clock(ManualClock())
    community = _community_handler(overrides)
    walk(Function(games, overrides), Function(puzzles, overrides), Function(push, overrides), community)
    return stored_attributes(tables)


def _community_handler(overrides):
    try:
        from community import handler  # the community unit (issue 42), once it has landed
    except ImportError:
        return None
    from tests.fixtures import Function

    return Function(handler, overrides)


def declared_attributes() -> dict[str, set[str]]:
    """Each table's attributes that template.yaml names: keys, index keys and the TTL attribute."""
    declared: dict[str, set[str]] = {}
    for name, resource in Template().resources.items():
        if resource.get("Type") != "AWS::DynamoDB::Table":
            continue
        properties = resource["Properties"]
        names = {attribute["AttributeName"] for attribute in properties.get("AttributeDefinitions", [])}
        ttl = properties.get("TimeToLiveSpecification")
        declared[name] = names | ({ttl["AttributeName"]} if ttl else set())
    return declared


def test_every_table_and_its_declared_attributes_are_on_the_page_in_every_language(pages):
    declared = declared_attributes()
    assert set(declared) == {definition["TableName"] for definition in table_definitions(Template())}
    for lang, html in pages.items():
        named = named_on_page(html)
        assert set(named) == set(declared), lang
        assert unnamed(declared, named) == set(), lang


def test_every_stored_attribute_is_named_on_the_page(stored, pages):
    assert set(stored) == {definition["TableName"] for definition in table_definitions(Template())}, (
        "a table the tour leaves empty: add its part to tests/privacy/tour.py"
    )
    for lang, html in pages.items():
        assert unnamed(stored, named_on_page(html)) == set(), lang


def test_a_planted_attribute_is_reported(stored, pages):
    from common.persistence import store

    store.client().put_item(
        TableName="PlayersTable", Item={"token_hash": {"S": "planted"}, "phone_number": {"S": "+255700000000"}}
    )
    planted = stored_attributes(["PlayersTable"])
    assert unnamed(planted, named_on_page(pages["sw"])) == {("PlayersTable", "phone_number")}
