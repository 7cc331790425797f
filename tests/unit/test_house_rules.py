"""The house rules hold on the tree, and each check finds a violation planted in a small tree of its own."""

from __future__ import annotations

import ast
import textwrap
from fnmatch import fnmatch
from pathlib import Path

from tests.unit import house_rules
from tests.unit.house_rules import (
    MAX_LINES,
    cycles,
    function_modules,
    long_files,
    module_imports,
    module_state,
    store_calls,
    tracked_sources,
    unit_imports,
)


def parsed(sources: dict[str, str]) -> dict[str, ast.Module]:
    return {path: ast.parse(textwrap.dedent(text)) for path, text in sources.items()}


# ------------------------------------------------------------------------------------------ file length
def test_no_tracked_python_or_javascript_file_is_over_the_limit() -> None:
    sources = tracked_sources()
    assert any(path.suffix == ".js" for path in sources) and any(path.parts[-2] == "unit" for path in sources)
    assert long_files(sources) == {}


def test_the_length_check_finds_a_file_one_line_over(tmp_path: Path) -> None:
    at_limit, over = tmp_path / "ok.py", tmp_path / "long.js"
    at_limit.write_text("x = 1\n" * MAX_LINES)
    over.write_text("let x = 1;\n" * (MAX_LINES + 1))
    assert long_files([at_limit, over]) == {str(over): MAX_LINES + 1}


# ------------------------------------------------------------------------------------------ module state
def test_no_function_keeps_module_level_state_or_a_configure() -> None:
    assert module_state(function_modules()) == []


def test_every_allowed_piece_of_state_is_still_there() -> None:
    """An allowance outliving its state would hide a new one of the same name."""
    modules = function_modules()
    for allowed in house_rules.ALLOWED_STATE:
        pattern, name = allowed.split(":")
        paths = [path for path in modules if fnmatch(path, pattern)]
        assert paths, allowed
        assert any(name.removeprefix("global ") in ast.unparse(modules[path]) for path in paths), allowed


def test_the_state_check_finds_each_kind_of_planted_state() -> None:
    planted = parsed(
        {
            "notify/stream.py": """
                _state = {}
                def part(name):
                    _state[name] = 1
                def configure(clock=None):
                    _state.clear()
            """,
            "games/counter.py": """
                _count = 0
                def bump():
                    global _count
                    _count += 1
            """,
            "games/cache.py": """
                class Cache:
                    def __init__(self):
                        self.items = {}
                    def keep(self, key, value):
                        self.items[key] = value
                class Exports(Cache):
                    pass
                EXPORTS = Exports()
            """,
            "games/seen.py": """
                SEEN = []
                def see(game):
                    SEEN.append(game)
            """,
        }
    )
    assert sorted(module_state(planted)) == [
        "games/cache.py:EXPORTS",
        "games/counter.py:global _count",
        "games/seen.py:SEEN",
        "notify/stream.py:_state",
        "notify/stream.py:configure()",
    ]


def test_the_state_check_leaves_constants_resolvers_and_frozen_values_alone() -> None:
    clean = parsed(
        {
            "common/web/api.py": """
                class Api:
                    def route(self, rule):
                        self.routes = [rule]
                class FallbackApi(Api):
                    pass
                app = FallbackApi()
            """,
            "games/limits.py": """
                from dataclasses import dataclass
                LIMITS = {"games": 30}
                NAMES = ["a", "b"]
                @dataclass(frozen=True)
                class Limit:
                    capacity: int
                    def doubled(self):
                        return Limit(self.capacity * 2)
                GAMES = Limit(30)
                def local_list():
                    found = []
                    found.append(1)
                    return found
            """,
        }
    )
    assert module_state(clean) == []


# ------------------------------------------------------------------------------------------ store calls
def test_dynamodb_is_called_only_in_repository_and_persistence_modules() -> None:
    assert store_calls(function_modules()) == []


def test_the_store_check_finds_planted_calls_outside_a_repository() -> None:
    sending = """
        from common.persistence.store import call
        from common.persistence import store
        def save(item):
            call("put_item", TableName="T", Item=item)
            store.read("get_item", TableName="T", Key={})
            store.client().query(TableName="T")
    """
    planted = parsed(
        {
            "games/service/__init__.py": sending,
            "common/web/ratelimit.py": sending,
            "games/repository/dynamodb.py": sending,
            "push/repository.py": sending,
            "common/persistence/store.py": sending,
        }
    )
    found = store_calls(planted)
    assert sorted({finding.split(":")[0] for finding in found}) == [
        "common/web/ratelimit.py",
        "games/service/__init__.py",
    ]
    assert len(found) == 6  # three requests in each


# ------------------------------------------------------------------------------------------ import cycles
def test_no_import_cycle_between_units_or_modules() -> None:
    modules = function_modules()
    units = unit_imports(modules)
    assert {"games", "notify", "review", "common"} <= set(units)
    assert units["common"] == set(), "common imports a function's package"
    assert cycles(units) == []
    assert cycles(module_imports(modules)) == []


def test_the_cycle_check_finds_units_and_modules_that_import_each_other() -> None:
    planted = parsed(
        {
            "games/__init__.py": "",
            "games/service.py": "from review.queue import ReviewQueue\n",
            "review/__init__.py": "",
            "review/queue.py": "class ReviewQueue: ...\n",
            "review/handler.py": "def run():\n    from games.service import GamesService\n",  # lazily: still a cycle
            "notify/__init__.py": "",
            "notify/export.py": "from notify import pgn\n",
            "notify/pgn.py": "from notify.export import LINE_WIDTH\n",
        }
    )
    assert cycles(unit_imports(planted)) == [["games", "review", "games"]]
    assert cycles(module_imports(planted)) == [["notify.export", "notify.pgn", "notify.export"]]


def test_a_package_may_import_its_own_modules() -> None:
    planted = parsed(
        {
            "games/domain/__init__.py": "from games.domain.head import GameHead\n",
            "games/domain/head.py": "class GameHead: ...\n",
            "games/domain/errors.py": "from games.domain import GameHead\n",
        }
    )
    assert cycles(module_imports(planted)) == []
