"""What every function shares: the HTTP API resolver with ubao's error contract (``common.api``) and the
errors handlers raise (``common.errors``). Importing this package imports nothing heavy."""
