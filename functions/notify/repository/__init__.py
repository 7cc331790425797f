"""What the notify unit reads and where it sends: the games table through the games function's own repository
(``games``), and the push services through Web Push (``sender``). Subscriptions are the push unit's
(``push.repository``)."""
