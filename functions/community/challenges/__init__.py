"""Direct challenges between friends (docs/community.md, "Direct challenges"): one player offers a game with its
options, the friend accepts (the game is made then, and only then) or declines; an offer lapses after a day."""
