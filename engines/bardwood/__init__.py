"""Bardwood Grove: the deck-building bards, 2 to 4 players."""
