"""Harvest's moves and events in words, for menus, logs and chat.

A move is named as a player would say it at the table ("Place a worker on the Fields (2),
paying 1 Coin", "Plant Pumpkin on row 2, column 3"); its menu is the part of the turn it
belongs to (the Sunrise, the Town Board, the Fields, the Workshop...). An event is
worded as the viewer may see it: it comes redacted, so a secret choice (another seat's
Character before the reveal) is never named. Field cells are written "row R, column C",
counted from 1 as a person counts them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.core.game import MoveWords
from engines.harvest.content import content
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

__all__ = ["WORDS"]

_SECTIONS = {
    "general_store": "the General Store",
    "fields": "the Fields",
    "workshop": "the Workshop",
    "farmers_market": "the Farmer's Market",
    "trading_post": "the Trading Post",
}
_GOODS = (
    ("coins", "Coin", "Coins"),
    ("water", "Water", "Water"),
    ("bucket", "Bucket step", "Bucket steps"),
    ("fertilizer", "Fertilizer", "Fertilizer"),
    ("points", "point", "points"),
    ("wheat", "Wheat seed", "Wheat seeds"),
    ("strawberry", "Strawberry seed", "Strawberry seeds"),
    ("blueberry", "Blueberry seed", "Blueberry seeds"),
    ("pumpkin", "Pumpkin seed", "Pumpkin seeds"),
    ("rerolls", "re-roll", "re-rolls"),
)
_TASKS = {
    "purchase": "a purchase",
    "field": "a Field Action",
    "plant_free": "a free planting",
    "tend_free": "a free tending",
    "build": "a building",
    "clear_land": "Clear Land",
    "clear_land_no_die": "Clear Land (no die)",
    "upgrade_bucket": "a Bucket upgrade",
    "fill_bucket": "a full Bucket",
    "water_or_fertilizer": "a Water or a Fertilizer",
    "trade": "a trade",
    "workshop": "a Workshop action",
    "two_space": "a second action space",
    "repeat_space": "an action space again",
    "repeat_built": "a building's benefit again",
    "roll_die": "a roll of the Forest Die",
    "reroll": "a re-roll",
    "seed_upgrade": "a seed upgrade",
    "remi": "Remi's choice",
    "rose": "a Rose",
}


def _title(ident: str) -> str:
    """``well_house`` as ``Well House``."""
    return " ".join(word.capitalize() for word in ident.split("_") if word)


def _character(ident: str) -> str:
    if not ident:
        return "a hidden Character"
    name = content().character(ident).get("name")
    return str(name) if name else _title(ident)


def _farmhouse(ident: str) -> str:
    return f"the {_title(ident)}" if ident else "a hidden Farmhouse"


def _cell(cell: int) -> str:
    columns = content().grid.cols
    return f"row {cell // columns + 1}, column {cell % columns + 1}"


def _cells(cells: Iterable[int]) -> str:
    listed = [_cell(c) for c in cells]
    return "; ".join(listed) if listed else "nowhere"


def _space(ident: str) -> str:
    for space in content().spaces:
        if space.id == ident:
            if space.market:
                return (
                    f"the Farmer's Market ({_title(space.market)}, space {space.market_space + 1})"
                )
            return f"{_SECTIONS.get(space.section, _title(space.section))} ({space.value})"
    return _title(ident)


def _payment(payment: pb.Payment) -> str:
    parts = [
        f"{amount} {name if amount == 1 else plural}"
        for amount, name, plural in (
            (payment.coins, "Coin", "Coins"),
            (payment.water, "Water", "Water"),
            (payment.fertilizer, "Fertilizer", "Fertilizer"),
        )
        if amount
    ]
    return f", paying {' and '.join(parts)}" if parts else ""


def _task(kind: str, amount: int = 1) -> str:
    if kind.startswith("seed:"):
        seed = _title(kind.removeprefix("seed:"))
        return f"{amount} {seed} seed{'s' if amount > 1 else ''}"
    if kind.startswith("die:"):
        return "the Forest Die's benefit"
    if kind.startswith("end:"):
        return f"the {_title(kind.removeprefix('end:'))}'s Game End benefit"
    for field, one, many in _GOODS:
        if kind == field or kind == one.lower():
            return f"{amount} {one if amount == 1 else many}"
    named = _TASKS.get(kind, _title(kind))
    return f"{named} x{amount}" if amount > 1 else named


def _changes(event: pb.ResourcesChanged) -> str:
    gained: list[str] = []
    spent: list[str] = []
    for field, one, many in _GOODS:
        amount = getattr(event, field)
        if amount:
            size = abs(amount)
            (gained if amount > 0 else spent).append(f"{size} {one if size == 1 else many}")
    parts = []
    if gained:
        parts.append(f"gains {', '.join(gained)}")
    if spent:
        parts.append(f"spends {', '.join(spent)}")
    return " and ".join(parts) or "changes nothing"


class HarvestWords:
    """The wording the kit asks for (engines.core.game.Wording)."""

    def command(self, state: HarvestState, command: pb.Command, seat: int) -> MoveWords:
        kind = command.WhichOneof("kind")
        if kind == "keep_start":
            keep = command.keep_start
            return MoveWords(
                "Choose your start",
                f"Keep {_character(keep.character)} and {_farmhouse(keep.farmhouse)}",
            )
        if kind == "draft_pick":
            pick = command.draft_pick
            taken = _character(pick.character) if pick.character else _farmhouse(pick.farmhouse)
            return MoveWords("Draft", f"Draft {taken}")
        if kind == "choose_sunrise":
            return MoveWords("Sunrise", f"Take Sunrise tile {command.choose_sunrise.tile}")
        if kind == "place_worker":
            place = command.place_worker
            return MoveWords(
                "Place a worker",
                f"Place a worker on {_space(place.space)}{_payment(place.payment)}",
            )
        if kind == "take_benefit":
            return MoveWords("Benefits", self._benefit(state, command.take_benefit))
        if kind == "purchase":
            buy = command.purchase
            item = {"fertilizer": "a Fertilizer", "fill_bucket": "a full Bucket"}.get(
                buy.item, f"a {_title(buy.item)} seed"
            )
            return MoveWords("General Store", f"Buy {item}{_payment(buy.payment)}")
        if kind == "field_action":
            action = command.field_action.kind
            return MoveWords("Fields", f"{_title(action)} your field")
        if kind == "plant_seed":
            plant = command.plant_seed
            return MoveWords("Plant", f"Plant {_title(plant.seed)} on {_cells(plant.cells)}")
        if kind == "tend_crop":
            tend = command.tend_crop
            if not tend.cells:
                return MoveWords("Tend", f"Return the {_title(tend.crop)} to the supply")
            return MoveWords("Tend", f"Tend {_title(tend.crop)} onto {_cells(tend.cells)}")
        if kind == "upgrade_bucket":
            paid = _payment(command.upgrade_bucket.payment)
            return MoveWords("Workshop", f"Upgrade your Bucket{paid}")
        if kind == "clear_land":
            clear = command.clear_land
            where = _cell(clear.forest)
            return MoveWords("Clear land", f"Clear the Forest at {where}{_payment(clear.payment)}")
        if kind == "build":
            build = command.build
            building = state.workshop[build.slot] if build.slot < len(state.workshop) else ""
            return MoveWords(
                "Build",
                f"Build the {_title(building) or 'building'} (Workshop slot {build.slot + 1}) at "
                f"{_cell(build.cell)}{_payment(build.payment)}",
            )
        if kind == "trade":
            trade = command.trade
            given = {"fertilizer": "2 Fertilizer", "water": "3 Water"}.get(
                trade.give, f"a {_title(trade.seed)} seed"
            )
            return MoveWords("Trading Post", f"Trade {given} for {_task(trade.action)}")
        if kind == "upgrade_seed":
            return MoveWords("Trading Post", f"Upgrade a {_title(command.upgrade_seed.seed)} seed")
        if kind == "reuse_space":
            reuse = command.reuse_space
            return MoveWords(
                "Use a space again", f"Use {_space(reuse.space)} again{_payment(reuse.payment)}"
            )
        if kind == "repeat_building":
            building = _title(command.repeat_building.building)
            return MoveWords("Windmill", f"Take the {building}'s benefit again")
        if kind == "reroll_die":
            return MoveWords("Forest Die", "Re-roll the Forest Die")
        if kind == "move_piece":
            move = command.move_piece
            return MoveWords(
                "Move a worker",
                f"Move your worker from {_space(move.from_space)} to {_space(move.to_space)}"
                f"{_payment(move.payment)}",
            )
        return MoveWords("Done", "Finish: you are done with what is waiting")

    @staticmethod
    def _benefit(state: HarvestState, take: pb.TakeBenefit) -> str:
        tasks = state.steps[-1].tasks if state.steps else ()
        if not 0 <= take.task < len(tasks):
            return f"Take benefit {take.task + 1}"
        task = tasks[take.task]
        if task.kind == "remi":
            return (
                "Remi: take 1 Coin" if take.option == "coin" else "Remi: your Sunrise benefit again"
            )
        if take.option:
            return f"Take {_task(task.kind, task.amount)}: {_title(take.option)}"
        return f"Take {_task(task.kind, task.amount)}"

    def event(self, event: pb.Event, viewer: int | None) -> str:
        kind = event.WhichOneof("kind")
        body = getattr(event, kind) if kind else None
        if isinstance(body, pb.GameSetUp):
            solo = f"; solo challenge {_title(body.challenge)}" if body.challenge else ""
            return (
                f"The farm is set up for {body.seats} player{'s' if body.seats > 1 else ''}{solo}"
            )
        if isinstance(body, pb.StartKept):
            if not body.character:
                return f"Seat {body.seat} has chosen a start"
            return (
                f"Seat {body.seat} keeps {_character(body.character)} "
                f"and {_farmhouse(body.farmhouse)}"
            )
        if isinstance(body, pb.StartsRevealed):
            shown = [
                f"seat {n}: {_character(c)}, {_farmhouse(f)}"
                for n, (c, f) in enumerate(zip(body.characters, body.farmhouses, strict=False))
            ]
            return f"Starts revealed: {'; '.join(shown)}"
        if isinstance(body, pb.DraftPicked):
            taken = _character(body.character) if body.character else _farmhouse(body.farmhouse)
            return f"Seat {body.seat} drafts {taken}"
        if isinstance(body, pb.SunriseRevealed):
            tiles = ", ".join(str(t) for t in body.tiles)
            return f"Round {body.round}: Sunrise tiles {tiles} are revealed"
        if isinstance(body, pb.SunriseTaken):
            return f"Seat {body.seat} takes Sunrise tile {body.tile}"
        if isinstance(body, pb.TasksGranted):
            tasks = ", ".join(_task(t.kind, t.amount) for t in body.tasks)
            return f"Seat {body.seat} may take {tasks}"
        if isinstance(body, pb.TaskResolved):
            return f"Seat {body.seat} takes a benefit"
        if isinstance(body, pb.ResourcesChanged):
            return f"Seat {body.seat} {_changes(body)}"
        if isinstance(body, pb.TurnBegan):
            if body.seat < 0:
                return f"{_title(body.phase)} begins"
            return f"{_title(body.phase)}: seat {body.seat} plays"
        if isinstance(body, pb.WorkerPlaced):
            who = "Mayor Gairy" if body.seat < 0 else f"Seat {body.seat}"
            return f"{who} places a worker on {_space(body.space)}"
        if isinstance(body, pb.GairyTileDrawn):
            return f"Mayor Gairy draws tile {body.tile}"
        if isinstance(body, pb.CropPlaced):
            return f"Seat {body.seat} places {_title(body.crop)} on {_cells(body.cells)}"
        if isinstance(body, pb.CropReturned):
            return f"Seat {body.seat} returns a {_title(body.crop)} to the supply"
        if isinstance(body, pb.CropsHarvested):
            return f"Seat {body.seat} harvests the field"
        if isinstance(body, pb.LandCleared):
            found = f", finding the {_title(body.building)}" if body.building else ""
            return f"Seat {body.seat} clears the Forest at {_cell(body.forest)}{found}"
        if isinstance(body, pb.BuildingRevealed):
            return f"The {_title(body.building)} comes to the Workshop"
        if isinstance(body, pb.BuildingBuilt):
            return f"Seat {body.seat} builds the {_title(body.building)} at {_cells(body.cells)}"
        if isinstance(body, pb.ForestDieRolled):
            return f"Seat {body.seat} rolls the Forest Die: face {body.face}"
        if isinstance(body, pb.StepFinished):
            return f"Seat {body.seat} is done"
        if isinstance(body, pb.PieceMoved):
            return (
                f"Seat {body.seat} moves a worker from {_space(body.from_space)} "
                f"to {_space(body.to_space)}"
            )
        if isinstance(body, pb.WorkshopShifted):
            return "Sunset: the Workshop's buildings move down a row"
        if isinstance(body, pb.RoundEnded):
            return f"The round ends; round {body.next_round} is next"
        if isinstance(body, pb.GameFinished):
            scores = ", ".join(f"seat {s.seat} {s.total}" for s in body.scores)
            winners = " and ".join(f"seat {w}" for w in body.winners)
            return f"Game over: {scores}; {winners} win{'s' if len(body.winners) == 1 else ''}"
        return _title(kind or "event")


WORDS = HarvestWords()
