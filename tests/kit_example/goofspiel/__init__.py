"""Goofspiel on the game kit: the worked example of README › "Adding a game".

A whole game in three small modules: ``rules`` (state, set-up, the one move, the
automatic steps), ``seen`` (what each seat may see) and ``engine`` (the assembly).
"""
