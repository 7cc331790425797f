"""Players: anonymous accounts behind a bearer token, their routes (a Router the games function includes)."""
