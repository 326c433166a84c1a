"""Refusal codes: what every game and every service says when it refuses a command.

A code is stable once published (clients switch on it); its message is written for the
player and may be reworded. Codes that mean the same thing in every game are defined
here once, so "not your turn" reads ``turn.not_yours`` whichever game refuses it. A game
defines its own rule codes in its ``codes.py`` with the same :class:`Refusal` type.

Rules raise ``raise codes.TURN_NOT_YOURS()``; a message may name ``{placeholders}``
filled from the refused command (never from another seat's secret):
``raise PAYMENT_WRONG(cost=2)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.errors import RuleViolation

__all__ = [
    "CODE_METADATA",
    "COMMAND_EMPTY",
    "COMMAND_ID_REUSED",
    "COMMAND_INVALID",
    "COMMAND_MALFORMED",
    "COMMAND_MISSING_FIELD",
    "COMMAND_NOT_NOW",
    "GAME_OVER",
    "RULES",
    "SEAT_INVALID",
    "SERVICE",
    "TABLE_NOT_FOUND",
    "TABLE_WRONG_GAME",
    "TURN_NOT_YOURS",
    "VERSION_CONFLICT",
    "Refusal",
]


@dataclass(frozen=True, slots=True)
class Refusal:
    """One refusal: ``code`` is stable, ``message`` is written for the player."""

    code: str
    message: str

    def __call__(self, **details: object) -> RuleViolation:
        return RuleViolation(self.code, self.message.format(**details))


# --- the checks every game's ``decide`` makes before its own rules ------------------------
GAME_OVER = Refusal("game.over", "The game is over.")
TURN_NOT_YOURS = Refusal("turn.not_yours", "It is not your turn to act.")
COMMAND_EMPTY = Refusal("command.empty", "The command names no move.")
# The stage's own message says what it waits for ("Place one of the plots you drew first.").
COMMAND_NOT_NOW = Refusal("command.not_now", "{waiting_for}")
COMMAND_MISSING_FIELD = Refusal("command.missing_field", "Say which {field}.")

RULES: tuple[Refusal, ...] = (
    GAME_OVER,
    TURN_NOT_YOURS,
    COMMAND_EMPTY,
    COMMAND_NOT_NOW,
    COMMAND_MISSING_FIELD,
)

# --- what the services refuse before a command reaches the rules ---------------------------
COMMAND_MALFORMED = Refusal("command.malformed", "The command is not well formed: {reason}")
COMMAND_ID_REUSED = Refusal(
    "command.id_reused",
    "You already used this command_id for a different command; choose a new command_id.",
)
COMMAND_INVALID = Refusal("command.invalid", "The rules cannot decide this command.")
TABLE_NOT_FOUND = Refusal("table.not_found", "There is no table with that id.")
TABLE_WRONG_GAME = Refusal("table.wrong_game", "That table plays {game}, not {expected}.")
SEAT_INVALID = Refusal("seat.invalid", "This table has seats 0 to {last}.")
VERSION_CONFLICT = Refusal("version.conflict", "The table is at version {version}, not {expected}.")

# Over gRPC, a service's code travels beside the status in this trailing metadata key.
CODE_METADATA = "bw-code"

SERVICE: tuple[Refusal, ...] = (
    COMMAND_MALFORMED,
    COMMAND_ID_REUSED,
    COMMAND_INVALID,
    TABLE_NOT_FOUND,
    TABLE_WRONG_GAME,
    SEAT_INVALID,
    VERSION_CONFLICT,
)
