"""POST /v1/validate: is this move legal here, and what follows it."""
