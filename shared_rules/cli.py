"""The ``ubao`` command: legal moves, perft and playing moves from the shell.

Bad input is one line on stderr naming what is wrong, and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, NoReturn

from . import GAME_NAMES, Position, RulesError, get_game, option_specs

if TYPE_CHECKING:
    from .search.ladder import GameOutcome

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, not a usage dump
        self.exit(EXIT_BAD_INPUT, f"ubao: {message} (see 'ubao --help')\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ubao",
        description="ubao's rules layer from the shell: chess, English draughts and Tanzanian draughts.",
        epilog="Examples: ubao moves english | ubao perft tanzanian 8 | ubao play chess e4 e5 Nf3 | "
        "ubao engine chess --level 3 | ubao match english --levels 2 1 --games 10",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    def add_common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("game", metavar="GAME", help=f"one of: {', '.join(GAME_NAMES)}")
        sub.add_argument("--fen", help="start from this position instead of the initial one")
        sub.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a table option, e.g. mandatory_capture=false or move_limit=80 (repeatable)",
        )

    moves = commands.add_parser("moves", help="list the legal moves, one per line")
    add_common(moves)
    perft = commands.add_parser("perft", help="count the leaf nodes of the move tree to DEPTH")
    add_common(perft)
    perft.add_argument("depth", metavar="DEPTH", type=int)
    perft.add_argument("--divide", action="store_true", help="also print the count below each move")
    play = commands.add_parser("play", help="play moves in order and print the result as JSON")
    add_common(play)
    play.add_argument("moves", metavar="MOVE", nargs="*")
    engine = commands.add_parser("engine", help="the computer's move and its evaluation")
    add_common(engine)
    engine.add_argument("--level", type=int, default=5, choices=range(1, 6), metavar="N", help="1 (weakest) to 5")
    engine.add_argument("--seed", type=int, default=0, help="the weak levels' randomness (same seed, same move)")
    match = commands.add_parser("match", help="play levels against each other and print the score")
    match.add_argument("game", metavar="GAME", help=f"one of: {', '.join(GAME_NAMES)}")
    match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a table option")
    match.add_argument(
        "--levels",
        type=int,
        nargs=2,
        required=True,
        metavar=("A", "B"),
        help="the two levels, 1 to 5 (0: a random mover)",
    )
    match.add_argument("--games", type=int, default=10, metavar="N", help="games to play (colours alternate)")
    match.add_argument("--seed", type=int, default=0, help="which openings and random choices")
    match.add_argument("--workers", type=int, default=1, metavar="N", help="processes playing games at once")
    match.add_argument("--verbose", action="store_true", help="print every game's result and moves")
    return parser


def _options(game: str, pairs: list[str]) -> dict[str, object]:
    """Options from KEY=VALUE words, read as their option's type (the rules layer itself takes no text)."""
    specs = {spec.name: spec for spec in option_specs(game)}
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RulesError(f"option {pair!r} must be written KEY=VALUE")
        spec = specs.get(key.strip())
        options[key.strip()] = spec.from_text(value) if spec else value.strip()
    return options


def _position(args: argparse.Namespace) -> Position[object]:
    game = get_game(args.game, _options(args.game, args.option))
    return game.from_fen(args.fen) if args.fen else game.start()


def _cmd_moves(args: argparse.Namespace) -> None:
    for notation in _position(args).legal_notations():
        print(notation)


def _cmd_perft(args: argparse.Namespace) -> None:
    from .perft import perft

    if args.depth < 0:
        raise RulesError("DEPTH must be 0 or more")
    position = _position(args)
    started = time.perf_counter()
    if args.divide and args.depth > 0:
        total = 0
        for move in position.legal_moves():
            count = perft(position._after(move), args.depth - 1)
            total += count
            print(f"{position.notation(move)}: {count}")
    else:
        total = perft(position, args.depth)
    elapsed = time.perf_counter() - started
    print(f"depth {args.depth} in {elapsed:.2f} s ({total / max(elapsed, 1e-9):,.0f} leaves/s)", file=sys.stderr)
    print(total)


def _cmd_play(args: argparse.Namespace) -> None:
    game = get_game(args.game, _options(args.game, args.option))
    position = game.replay(args.moves, fen=args.fen)
    print(
        json.dumps(
            {
                "fen": position.fen(),
                "status": position.status().as_dict(),
                "legal_moves": position.legal_notations(),
            },
            ensure_ascii=False,
        )
    )


def _cmd_engine(args: argparse.Namespace) -> None:
    from .search.levels import choose_move

    position = _position(args)
    if position.status().is_over:
        raise RulesError(f"the game is over ({position.status().reason}): there is no move to choose")
    choice = choose_move(position.game, position, args.level, seed=args.seed)
    print(f"{choice.notation} {choice.describe()}")
    print(
        f"level {choice.level}, depth {choice.depth}, {choice.nodes} nodes, line: {' '.join(choice.pv)}",
        file=sys.stderr,
    )


def _cmd_match(args: argparse.Namespace) -> None:
    from .search.ladder import RANDOM, match
    from .search.levels import LEVELS

    if any(level not in (RANDOM, *LEVELS) for level in args.levels):
        raise RulesError("--levels must be two numbers from 1 to 5 (0 for a random mover)")
    if args.games < 1:
        raise RulesError("--games must be 1 or more")
    if args.workers < 1:
        raise RulesError("--workers must be 1 or more")
    game = get_game(args.game, _options(args.game, args.option))

    def report(outcome: GameOutcome) -> None:
        if args.verbose:
            print(
                f"game {outcome.task.number + 1}: {outcome.result} ({outcome.ended_by}) in {len(outcome.moves)} "
                f"plies: {' '.join(outcome.moves)}",
                file=sys.stderr,
            )

    score = match(
        game, args.levels[0], args.levels[1], args.games, seed=args.seed, workers=args.workers, on_game=report
    )
    print(score.line())


COMMANDS = {"moves": _cmd_moves, "perft": _cmd_perft, "play": _cmd_play, "engine": _cmd_engine, "match": _cmd_match}


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    # Options may come after the moves (ubao play english 9-13 --option move_limit=4 22-18).
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command != "play" or any(item.startswith("-") for item in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.moves += extra
    try:
        COMMANDS[args.command](args)
    except RulesError as error:
        print(f"ubao: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("ubao: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
