"""The HTTP edge every function shares: the resolver, errors, routing, dependencies, limits, metrics."""
