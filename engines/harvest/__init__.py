"""Harvest: the engine for the farming game in rulebooks/harvest.txt (see RULES.md)."""
