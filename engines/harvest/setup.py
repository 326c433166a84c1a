"""Game Setup and Player Setup: everything random is drawn here and put in events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.deck import shuffled
from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.challenges import chosen_challenge
from engines.harvest.characters import start_bucket
from engines.harvest.content import content
from engines.harvest.events import cell_numbers, resources, wrap
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = [
    "draft_order",
    "draft_pick",
    "draft_refusal",
    "keep_start",
    "reveal_starts",
    "set_up",
    "start_bucket_events",
]


def set_up(seats: int, options: Mapping[str, Any], rng: Rng) -> list[pb.Event]:
    """Game Setup 1-8 and Player Setup 1-8 (the draft variant or first-game combos); a
    solo challenge's set-up changes (Forests, Workshop, starting goods)."""
    c = content()
    if not 1 <= seats <= 4:
        raise codes.SETUP_SEATS()
    challenge = chosen_challenge(seats, options)
    draft = bool(options.get("draft", False))
    first_game = bool(options.get("first_game", False)) and not draft
    characters = shuffled(c.characters, rng)
    farmhouses = shuffled([f for f, _ in c.farmhouses], rng)
    sunrise = shuffled([n for n, _, _ in c.sunrise], rng)
    combos = shuffled(c.first_game, rng)
    workshop = [""] * len(c.workshop_slot_costs)
    building_draw = shuffled(c.buildings, rng)
    slots = c.workshop_setup_slots
    forests = c.forests
    if challenge is not None:
        slots = slots if challenge.workshop_slots is None else challenge.workshop_slots
        forests = forests if challenge.forests is None else challenge.forests
    for slot, building in zip(slots, building_draw, strict=False):
        workshop[slot] = building
    large = rng.choice([t for t, _ in c.market_large])
    small = rng.choice([t for t, _ in c.market_small]) if seats == 4 else ""
    deals = []
    for seat in range(seats):
        dealt_c: tuple[str, ...]
        dealt_f: tuple[str, ...]
        if first_game:
            dealt_c, dealt_f = (combos[seat][0],), (combos[seat][1],)
        elif draft:
            dealt_c, dealt_f = (), ()
        else:
            dealt_c = characters[2 * seat : 2 * seat + 2]
            dealt_f = farmhouses[2 * seat : 2 * seat + 2]
        deals.append(
            pb.SeatDeal(
                characters=dealt_c,
                farmhouses=dealt_f,
                sunrise=sunrise[seat],
                forests=cell_numbers(forests),
            )
        )
    setup = pb.GameSetUp(
        seats=seats,
        draft=draft,
        first_game=first_game,
        deals=deals,
        workshop=workshop,
        market_large=large,
        market_small=small,
        gairy_tiles_per_turn={1: 2, 2: 1}.get(seats, 0),
        draft_characters=characters[: seats + 1] if draft else (),
        draft_farmhouses=farmhouses[: seats + 1] if draft else (),
        challenge=challenge.id if challenge is not None else "",
    )
    events = [wrap(game_set_up=setup)]
    if challenge is not None and challenge.start:
        events.append(resources(0, "challenge", **dict(challenge.start)))
    if first_game:
        for seat, (character, farmhouse) in enumerate(combos[:seats]):
            events.append(
                wrap(start_kept=pb.StartKept(seat=seat, character=character, farmhouse=farmhouse))
            )
    return events


def start_bucket_events(seat: int, character: str) -> list[pb.Event]:
    """Leland the Frog: the Bucket starts on 6 instead of 3."""
    start = start_bucket(character)
    if not start:
        return []
    return [resources(seat, "leland", bucket=start - content().start_bucket)]


def reveal_starts(state: HarvestState) -> list[pb.Event]:
    """Player Setup 2, once every seat has kept: the choices are shown to all, and
    Leland's Bucket moves to 6."""
    revealed = pb.StartsRevealed(
        characters=[p.character for p in state.players],
        farmhouses=[p.farmhouse for p in state.players],
    )
    buckets = [e for s, p in enumerate(state.players) for e in start_bucket_events(s, p.character)]
    return [wrap(starts_revealed=revealed), *buckets]


def keep_start(state: HarvestState, cmd: pb.KeepStart, seat: int) -> list[pb.Event]:
    """Player Setup 2: keep 1 of your 2 Characters and 1 of your 2 Farmhouses."""
    player = state.players[seat]
    if cmd.character not in player.dealt_characters:
        raise codes.START_NOT_DEALT(kind="Characters")
    if cmd.farmhouse not in player.dealt_farmhouses:
        raise codes.START_NOT_DEALT(kind="Farmhouses")
    kept = pb.StartKept(seat=seat, character=cmd.character, farmhouse=cmd.farmhouse)
    return [wrap(start_kept=kept)]


def draft_order(state: HarvestState) -> tuple[int, ...]:
    """Draft Variant: Sunrise order, then reverse Sunrise order."""
    forward = tuple(sorted(range(state.seats), key=lambda s: state.players[s].sunrise))
    return forward + tuple(reversed(forward))


def draft_pick(state: HarvestState, cmd: pb.DraftPick, seat: int) -> list[pb.Event]:
    """Draft Variant: take a revealed Character or Farmhouse; end with one of each."""
    refused = draft_refusal(state, seat, cmd)
    if refused is not None:
        raise refused
    if cmd.character:
        picked = pb.DraftPicked(seat=seat, character=cmd.character)
        return [wrap(draft_picked=picked), *start_bucket_events(seat, cmd.character)]
    return [wrap(draft_picked=pb.DraftPicked(seat=seat, farmhouse=cmd.farmhouse))]


def draft_refusal(state: HarvestState, seat: int, cmd: pb.DraftPick) -> RuleViolation | None:
    """Why the seat cannot take this pick (``None``: it can): one Character or one
    Farmhouse, of a kind it does not have yet, revealed and not taken."""
    player = state.players[seat]
    if bool(cmd.character) == bool(cmd.farmhouse):
        return codes.DRAFT_ONE()
    if cmd.character:
        if player.character:
            return codes.DRAFT_HAVE_CHARACTER()
        taken = {p.character for p in state.players}
        if cmd.character not in state.draft_characters or cmd.character in taken:
            return codes.DRAFT_UNAVAILABLE(kind="Character")
        return None
    if player.farmhouse:
        return codes.DRAFT_HAVE_FARMHOUSE()
    taken = {p.farmhouse for p in state.players}
    if cmd.farmhouse not in state.draft_farmhouses or cmd.farmhouse in taken:
        return codes.DRAFT_UNAVAILABLE(kind="Farmhouse")
    return None
