"""Tend: twelve rounds of the flip-and-write farm, 1 to 8 players at once."""
