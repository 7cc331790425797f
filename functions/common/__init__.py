"""What every function shares: the base of every refusal (``common.errors``), the HTTP edge with its table of error
codes (``common.web``), the DynamoDB client (``common.persistence``) and the players (``common.players``).
Importing this package imports nothing heavy."""
