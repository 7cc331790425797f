"""A player's games, newest first, filtered and paged: the history (*Historia ya Michezo*).

Each seated player of a game has one small listing item of it (``domain.Listing``), written beside the head
only when what the history shows of the game changes (a seat taken, the game's end), so a move costs what it
did. The listings carry the keys of the per-player index ``GamesByPlayer`` (docs/games.md, "History").
"""
