"""The notify unit's values: a game as a notification sees it (``games``), which notices an event makes
(``decide``), and the texts of each in every language (``texts``). No I/O but reading the catalogs."""
