"""What the bot answers, as hikari's builders: an interaction's response and a message
posted in a channel share one description, :class:`Reply`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import hikari
from hikari.api import special_endpoints

from services.discord.menus import Button, Row, Select
from services.discord.words import bounded

__all__ = ["Reply", "action_rows", "respond"]


@dataclass(frozen=True, slots=True)
class Reply:
    """A message: its text, components, the users it may ping, an attached picture.

    ``ephemeral`` shows it to the person who asked only; ``update`` (components only)
    replaces the message whose component was used instead of adding a new one.
    """

    content: str
    rows: Sequence[Row] = ()
    ephemeral: bool = False
    update: bool = False
    pings: Sequence[str] = ()
    picture: bytes | None = None
    picture_name: str = "board.png"


def action_rows(rows: Sequence[Row]) -> list[special_endpoints.ComponentBuilder]:
    """Each row of buttons or a select menu as hikari's action row."""
    built: list[special_endpoints.ComponentBuilder] = []
    for row in rows:
        builder = hikari.impl.MessageActionRowBuilder()
        if isinstance(row, Select):
            menu = builder.add_text_menu(row.custom_id, placeholder=row.placeholder, min_values=1)
            for option in row.options:
                menu.add_option(option.label, option.value)
        else:
            for button in row:
                _add_button(builder, button)
        built.append(builder)
    return built


def _add_button(builder: hikari.impl.MessageActionRowBuilder, button: Button) -> None:
    if button.primary:
        builder.add_interactive_button(
            hikari.ButtonStyle.PRIMARY, button.custom_id, label=button.label
        )
    else:
        builder.add_interactive_button(
            hikari.ButtonStyle.SECONDARY, button.custom_id, label=button.label
        )


def respond(
    interaction: hikari.CommandInteraction | hikari.ComponentInteraction, reply: Reply
) -> special_endpoints.InteractionMessageBuilder:
    """The interaction's response carrying ``reply``."""
    if isinstance(interaction, hikari.ComponentInteraction):
        builder = (
            interaction.build_response(hikari.ResponseType.MESSAGE_UPDATE)
            if reply.update
            else interaction.build_response(hikari.ResponseType.MESSAGE_CREATE)
        )
    else:
        builder = interaction.build_response()
    builder.set_content(bounded(reply.content))
    if reply.ephemeral and not reply.update:
        builder.set_flags(hikari.MessageFlag.EPHEMERAL)
    for row in action_rows(reply.rows):
        builder.add_component(row)
    if reply.update and not reply.rows:
        builder.clear_components()
    builder.set_user_mentions([hikari.Snowflake(user) for user in reply.pings] or False)
    builder.set_role_mentions(False)
    builder.set_mentions_everyone(False)
    if reply.picture is not None:
        builder.add_attachment(hikari.Bytes(reply.picture, reply.picture_name))
    return builder
