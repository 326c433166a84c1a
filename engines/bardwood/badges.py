"""Badges: your own leave your track left to right; opponents' are kept on your Character
card and spent there while Singing.

"If you ever gain one of your own Badges back, do not put it back on your player board;
instead, remove it from the game." "Only opponents' Badges can be spent": 3 for 4 VP
crystals, 2 to activate a Motif, 1 for a Songstone or a coin, returned to the box.
"""

from __future__ import annotations

from engines.bardwood import codes
from engines.bardwood.batch import Batch
from engines.bardwood.content import content
from engines.bardwood.icons import gain
from engines.bardwood.state import BardwoodState
from proto import bardwood_pb2 as pb

__all__ = ["challenge_melody", "spend_badges", "spendings", "visible_blue_halves"]


def challenge_melody(state: BardwoodState, seat: int) -> int:
    """The Melody icons visible on ``seat``'s Badge track (what Challenging it costs)."""
    c = content()
    gone = c.badges - state.player(seat).badges
    return c.badge_base_melody + sum(spot.melody for spot in c.badge_spots[:gone])


def visible_blue_halves(state: BardwoodState, seat: int) -> int:
    """Blue VP (in halves) uncovered on ``seat``'s Badge track."""
    c = content()
    gone = c.badges - state.player(seat).badges
    return sum(spot.blue_halves for spot in c.badge_spots[:gone])


def spend_badges(state: BardwoodState, cmd: pb.SpendBadges, seat: int) -> list[pb.Event]:
    """Return opponents' Badges from your Character card to the box for its bonus."""
    rewards = {r.id: r for r in content().badge_rewards}
    reward = rewards.get(cmd.reward)
    if reward is None:
        raise codes.NO_SUCH_REWARD()
    if state.player(seat).held < reward.badges:
        raise codes.TOO_FEW_BADGES(count=reward.badges)
    batch = Batch(state)
    batch.add("badges_spent", seat=seat, badges=reward.badges, reward=reward.id)
    gain(batch, seat, reward.gain, "badges")
    return batch.events


def spendings(state: BardwoodState, seat: int) -> list[pb.SpendBadges]:
    """The rewards the Badges on the Character card can buy now."""
    held = state.player(seat).held
    return [pb.SpendBadges(reward=r.id) for r in content().badge_rewards if r.badges <= held]
