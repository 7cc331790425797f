"""The SnapStart hooks (common.web.snapstart) with a stand-in for the runtime's ``snapshot_restore_py``."""

from __future__ import annotations

import random
import sys
import types

import pytest
from common.persistence import store
from common.web import snapstart


@pytest.fixture
def runtime(monkeypatch):
    """A fake ``snapshot_restore_py`` that records what is registered, and a fresh registration state."""
    hooks: dict[str, list] = {"before": [], "after": []}
    module = types.ModuleType("snapshot_restore_py")
    module.register_before_snapshot = hooks["before"].append  # type: ignore[attr-defined]
    module.register_after_restore = hooks["after"].append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", module)
    monkeypatch.setattr(snapstart, "_registered", False)
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    yield hooks
    store.reset_clients(session=True)


def test_outside_lambda_nothing_is_registered(monkeypatch):
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", None)  # the import fails, as off Lambda
    assert snapstart.register() is False


def test_the_hooks_are_registered_once(runtime):
    assert snapstart.register() and snapstart.register()
    assert runtime == {"before": [snapstart.before_snapshot], "after": [snapstart.after_restore]}


def test_two_instances_restored_from_one_snapshot_draw_different_numbers(runtime):
    snapstart.register()
    random.seed(29)  # the state every restored instance would start with
    without_hook = random.random()
    random.seed(29)
    runtime["after"][0]()
    assert random.random() != without_hook


def test_a_restored_instance_makes_its_own_client(runtime):
    snapstart.register()
    runtime["before"][0]()
    from_snapshot = store.client()
    runtime["after"][0]()
    assert store.client() is not from_snapshot
