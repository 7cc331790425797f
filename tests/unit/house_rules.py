"""The house rules (CONTRIBUTING.md, "House rules"), as checks over source text: each returns what breaks a
rule, so ``test_house_rules.py`` runs it on the tree (nothing found) and on a planted violation (found).

- ``long_files``: no tracked Python or JavaScript file over ``MAX_LINES`` lines;
- ``module_state``: no module-level mutable state and no ``configure()`` in ``functions/``;
- ``store_calls``: DynamoDB requests only in repository and persistence modules;
- ``unit_cycles``: no import cycle between units (a function's package, or a part of ``functions/common/``).
"""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = ROOT / "functions"
MAX_LINES = 450
SOURCE_SUFFIXES = (".py", ".js", ".mjs")

#: Calls on a container that change it.
MUTATORS = frozenset(
    {"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault", "add", "discard"}
    | {"appendleft", "extendleft", "sort", "reverse", "__setitem__", "__delitem__"}
)
#: Constructors of mutable containers.
CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter", "bytearray"})
#: Module-level state the rule allows, each for its reason (``path:name`` as ``module_state`` names what it finds;
#: the path may be a pattern). None of it
#: changes what any call answers: the SDK's clients (one per process, as Lambda advises), a registration the
#: runtime keeps per process, and memos of pure functions (a hit answers what a miss computes).
ALLOWED_STATE = {
    "common/persistence/*.py:_clients": "the AWS SDK's clients (DynamoDB, SQS, API Gateway), one per endpoint",
    "common/persistence/store.py:global _session": "the boto3 session the clients share (its model loaded once)",
    "common/web/snapstart.py:global _registered": "SnapStart's hooks, registered in the runtime once per process",
    "games/domain/positions.py:_POSITIONS": "a memo of restored positions, by game, options and snapshot",
    "games/domain/positions.py:global _LAST_PLAYED": "a memo of the last move played, by position and notation",
}
#: First-party classes whose module-level instance is the function's resolver (Powertools' ``app``).
RESOLVERS = frozenset({"Api"})
#: The operations of the DynamoDB client, as botocore names them and as ``common.persistence.store`` takes them.
DYNAMODB_OPERATIONS = frozenset(
    {"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem"}
    | {"TransactGetItems", "TransactWriteItems", "ExecuteStatement", "BatchExecuteStatement"}
)
SNAKE_OPERATIONS = frozenset(
    {"get_item", "put_item", "update_item", "delete_item", "query", "scan", "batch_get_item", "batch_write_item"}
    | {"transact_get_items", "transact_write_items", "execute_statement", "batch_execute_statement"}
)
#: ``common.persistence.store``'s senders: each takes one request to the table.
STORE_SENDERS = frozenset({"call", "read", "query_all", "put_new"})


def tracked_sources(root: Path = ROOT) -> list[Path]:
    """Every Python and JavaScript file git tracks (tests and tools included)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", *(f"*{suffix}" for suffix in SOURCE_SUFFIXES)],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [root / name for name in listed.split("\0") if name and (root / name).is_file()]


def long_files(paths: Iterable[Path], limit: int = MAX_LINES) -> dict[str, int]:
    """The files over ``limit`` lines, with their length."""
    found = {}
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found[str(path)] = lines
    return found


@cache
def function_modules(root: Path = FUNCTIONS) -> dict[str, ast.Module]:
    """Every module of ``functions/``, parsed, by its path relative to ``root`` (``games/handler/__init__.py``)."""
    return {str(path.relative_to(root)): ast.parse(path.read_text(encoding="utf-8")) for path in root.rglob("*.py")}


# ------------------------------------------------------------------------------------------ module state
def module_state(modules: Mapping[str, ast.Module]) -> list[str]:
    """``path:name`` of each module-level mutable value, ``global`` statement and ``configure`` function."""
    stateful = _stateful_classes(modules)
    found: list[str] = []
    for path, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                found += [
                    f"{path}:global {name}" for name in node.names if f"{path}:global {name}" not in ALLOWED_STATE
                ]
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name == "configure":
                found.append(f"{path}:configure()")
        mutated = _mutated_names(tree)
        for name, value in _module_bindings(tree):
            if allowed(f"{path}:{name}"):
                continue
            if (
                _is_container(value)
                and name in mutated
                or isinstance(value, ast.Call)
                and _called_name(value) in stateful
            ):
                found.append(f"{path}:{name}")
    return found


def allowed(finding: str) -> bool:
    return any(fnmatch(finding, pattern) for pattern in ALLOWED_STATE)


def _module_bindings(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    yield target.id, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value and isinstance(statement.target, ast.Name):
            yield statement.target.id, statement.value


def _is_container(value: ast.expr) -> bool:
    displays = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
    return isinstance(value, displays) or (isinstance(value, ast.Call) and _called_name(value) in CONTAINERS)


def _called_name(call: ast.Call) -> str | None:
    function = call.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _mutated_names(tree: ast.AST) -> set[str]:
    """Names changed in place anywhere in ``tree``: ``x[k] = v``, ``del x[k]``, ``x[k] += v``, ``x.append(v)``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        for target in targets:
            if isinstance(target, ast.Subscript | ast.Attribute):
                name = _root_name(target)
                if name is not None:
                    names.add(name)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            name = _root_name(node.func.value)
            if name is not None:
                names.add(name)
    return names


def _stateful_classes(modules: Mapping[str, ast.Module]) -> set[str]:
    """First-party classes whose instances change after they are made (a method other than ``__init__`` sets
    or changes an attribute of ``self``), with their subclasses; the resolvers (``RESOLVERS``) are not."""
    bases: dict[str, set[str]] = {}
    changes: set[str] = set()
    for tree in modules.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases[node.name] = {base.id for base in node.bases if isinstance(base, ast.Name)}
            for method in node.body:
                after_init = isinstance(method, ast.FunctionDef) and method.name not in ("__init__", "__post_init__")
                if after_init and "self" in _mutated_names(method):
                    changes.add(node.name)
    resolvers = {name for name in bases if _inherits(name, RESOLVERS, bases)}
    return {name for name in bases if _inherits(name, changes, bases)} - resolvers


def _inherits(name: str, among: Iterable[str], bases: Mapping[str, set[str]]) -> bool:
    wanted, seen, pending = set(among), set(), [name]
    while pending:
        current = pending.pop()
        if current in wanted:
            return True
        if current not in seen:
            seen.add(current)
            pending += list(bases.get(current, ()))
    return False


# ------------------------------------------------------------------------------------------ store calls
def is_storage_module(path: str) -> bool:
    """A repository (``repository.py``, or a module of a ``repository/`` package) or ``common/persistence/``."""
    parts = Path(path).parts
    return parts[-1] == "repository.py" or "repository" in parts[:-1] or parts[:2] == ("common", "persistence")


def store_calls(modules: Mapping[str, ast.Module]) -> list[str]:
    """``path:line`` of each DynamoDB request made outside the repository and persistence modules: a call of
    ``common.persistence.store``'s senders, or of a client's operation."""
    found = []
    for path, tree in modules.items():
        if is_storage_module(path):
            continue
        senders = _imported_senders(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_store_call(node, senders):
                found.append(f"{path}:{node.lineno}")
    return found


def _imported_senders(tree: ast.Module) -> set[str]:
    """The local names of ``store``'s senders (``from common.persistence.store import call``) and of the store
    module itself (``from common.persistence import store``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "common.persistence.store":
            names |= {alias.asname or alias.name for alias in node.names if alias.name in STORE_SENDERS}
        if isinstance(node, ast.ImportFrom) and node.module == "common.persistence":
            names |= {f"module:{alias.asname or alias.name}" for alias in node.names if alias.name == "store"}
    return names


def _is_store_call(call: ast.Call, senders: set[str]) -> bool:
    function = call.func
    if isinstance(function, ast.Name) and function.id in senders:
        return True
    if isinstance(function, ast.Attribute):
        owner = function.value
        if function.attr in STORE_SENDERS and isinstance(owner, ast.Name) and f"module:{owner.id}" in senders:
            return True
        if function.attr in SNAKE_OPERATIONS and isinstance(owner, ast.Call) and _called_name(owner) == "client":
            return True
    first = call.args[0] if call.args else None
    return (
        isinstance(first, ast.Constant)
        and first.value in DYNAMODB_OPERATIONS
        and _called_name(call) in STORE_SENDERS | {"_make_api_call"}
    )


# ------------------------------------------------------------------------------------------ import cycles
def module_imports(modules: Mapping[str, ast.Module]) -> dict[str, set[str]]:
    """Which modules of ``functions/`` each module imports, at its top or inside a function alike. ``from p import
    m`` counts as importing the module ``p.m`` when there is one; a package importing its own submodules (its
    ``__init__`` re-exporting them) is not counted."""
    names = {_module_name(path): tree for path, tree in modules.items()}
    graph: dict[str, set[str]] = {}
    for here, tree in names.items():
        imported = graph.setdefault(here, set())
        for node in ast.walk(tree):
            for there in _imported_modules(node, here, names):
                if there != here and not there.startswith(f"{here}."):
                    imported.add(there)
    return graph


def _imported_modules(node: ast.AST, here: str, known: Mapping[str, object]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        package = here.split(".")[: -node.level] if here in known else []
        base = ".".join([*package, node.module] if node.module else package)
    else:
        base = node.module or ""
    found = []
    for alias in node.names:
        module = f"{base}.{alias.name}"
        found.append(module if module in known else base)
    return [name for name in found if name in known]


def unit_imports(modules: Mapping[str, ast.Module]) -> dict[str, set[str]]:
    """Which units (the top-level packages of ``functions/``: each function's, and ``common``) each imports."""
    graph: dict[str, set[str]] = {}
    for module, imported in module_imports(modules).items():
        here = module.split(".")[0]
        graph.setdefault(here, set()).update(there.split(".")[0] for there in imported)
    for unit, imported in graph.items():
        imported.discard(unit)
    return graph


def _module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first walk finds (each as its nodes in order, the first repeated at the end); none
    when the graph has none."""
    found: list[list[str]] = []
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for there in sorted(graph.get(node, ())):
            if state.get(there) == "open":
                found.append([*path[path.index(there) :], there])
            elif there not in state:
                visit(there)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found
