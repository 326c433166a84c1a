"""``evolve``: one recorder per event, each writing its fact into the state.

Recorders never draw and never check a rule. Two conventions keep them small: only
``goods_gained`` puts goods (and marks) in a player's hand and only ``coins_gained``
adds coins for the turn; a use (spent, sold, shipped, gifted...) takes one good out.
"""

from __future__ import annotations

from dataclasses import replace

from engines.core.recorders import Recorders
from engines.tend.content import content
from engines.tend.events import farm_number
from engines.tend.scratch_off import square_of
from engines.tend.state import (
    Die,
    FinalScore,
    Player,
    Scratch,
    Task,
    TendState,
    Upcoming,
    Waiting,
    added,
    with_player,
)
from proto import tend_pb2 as pb

__all__ = ["RECORDERS"]

RECORDERS: Recorders[TendState] = Recorders(pb.Event)


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less one ``item``."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _minus(items: tuple[str, ...], removed: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    for item in removed:
        items = _without(items, item)
    return items


def _task(player: Player, **changes: object) -> Task:
    assert player.task is not None
    return replace(player.task, **changes)  # type: ignore[arg-type]


def _scratch(card: pb.ScratchCard) -> Scratch:
    return Scratch(
        rocks=tuple(card.rocks),
        path=tuple(card.path),
        picks_top=tuple(card.top_picks),
        picks_bottom=tuple(card.bottom_picks),
    )


# -- set-up and rounds -----------------------------------------------------------------------


@RECORDERS.on("game_set_up")
def game_set_up(state: TendState, event: pb.GameSetUp) -> TendState:
    c = content()
    drawn = [card for p in event.players for card in p.neighbours]
    players = tuple(
        Player(
            tilled=tuple(sorted(farm_number(cell) for cell in c.start_tilled)),
            fences=tuple(sorted(farm_number(cell) for cell in c.start_fences)),
            chop_level=c.level_start,
            mine_level=c.level_start,
            woods=_scratch(p.woods),
            mine=_scratch(p.mine),
            drawn=(("setup", tuple(p.neighbours)),),
        )
        for p in event.players
    )
    seasons = tuple(event.upcoming)
    return TendState(
        seats=event.seats,
        advanced_cards=event.advanced_cards,
        round_timer=event.round_timer,
        round=0,
        phase="start",
        objectives=tuple(event.objectives),
        row=tuple(event.row),
        upcoming=tuple(Upcoming(top, seasons) for top in event.tops),
        season_seen=tuple(sorted(event.tops)),
        task_deck=tuple(sorted(set(c.decks["starter"]) - set(event.row))),
        neighbour_deck=tuple(sorted(set(c.neighbour_cards) - set(drawn))),
        players=players,
    )


@RECORDERS.on("phase_began")
def phase_began(state: TendState, event: pb.PhaseBegan) -> TendState:
    gifts = event.phase in ("neighbour", "final")
    players = tuple(
        replace(
            p,
            done=False,
            chosen=(),
            fresh=(),
            gifts=p.incoming if gifts else p.gifts,
            incoming=() if gifts else p.incoming,
        )
        for p in state.players
    )
    return replace(state, round=event.round, phase=event.phase, players=players)


@RECORDERS.on("phase_finished")
def phase_finished(state: TendState, event: pb.PhaseFinished) -> TendState:
    return with_player(state, event.seat, done=True)


@RECORDERS.on("time_called")
def time_called(state: TendState, event: pb.TimeCalled) -> TendState:
    for seat in event.stopped:
        state = with_player(
            state,
            seat,
            done=True,
            task=None,
            line=(),
            bonus=(),
            card=-1,
            half="",
            chose=False,
            pending=(),
            geodes=(),
            purse=0,
        )
    return state


@RECORDERS.on("objective_scored")
def objective_scored(state: TendState, event: pb.ObjectiveScored) -> TendState:
    players = tuple(
        replace(p, objectives=(*p.objectives, points))
        for p, points in zip(state.players, event.points, strict=True)
    )
    return replace(state, players=players)


@RECORDERS.on("task_row_dealt")
def task_row_dealt(state: TendState, event: pb.TaskRowDealt) -> TendState:
    discard = (*state.task_discard, *state.row)
    drawn = list(event.row[: len(event.row) - len(state.upcoming)])
    deck = state.task_deck
    if event.reshuffled:
        deck, discard = (*deck, *discard), ()
    upcoming = tuple(
        Upcoming(top, u.seasons[1:] if top else ())
        for u, top in zip(state.upcoming, event.tops, strict=True)
    )
    return replace(
        state,
        row=tuple(event.row),
        task_deck=tuple(sorted(_minus(deck, drawn))),
        task_discard=discard,
        upcoming=upcoming,
        season_seen=added(state.season_seen, *(t for t in event.tops if t)),
    )


@RECORDERS.on("game_finished")
def game_finished(state: TendState, event: pb.GameFinished) -> TendState:
    final = tuple(
        FinalScore(
            s.seat,
            s.total,
            tuple(s.objectives),
            tuple(s.stalls),
            s.badges,
            s.neighbour,
            s.doubled,
        )
        for s in event.scores
    )
    return replace(state, phase="finished", final=final, winners=tuple(event.winners))


# -- neighbours ------------------------------------------------------------------------------


@RECORDERS.on("neighbours_kept")
def neighbours_kept(state: TendState, event: pb.NeighboursKept) -> TendState:
    player = state.players[event.seat]
    others = _minus(dict(player.drawn)["setup"], [event.left, event.right])
    state = replace(state, neighbour_discard=(*state.neighbour_discard, *others))
    return with_player(state, event.seat, left=event.left, right=event.right, drawn=(), done=True)


@RECORDERS.on("neighbours_drawn")
def neighbours_drawn(state: TendState, event: pb.NeighboursDrawn) -> TendState:
    deck, discard = state.neighbour_deck, state.neighbour_discard
    if event.reshuffled:
        deck, discard = (*deck, *discard), ()
    state = replace(
        state,
        neighbour_deck=tuple(sorted(_minus(deck, list(event.cards)))),
        neighbour_discard=discard,
    )
    player = state.players[event.seat]
    return with_player(state, event.seat, drawn=(*player.drawn, (event.side, tuple(event.cards))))


@RECORDERS.on("neighbour_kept")
def neighbour_kept(state: TendState, event: pb.NeighbourKept) -> TendState:
    player = state.players[event.seat]
    drawn = dict(player.drawn)
    others = _without(drawn.pop(event.side), event.card)
    state = replace(state, neighbour_discard=(*state.neighbour_discard, *others))
    fresh = (*player.fresh, event.side)
    return with_player(
        state, event.seat, drawn=tuple(drawn.items()), fresh=fresh, **{event.side: event.card}
    )


@RECORDERS.on("neighbour_discarded")
def neighbour_discarded(state: TendState, event: pb.NeighbourDiscarded) -> TendState:
    state = replace(state, neighbour_discard=(*state.neighbour_discard, event.card))
    return with_player(state, event.seat, **{event.side: ""})


@RECORDERS.on("gift_taken")
def gift_taken(state: TendState, event: pb.GiftTaken) -> TendState:
    player = state.players[event.seat]
    state = replace(state, neighbour_discard=(*state.neighbour_discard, event.card))
    return with_player(state, event.seat, gifts=_without(player.gifts, event.card))


@RECORDERS.on("good_gifted")
def good_gifted(state: TendState, event: pb.GoodGifted) -> TendState:
    player = state.players[event.seat]
    track = "track_left" if event.side == "left" else "track_right"
    state = with_player(
        state,
        event.seat,
        pending=_without(player.pending, event.good),
        **{event.side: "", track: getattr(player, track) + event.boxes},
    )
    if event.to_seat < 0:
        return replace(state, neighbour_discard=(*state.neighbour_discard, event.card))
    receiver = state.players[event.to_seat]
    return with_player(state, event.to_seat, incoming=(*receiver.incoming, event.card))


# -- the task phase --------------------------------------------------------------------------


@RECORDERS.on("card_chosen")
def card_chosen(state: TendState, event: pb.CardChosen) -> TendState:
    player = state.players[event.seat]
    return with_player(
        state,
        event.seat,
        card=event.slot,
        half="top",
        chose=False,
        chosen=(*player.chosen, event.slot),
    )


@RECORDERS.on("option_chosen")
def option_chosen(state: TendState, event: pb.OptionChosen) -> TendState:
    return with_player(state, event.seat, half=event.half, chose=True)


@RECORDERS.on("card_finished")
def card_finished(state: TendState, event: pb.CardFinished) -> TendState:
    return with_player(state, event.seat, card=-1, half="", chose=False)


@RECORDERS.on("task_queued")
def task_queued(state: TendState, event: pb.TaskQueued) -> TendState:
    player = state.players[event.seat]
    waiting = Waiting(event.task, event.bonus, event.source)
    if event.source == "card":
        return with_player(state, event.seat, line=(*player.line, waiting))
    return with_player(state, event.seat, bonus=(*player.bonus, waiting))


@RECORDERS.on("task_began")
def task_began(state: TendState, event: pb.TaskBegan) -> TendState:
    player = state.players[event.seat]
    task = Task(event.task, event.actions, event.source)
    if event.source == "card":
        return with_player(state, event.seat, task=task, line=player.line[1:])
    return with_player(state, event.seat, task=task, bonus=player.bonus[1:])


@RECORDERS.on("task_ended")
def task_ended(state: TendState, event: pb.TaskEnded) -> TendState:
    return with_player(state, event.seat, task=None)


@RECORDERS.on("actions_changed")
def actions_changed(state: TendState, event: pb.ActionsChanged) -> TendState:
    player = state.players[event.seat]
    assert player.task is not None
    return with_player(
        state, event.seat, task=_task(player, actions=player.task.actions + event.delta)
    )


@RECORDERS.on("energy_used")
def energy_used(state: TendState, event: pb.EnergyUsed) -> TendState:
    player = state.players[event.seat]
    energy = tuple((bar, c - 1 if bar == event.bar else c) for bar, c in player.energy)
    return with_player(state, event.seat, energy=energy, task=_task(player, energy_used=True))


# -- woods, mine, fishing ----------------------------------------------------------------------


@RECORDERS.on("square_scratched")
def square_scratched(state: TendState, event: pb.SquareScratched) -> TendState:
    player = state.players[event.seat]
    scratch = player.scratch(event.area)
    done = (*scratch.scratched, (event.square, square_of(event.content)))
    return with_player(state, event.seat, **{event.area: replace(scratch, scratched=done)})


@RECORDERS.on("level_gained")
def level_gained(state: TendState, event: pb.LevelGained) -> TendState:
    return with_player(state, event.seat, **{f"{event.track}_level": event.level})


@RECORDERS.on("geode_rolled")
def geode_rolled(state: TendState, event: pb.GeodeRolled) -> TendState:
    if event.good:
        return state
    player = state.players[event.seat]
    return with_player(state, event.seat, geodes=(*player.geodes, (event.black, event.white)))


@RECORDERS.on("geode_cracked")
def geode_cracked(state: TendState, event: pb.GeodeCracked) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, geodes=player.geodes[1:])


@RECORDERS.on("line_cast")
def line_cast(state: TendState, event: pb.LineCast) -> TendState:
    player = state.players[event.seat]
    task = _task(player, area=event.area, black=event.black, white=event.white)
    return with_player(state, event.seat, task=task)


@RECORDERS.on("aimed")
def aimed(state: TendState, event: pb.Aimed) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, task=_task(player, centre=event.square, rod=event.rod))


@RECORDERS.on("fish_caught")
def fish_caught(state: TendState, event: pb.FishCaught) -> TendState:
    player = state.players[event.seat]
    assert player.task is not None
    task = _task(player, caught=(*player.task.caught, event.square))
    return with_player(state, event.seat, task=task)


# -- the farm ---------------------------------------------------------------------------------


def _die_kind(crop_or_animal: str) -> str:
    c = content()
    if crop_or_animal in c.crops:
        return c.crops[crop_or_animal].die
    return c.animals[crop_or_animal].die


@RECORDERS.on("crop_planted")
def crop_planted(state: TendState, event: pb.CropPlanted) -> TendState:
    player = state.players[event.seat]
    die = Die(_die_kind(event.crop), event.cell, 1)
    return with_player(state, event.seat, dice=(*player.dice, die))


def _ticked(player: Player, ticked: list[pb.DieTicked]) -> tuple[Die, ...]:
    changes = {t.cell: t for t in ticked}
    dice = []
    for die in player.dice:
        t = changes.get(die.cell)
        if t is None:
            dice.append(die)
        elif t.then != "return":
            dice.append(replace(die, value=1 if t.then == "reset" else t.value))
    return tuple(dice)


@RECORDERS.on("dice_grew")
def dice_grew(state: TendState, event: pb.DiceGrew) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, dice=_ticked(player, list(event.dice)))


@RECORDERS.on("crops_watered")
def crops_watered(state: TendState, event: pb.CropsWatered) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, dice=_ticked(player, list(event.dice)))


@RECORDERS.on("mark_drawn")
def mark_drawn(state: TendState, event: pb.MarkDrawn) -> TendState:
    player = state.players[event.seat]
    cell = event.cell
    pending = _without(player.pending, event.mark)
    if event.mark == "tilled":
        return with_player(state, event.seat, pending=pending, tilled=added(player.tilled, cell))
    if event.mark == "fence":
        return with_player(state, event.seat, pending=pending, fences=added(player.fences, cell))
    return with_player(state, event.seat, pending=pending, trellises=(*player.trellises, cell))


@RECORDERS.on("animal_placed")
def animal_placed(state: TendState, event: pb.AnimalPlaced) -> TendState:
    player = state.players[event.seat]
    die = Die(_die_kind(event.animal), event.cell, 1)
    owed = _without(player.owed_animals, event.animal)
    return with_player(state, event.seat, dice=(*player.dice, die), owed_animals=owed)


@RECORDERS.on("animal_moved")
def animal_moved(state: TendState, event: pb.AnimalMoved) -> TendState:
    player = state.players[event.seat]
    origin, target = event.from_cell, event.to_cell
    dice = tuple(replace(d, cell=target) if d.cell == origin else d for d in player.dice)
    return with_player(state, event.seat, dice=dice)


# -- goods, coins and sheets -------------------------------------------------------------------


@RECORDERS.on("goods_gained")
def goods_gained(state: TendState, event: pb.GoodsGained) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, pending=(*player.pending, *event.goods))


@RECORDERS.on("coins_gained")
def coins_gained(state: TendState, event: pb.CoinsGained) -> TendState:
    player = state.players[event.seat]
    return with_player(state, event.seat, purse=player.purse + event.coins)


@RECORDERS.on("coins_lost")
def coins_lost(state: TendState, event: pb.CoinsLost) -> TendState:
    return with_player(state, event.seat, purse=0)


@RECORDERS.on("good_spent")
def good_spent(state: TendState, event: pb.GoodSpent) -> TendState:
    player = state.players[event.seat]
    crossed = added(player.crossed, (event.feature, event.space))
    if event.good == "coin":
        return with_player(state, event.seat, crossed=crossed, purse=player.purse - 1)
    pending = _without(player.pending, event.good)
    return with_player(state, event.seat, crossed=crossed, pending=pending)


def _used(state: TendState, seat: int, good: str) -> TendState:
    player = state.players[seat]
    return with_player(state, seat, pending=_without(player.pending, good))


@RECORDERS.on("good_sold")
def good_sold(state: TendState, event: pb.GoodSold) -> TendState:
    return _used(state, event.seat, event.good)


@RECORDERS.on("good_groundskept")
def good_groundskept(state: TendState, event: pb.GoodGroundskept) -> TendState:
    return _used(state, event.seat, event.good)


@RECORDERS.on("good_discarded")
def good_discarded(state: TendState, event: pb.GoodDiscarded) -> TendState:
    return _used(state, event.seat, event.good)


@RECORDERS.on("good_shipped")
def good_shipped(state: TendState, event: pb.GoodShipped) -> TendState:
    state = _used(state, event.seat, event.good)
    player = state.players[event.seat]
    cells = tuple(event.cells)
    return with_player(state, event.seat, shipped=(*player.shipped, (event.good, cells)))


@RECORDERS.on("row_completed")
def row_completed(state: TendState, event: pb.RowCompleted) -> TendState:
    player = state.players[event.seat]
    return with_player(
        state, event.seat, rows_done=added(player.rows_done, (event.feature, event.row))
    )


@RECORDERS.on("unlocked")
def unlocked(state: TendState, event: pb.Unlocked) -> TendState:
    player = state.players[event.seat]
    what, name = event.what, event.name
    if what == "area":
        return with_player(state, event.seat, areas=added(player.areas, name))
    if what == "tool":
        return with_player(state, event.seat, tools=added(player.tools, name))
    if what == "rod":
        return with_player(state, event.seat, rods=added(player.rods, name))
    if what == "lure":
        return with_player(state, event.seat, lure=True)
    if what == "energy":
        return with_player(state, event.seat, energy=(*player.energy, (name, event.amount)))
    if what == "ability":
        return with_player(state, event.seat, abilities=added(player.abilities, name))
    if what == "explorer":
        return with_player(state, event.seat, explorer=True)
    if what == "animal":
        return with_player(state, event.seat, owed_animals=(*player.owed_animals, name))
    return with_player(state, event.seat, badges=(*player.badges, name))
