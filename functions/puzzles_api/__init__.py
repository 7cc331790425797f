"""PuzzlesFunction: the daily puzzle, puzzles, attempts checked on the server, and puzzle progress (docs/puzzles.md)."""
