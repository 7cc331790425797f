"""The strings of the interactive boards and the game page, kept apart from build_site's
``JS_MESSAGES`` so the two lists can change independently; ``Builder.js_messages`` merges both.

``refusal_<reason>`` keys follow ``shared_rules.errors.MOVE_REASONS``: the server's ``error.reason`` (and the
board's own check of a tap) picks the text, so a refusal reads the same in every language. Any other refusal
is shown by its ``error.code`` (``error_<code>``, else ``request_refused``): the server's own ``message`` is
English, for developers, and a page never shows it.
"""

from __future__ import annotations

from catalogs import N_, NC_, NP_

PLAY_MESSAGES = {
    "board_label": N_("Board"),
    "route_may_stop": N_("The capture may stop here: tap this square again to stop, or tap the next landing square."),
    "route_choose": N_("Several routes end there: tap the landing squares one by one."),
    "refusal_capture_required": N_("A capture is compulsory: %(moves)s."),
    "refusal_not_your_turn": N_("It is not your turn."),
    "refusal_no_piece": N_("None of your pieces is on that square."),
    "refusal_wrong_color": N_("That piece is your opponent's."),
    "refusal_blocked": N_("That piece cannot go there."),
    "refusal_ambiguous": N_("That could be more than one move: tap the squares one by one."),
    "refusal_unknown_move": N_("That is not a move in this position."),
    "refusal_game_over": N_("The game is over."),
    "your_name": N_("Your name"),
    "name_saved": N_("Name saved."),
    # TRANSLATORS: %(name)s is the host's chosen name (up to 24 characters); a host without one gets the next line.
    "invited_by": N_("%(name)s invites you to a game of %(game)s."),
    "invited_anonymous": N_("You are invited to a game of %(game)s."),
    "invite_you_play": N_("You play %(colour)s. %(days)s"),
    "share_text": N_("Play %(game)s with me on ubao"),
    "share_done": N_("Invitation shared."),
    "you": N_("you"),
    "nobody_yet": N_("waiting"),
    # TRANSLATORS: %(name)s: a name, or "an unnamed player", or "the computer, level 3"; it must read right with each.
    "vs": N_("against %(name)s"),
    # TRANSLATORS: stands for the computer opponent as a name does ("against the computer, level 3").
    "computer_level": N_("the computer, level %(level)s"),
    # TRANSLATORS: stands for a player who chose no name, as a name does ("against an unnamed player").
    "anonymous": N_("an unnamed player"),
    # TRANSLATORS: a player who deleted their data: their finished games keep their moves, not their name.
    "former_player": N_("a former player"),
    "their_move": N_("their move"),
    "your_move_short": N_("your move"),
    "no_games": N_("No games yet."),
    # A rated game's end, after its result: "Rating change: White +11, Black −11."
    "rating_change": N_("Rating change: %(changes)s."),
    # The refusals of the games and players routes, by ``error.code`` (functions/games, functions/common).
    "error_stale_ply": N_("The game has moved on. Here it is as it is now."),
    "error_game_not_started": N_("The game starts when your opponent joins."),
    "error_your_move": N_("It is your move"),
    "error_not_a_player": N_("You are not playing in this game."),
    "error_no_draw_offer": N_("Your opponent has not offered a draw."),
    "error_deadline_not_passed": N_("Your opponent still has time to move."),
    "error_game_not_finished": N_("This game is not over yet."),
    "error_no_rematch_offer": N_("There is no rematch offer to answer."),
    "error_player_blocked": N_("One of you has blocked the other."),
    "error_review_not_found": N_("Nobody has asked for a review of this game yet."),
    "error_not_abortable": N_("Both of you have made two moves: the game can no longer be aborted."),
    "error_computer_plays_your_seat": N_("The computer is playing your seat. Take it back to play."),
    "error_turn_time_over": N_(
        "Your time for this move ran out, so the computer played it. Take back your seat to play on."
    ),
    "error_invalid_invite": N_("This invitation link does not open this game. Ask for the link again."),
    "error_game_full": N_("This game already has two players."),
    "error_own_game": N_("You created this game: send the invitation link to your opponent."),
    "error_rated_not_allowed": N_("Games against the computer or from a set-up position are never rated."),
    "error_game_not_found": N_("There is no such game. Check the link."),
    # The lobby's refusals (functions/games/lobby) and texts (site/modules/lobby_panel.js).
    "error_seek_taken": N_("Someone else accepted this challenge first."),
    "error_own_seek": N_("This is your own challenge: wait for an opponent to accept it."),
    # -- tournaments (issue 40) --
    "error_invalid_tournament_invite": N_("This invite code does not open this tournament."),
    "error_tournament_not_found": N_("There is no such tournament."),
    "error_tournament_started": N_("This league has started: it takes no more players."),
    "error_tournament_full": N_("Every place in this tournament is taken."),
    "error_tournament_over": N_("This tournament is over."),
    "error_already_entered": N_("You are in this tournament already."),
    "error_blocked_entrant": N_(
        "You and a player in this league: one of you has blocked the other, so you cannot both play in it."
    ),
    "error_invalid_league_size": N_("A league has 3 to 8 players."),
    "error_starts_in_past": N_("Choose a start time that has not passed."),
    "error_invalid_cup_size": N_("Groups then knockout: 2, 4 or 8 groups of 4 to 6 players."),
    "error_invalid_arena_length": N_("An arena lasts 20 to 120 minutes."),
    # -- end of tournaments --
    "error_out_of_range": N_("Your rating is outside the range this challenge asks for."),
    "error_invalid_rating_range": N_(
        "A rating range must include your own rating and reach at least 100 points above and below it."
    ),
    "error_too_many_seeks": N_("You have 3 open challenges already. Withdraw one first."),
    "error_seek_not_found": N_("This challenge is no longer open."),
    "error_not_your_seek": N_("Only the player who made this challenge can withdraw it."),
    # TRANSLATORS: %(name)s: a name, or "an unnamed player"; %(rating)s: their rating, e.g. 1500.
    "lobby_seeker": N_("%(name)s (%(rating)s)"),
    "lobby_rated_tag": N_("rated"),
    "lobby_casual_tag": N_("casual"),
    "lobby_accept": N_("Accept"),
    "lobby_withdraw": N_("Withdraw"),
    "lobby_waiting": N_("Your challenge is open. Waiting for an opponent…"),
    "lobby_found": N_("Opponent found. The game begins."),
    # TRANSLATORS: %(game)s: a game's name; %(kind)s: "rated" or "casual" as translated above; %(who)s: the
    # challenger's name and rating, e.g. "Asha (1500?)".
    "lobby_take_other": N_("An open challenge is waiting: %(game)s, %(kind)s, from %(who)s. Play it?"),
    "error_invalid_name": N_("A name has at most 24 characters: letters, digits, spaces and . ' - _"),
    "error_rate_limited": N_("Too many requests. Wait a moment and try again."),
    # The community (functions/community): follows.
    "error_player_not_found": N_("No player can be followed with this link."),
    "error_cannot_follow_yourself": N_("This is your own link: send it to a friend."),
    "error_you_blocked_player": N_("You blocked this player. Remove the block first."),
    "error_too_many_players_followed": N_("You follow the most players already. Unfollow one first."),
    # Clubs (functions/clubs).
    "error_club_not_found": N_("No club has this code. Check the code you typed."),
    "error_wrong_club_code": N_("This code does not open the club. Ask a member for the new code."),
    "error_club_full": N_("This club has 500 members, the most a club can have."),
    "error_too_many_clubs": N_("You are in 20 clubs already. Leave one first."),
    "error_not_club_owner": N_("Only the club's owner can do this."),
    "error_not_club_member": N_("That player is not in this club."),
    "error_owner_stays_in_club": N_("The owner leaves only as the last member. Remove the others first."),
    "error_club_members_only": N_("This tournament is for the club's members. Join the club first."),
    # Direct challenges (functions/community/challenges).
    "error_not_a_friend": N_("You can challenge a friend only: a player you follow who follows you."),
    "error_challenge_not_found": N_("This challenge is no longer there."),
    "error_challenge_closed": N_("This challenge was answered, withdrawn or lapsed."),
    "error_already_challenged": N_("You have challenged this friend already. Wait for the answer."),
    "error_too_many_challenges": N_("You have the most challenges waiting already. Wait for some answers."),
    # A request the page itself built wrong (not a JSON object, not sent as JSON): a stale page, most likely.
    "error_invalid_body": N_("The page sent a request the server cannot read. Reload the page and try again."),
    "error_unsupported_media_type": N_(
        "The page sent a request the server cannot read. Reload the page and try again."
    ),
    "error_store_unavailable": N_("The server is busy. Try again in a moment."),
    "request_refused": N_("The server refused this request."),
    "rematch_offered_by_you": N_("You offered a rematch."),
    "rematch_offered_to_you": N_("Your opponent offers a rematch."),
    "rematch_declined": N_("Your opponent declined the rematch."),
    "rematch_started": N_("The rematch has begun."),
    # TRANSLATORS: in the list of your games, beside a game that is the rematch of an earlier one.
    "rematch_tag": N_("rematch"),
    "confirm_block": N_(
        "Block this player? They will no longer be able to offer you a rematch, join your games or send you "
        "notifications."
    ),
    "player_blocked": N_("Player blocked. They can no longer reach you."),
    "player_followed": N_(
        "You follow this player now. If they follow you too, you are friends and can challenge each other."
    ),
    "start_a_game": N_("Start a new game"),
    "sending_move": N_("Sending your move…"),
    # Chess: the side to move is in check (the last move's "+"), said on the status line and by screen readers.
    "check_your_turn": N_("Check! Your king is attacked: your move."),
    "check_waiting": N_("Check! Waiting for your opponent's move."),
    "refusal_in_check": N_("Your king is in check: that move does not get it out."),
    # Said to the player whose draw offer the opponent declined (by the button or by moving instead).
    "draw_declined": N_("Your opponent declined your draw offer."),
}

# One phone for two (pass_and_play.js): between turns, and check for the side to move.
PASS_MESSAGES = {
    "pass_handover": N_("Pass the phone to %(side)s."),
    "pass_check": N_("Check! %(side)s to move."),
}
PLAY_MESSAGES.update(PASS_MESSAGES)

# The game review (review_view.js): the engine's reading of a finished game.
REVIEW_MESSAGES = {
    "review_ask": N_("Review this game"),
    "review_title": N_("Game review"),
    "review_pending": N_("The computer is reading the game move by move. The review will appear here."),
    "review_accuracy": N_("%(colour)s: accuracy %(score)s"),
    "review_graph_label": N_(
        "Evaluation after each move: up is good for %(first)s, down for %(second)s. Tap to see that position."
    ),
    "review_mark_inaccuracy": N_("an inaccuracy"),
    "review_mark_mistake": N_("a mistake"),
    "review_mark_blunder": N_("a blunder"),
    "review_start": N_("The starting position."),
    "review_move_plain": N_("Move %(ply)s, %(move)s: evaluation %(eval)s."),
    "review_move_marked": N_("Move %(ply)s, %(move)s was %(mark)s (evaluation %(eval)s). Better was %(best)s."),
    "review_show_best": N_("Show the better move"),
    "review_best_shown": N_("The better move, %(best)s: its squares are marked on the board."),
    "review_back": N_("Back to the game"),
    "review_mistakes": N_("Your mistakes as puzzles"),
}
PLAY_MESSAGES.update(REVIEW_MESSAGES)

PLAY_PLURALS = {
    "days_per_move": NP_("%(num)d day per move", "%(num)d days per move"),
    "days_left": NP_("%(num)d day left", "%(num)d days left"),
    # A live table (``turn_seconds``): its terms in an invitation, and the countdown on the board.
    "turn_seconds": NP_("%(num)d second per move", "%(num)d seconds per move"),
    "seconds_left": NP_("%(num)d second left", "%(num)d seconds left"),
    "seconds_left_you": NP_("Your move: %(num)d second left", "Your move: %(num)d seconds left"),
}

# The refusals that name a piece, per family of games: Swahili calls a chess piece "kipande" and a draughts
# man "kete", so each family has its own catalog entry (its msgctxt). ``refusal_<reason>_<family>`` keys;
# i18n.js's refusalText picks them before the plain ``refusal_<reason>``.
PLAY_CONTEXT_MESSAGES = {
    "refusal_no_piece_chess": NC_("chess", "None of your pieces is on that square."),
    "refusal_wrong_color_chess": NC_("chess", "That piece is your opponent's."),
    "refusal_blocked_chess": NC_("chess", "That piece cannot go there."),
    "refusal_no_piece_draughts": NC_("draughts", "None of your pieces is on that square."),
    "refusal_wrong_color_draughts": NC_("draughts", "That piece is your opponent's."),
    "refusal_blocked_draughts": NC_("draughts", "That piece cannot go there."),
}

# Reactions, not chat (functions/games/domain/reactions.py has the same keys: tests/site/test_reaction_texts.py):
# each phrase in the page's language, so each player reads the other's reaction in their own; emoji as they are.
REACTION_TEXTS = {
    # TRANSLATORS: a reaction a player sends in a game (sw "Mchezo mzuri!").
    "good_game": N_("Good game!"),
    # TRANSLATORS: a reaction a player sends in a game (tl "Magaling!").
    "well_played": N_("Well played!"),
    # TRANSLATORS: a reaction a player sends in a game (sw "Hongera!").
    "congratulations": N_("Congratulations!"),
    # TRANSLATORS: a reaction a player sends in a game (sw "Asante!", tl "Salamat!").
    "thanks": N_("Thank you!"),
    # TRANSLATORS: a reaction: sympathy for the other player's bad luck (sw "Pole!").
    "sorry": N_("Bad luck!"),
    # TRANSLATORS: a reaction a player sends in a game: a greeting.
    "hello": N_("Hello!"),
    "thumbs_up": "👍",
    "clap": "👏",
    "smile": "🙂",
    "wow": "😮",
    "handshake": "🤝",
}
