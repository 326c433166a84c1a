"""The Discord bot: tables of any game played in a Discord channel.

A hikari ``RESTBot`` answers Discord's HTTP interactions (:mod:`.server`); the slash
commands (:mod:`.commands`) list the games, open a table in a channel, join a seat, show
the board and offer the caller's legal moves as select menus and buttons
(:mod:`.menus`); after each move it posts the move and whose turn it is in the channel,
and at the end the scores and the replay link (:mod:`.handlers`, :mod:`.words`).

It is a client of the platform like any other: the public HTTP API with an app's
identity (``X-App-Key``, users ``discord:<user id>``), so it holds no seat tokens. It
keeps no state in its process: the custom_ids of its components carry what a click
needs, and a channel's table and a table's Discord players live in Redis
(:mod:`.homes`). ``python -m services.discord`` serves; ``... register`` registers the
slash commands with Discord.
"""
