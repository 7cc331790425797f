"""ClubsFunction: clubs (vilabu) joined by invite code (docs/community.md, "Clubs")."""
