"""Game ratings: one Glicko-2 rating per player per game (chess, English, Tanzanian), changed exactly once by
each rated game's end (``service``), kept with its history (``domain``) in the ratings table (``repository``),
and the leaderboards read from that table's index."""
