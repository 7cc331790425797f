"""The notify unit's actions: deliver a notice to a player's subscriptions (``notifier``), after the gate's
checks (``gate``); ask for a rated game's review (``reviews``); the reminder and daily-puzzle sweeps
(``reminders``, ``daily``)."""
