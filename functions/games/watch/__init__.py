"""Tazama: the games being played now, for anyone to follow (``GET /v1/games/live``). A head of an active
public game between two people carries the keys of the sparse index ``GamesOnAir`` (``domain.air_keys``), so
the list is one Query, and every move's head write keeps it current at no extra DynamoDB call."""
