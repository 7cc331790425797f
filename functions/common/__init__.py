"""What every function shares: the HTTP API resolver with ubao's error contract (``common.web.api``) and the
errors handlers raise (``common.web.errors``). Importing this package imports nothing heavy."""
