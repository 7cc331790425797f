"""What ubao stores, table by table: the privacy page (Faragha) is built from this list, and
``tests/privacy/test_privacy_page.py`` walks through everything a player can do, scans every table and fails when
an attribute is stored that the page does not name. A new stored attribute goes here, with why it is kept.

Each table: its name in template.yaml, what its items are, how long they are kept, and its attributes in groups
that share one reason (an attribute name is the code's own, shown as it is).
"""

from __future__ import annotations

from dataclasses import dataclass

from catalogs import N_


@dataclass(frozen=True)
class Attributes:
    names: tuple[str, ...]
    why: str  # msgid


@dataclass(frozen=True)
class StoredTable:
    name: str  # as in template.yaml
    what: str  # msgid: what its items are
    kept: str  # msgid: for how long
    attributes: tuple[Attributes, ...]


KEYS = N_("The item's keys: which player, game or puzzle it belongs to, as random ids (never your name).")
LAYOUT = N_("The version of the item's layout, so newer code reads older items.")
TTL = N_("When DynamoDB's time to live (TTL) deletes the item.")

STORED_TABLES: tuple[StoredTable, ...] = (
    StoredTable(
        "PlayersTable",
        N_("One item per player: what a player is, without an account."),
        N_("Until you delete your data."),
        (
            Attributes(
                ("token_hash",),
                N_("The SHA-256 hash of your token, which proves it is you; the token itself is never stored."),
            ),
            Attributes(("player_id", "created"), N_("Your random public id and when you started.")),
            Attributes(("name",), N_("The name you chose, shown to your opponents (optional).")),
            Attributes(("puzzles",), N_("Your puzzle rating, streak and recent puzzles.")),
            Attributes(("blocks",), N_("The players you blocked, so they cannot reach you.")),
            Attributes(
                ("country", "country_hidden"),
                N_(
                    "The country you were in when you started (from the network, never asked), and whether you hid it from everyone else."
                ),
            ),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "GamesTable",
        N_("Each game: its state and each of its moves; and the open challenges of the lobby."),
        N_(
            'Kept for the game\'s history; after you delete your data your name in finished games becomes "a former player".'
        ),
        (
            Attributes(("pk", "sk", "seq", "game_id"), KEYS),
            Attributes(
                ("game", "options", "fen", "memory", "ply", "doc", "kind", "by", "move", "at"),
                N_("The game, its options, its position and each move with who played it and when."),
            ),
            Attributes(
                ("seat", "seats", "white_id", "black_id", "white_order", "black_order"),
                N_("Who holds each side: the player's public id, name and the order of their games list."),
            ),
            Attributes(
                ("white_key", "black_key", "invite_key"),
                N_("Hashes that let only the players (and the one invited) move; never a token."),
            ),
            Attributes(("rating_change",), N_("What a rated game changed in both ratings.")),
            Attributes(
                ("reaction", "muted"),
                N_(
                    "A reaction a player sent in a game (one of the fixed set, never free text), and whether a player muted the other's."
                ),
            ),
            Attributes(
                (
                    "lister",
                    "listed",
                    "name",
                    "color",
                    "created",
                    "opponent",
                    "opponent_name",
                    "opponent_cpu",
                    "outcome",
                    "reason",
                    "rated",
                    "computer",
                    "live",
                    "tournament",
                    "private",
                ),
                N_(
                    "Your game history: one entry per game and player, with your name, the opponent and their name, the result and the kind of game."
                ),
            ),
            Attributes(
                ("seek", "seek_game", "seek_created", "seek_expires"),
                N_("An open challenge in the lobby: its game, its terms and when it lapses."),
            ),
            Attributes(
                ("air_game", "air_order", "seat_ratings"),
                N_("A game being played now, for the Watch list (public games only)."),
            ),
            Attributes(("reminder_hour", "reminder_due"), N_("When a correspondence move is due, to send a reminder.")),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "SeeksTable",
        N_("The lobby's places: which open challenges each player has."),
        N_("Until you delete your data; items of the older layout 7 days (TTL)."),
        (
            Attributes(("pk", "sk", "seek_id"), KEYS),
            Attributes(("claimed",), N_("When the place was taken, so a player keeps at most three challenges.")),
            Attributes(("expires",), TTL),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "RatingsTable",
        N_("One item per player and game: the game rating and the rating list."),
        N_("Until you delete your data."),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(("name",), N_("Your name as the rating list shows it.")),
            Attributes(
                ("rating", "rd", "vol", "games", "last_at", "history", "applied", "version"),
                N_("Your Glicko-2 rating, its history and the rated games already counted."),
            ),
            Attributes(
                ("earned",),
                N_("When you last played each opponent whose rating was established: the rating list needs five."),
            ),
            Attributes(("board", "board_rating"), N_("Your place in the rating list, once you qualify.")),
            Attributes(
                ("wins", "draws", "losses", "counted"),
                N_(
                    "Your wins, draws and losses in each game as your public profile shows them, and the last games counted, so none counts twice."
                ),
            ),
            Attributes(
                ("country", "board_country"),
                N_("Your country as your public profile shows it; removed here while you hide it."),
            ),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "PuzzleProgressTable",
        N_("The puzzles each player tried, and how often each puzzle was played."),
        N_("Until you delete your data; a puzzle's counts have no player in them."),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(
                ("at", "result"),
                N_("When you tried a puzzle and whether you solved it, so only your first try counts."),
            ),
            Attributes(("plays", "solves", "info", "gain"), N_("A puzzle's counts (no player): how hard it is.")),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "ReviewsTable",
        N_("The reviews of games, and the puzzles made from a player's mistakes."),
        N_("Kept with the game; your own puzzles until you delete your data."),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(
                ("status", "requested", "body"),
                N_("The review: when it was asked for, its state and what the engine found."),
            ),
            Attributes(
                ("game_id", "puzzle", "finished"),
                N_("A puzzle made from one of your mistakes, and whether you solved it."),
            ),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "PushTable",
        N_("The notification subscriptions of your browsers, and the reminders already sent."),
        N_(
            "Until you switch notifications off, the browser ends them, or you delete your data; reminders 30 days (TTL)."
        ),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(
                ("endpoint", "p256dh", "auth"),
                N_("Where your browser's push service takes a notification, and the keys that encrypt it."),
            ),
            Attributes(
                ("lang", "tz", "kinds", "created"),
                N_("The language, time zone and kinds of notice you chose, and when."),
            ),
            Attributes(("daily_hour", "daily_at"), N_("When the daily puzzle notice is next due.")),
            Attributes(("expires",), TTL),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    # -- tournaments (issue 40) --
    StoredTable(
        "TournamentsTable",
        N_("Each tournament: its terms, who entered it and the result of each of its games."),
        N_("Kept for the tournament's history, like its games."),
        (
            Attributes(("pk", "sk", "id", "game_id", "tournament_id"), KEYS),
            Attributes(
                (
                    "format",
                    "game",
                    "rated",
                    "options",
                    "name",
                    "public",
                    "created_by",
                    "created",
                    "max_players",
                    "min_players",
                    "starts",
                    "minutes",
                    "state",
                    "started",
                    "finished",
                    "list_key",
                    "list_order",
                    "games_made",
                    "wave_at",
                    "groups",
                    "made",
                    "soon_told",
                ),
                N_("The tournament's terms and state, and who made it (a random id)."),
            ),
            Attributes(
                ("invite_hash",),
                N_("The SHA-256 hash of a private tournament's invite code; the code is never stored."),
            ),
            Attributes(("club_id",), N_("The club whose members alone may enter the tournament, if any.")),
            Attributes(
                ("entries", "entry_count", "order", "withdrawn", "seen", "busy", "last_opponent", "balance", "paused"),
                N_(
                    "Who entered: your random id, your name, the SHA-256 hash of your token (to seat you in its games) "
                    "and when you joined or withdrew."
                ),
            ),
            Attributes(
                ("blocks",),
                N_("In an arena, the players you blocked (random ids), so that you are never paired with them."),
            ),
            Attributes(
                ("white", "black", "winner", "at", "plies", "on_time", "computer_white", "computer_black", "void"),
                N_("Each game's players (random ids), how it ended and whether the computer played for someone."),
            ),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "LiveTable",
        N_("The live connections: a ticket to open one, each open connection and the games it follows."),
        N_("At most 2 hours (TTL); a ticket 1 minute."),
        (
            Attributes(("pk", "sk", "connection_id", "slots"), KEYS),
            Attributes(
                ("player_id", "address"),
                N_("Whose connection it is and its network address, so a player or an address holds only a few."),
            ),
            Attributes(("follows",), N_("The games and tournaments the connection follows.")),
            Attributes(("expires_ms", "expires"), TTL),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "CommunityTable",
        N_("The community: whom each player follows, and the feedback players send."),
        N_("Follows until you unfollow or delete your data; feedback 180 days (TTL)."),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(
                ("token_hash", "name"),
                N_(
                    "Your card, so others can follow you by your link: your name and your token's hash, to check your blocks."
                ),
            ),
            Attributes(("at",), N_("When a follow was made; its key names the two players.")),
            Attributes(
                ("category", "text", "lang"),
                N_("A piece of feedback: its subject, its text and the page's language; no player, no address."),
            ),
            Attributes(
                ("id", "sender_id", "sender_name", "sender_key", "receiver_id", "receiver_name", "receiver_key"),
                N_(
                    "A direct challenge between two friends: its id, and each player's id, name and token's hash (the seats of the game it makes). Kept two days after it lapses (TTL)."
                ),
            ),
            Attributes(
                ("game", "options", "rated", "color", "state", "game_id", "answered"),
                N_(
                    "The challenge's game and options, the colour asked for, whether it is open, accepted, declined or withdrawn, the game it made and when it was answered."
                ),
            ),
            Attributes(("expires",), TTL),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "ClubsTable",
        N_("Clubs: each club, its members and its tournaments, and the clubs each player is in."),
        N_("Until the owner closes the club; a membership until you leave, are removed or delete your data."),
        (
            Attributes(("pk", "sk"), KEYS),
            Attributes(
                ("name", "game", "owner", "code", "created"),
                N_("A club's name, its game, its owner's public id, its invite code and when it was made."),
            ),
            Attributes(
                ("member_ids", "club_ids"),
                N_(
                    "The public ids of a club's members, and the ids of the clubs each player is in: they keep the limits."
                ),
            ),
            Attributes(("joined",), N_("A member's name (as they chose it) and when they joined.")),
            Attributes(("format",), N_("A tournament for the club's members: its name, game and kind.")),
            Attributes(("schema_version",), LAYOUT),
        ),
    ),
    StoredTable(
        "RateLimitTable",
        N_("Rate-limit buckets: how many requests a network address or a player made lately."),
        N_("Minutes: DynamoDB's time to live deletes a bucket soon after it is full again."),
        (
            Attributes(
                ("pk",),
                N_(
                    "The bucket's name with the network address it counts (an IPv6 address by its /64) or a hash of the player's token."
                ),
            ),
            Attributes(("ready",), N_("When the bucket is full again.")),
            Attributes(("expires",), TTL),
        ),
    ),
)
