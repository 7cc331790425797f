"""CommunityFunction: follows and friends, and players' feedback (docs/community.md)."""
