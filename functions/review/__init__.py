"""The game review: every position of a finished game evaluated by an engine, the mistakes marked, each
player's accuracy, and personal puzzles made from the mistakes (``domain`` the values and judgements,
``engines`` the engines behind one Protocol, ``service`` the review). See docs/engine.md."""
