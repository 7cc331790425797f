"""The open lobby: seeks (open challenges) that any player may accept, making a game with both seats taken."""
