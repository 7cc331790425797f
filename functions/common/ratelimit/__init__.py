"""The rate limits' parts below the edge: a limit and its arithmetic (``domain``), and where the buckets are kept
(``repository``). The limits and the limiter routes use are ``common.web.ratelimit``'s."""
