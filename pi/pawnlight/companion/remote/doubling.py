"""Point play's doubling across boards: the doubles called and answered here published for
the others, and theirs taken in once the game here reaches them."""

from __future__ import annotations

from collections.abc import Mapping

from ...i18n.marks import N_
from ...i18n.message import Message, msg
from ...i18n.message import say as said
from ...remote.protocol import (
    DoublingEvent,
)
from ...rules import phrases
from ...rules.board import COLOURS
from ...rules.editions import Variant
from ...rules.game import Doubling, Game, GameError, Phase
from ..phases import CompanionPhase
from ..points import after_doubling
from ..signals import (
    Buzz,
    Effect,
    PublishDoubling,
)
from ..table import RemoteGame, Table
from .saying import not_seated, say

#: How a doubling reads in the board's news, by its action.
#: Another board's double or answer, copied here: the turn's news.
DOUBLED_THERE = {
    "double": N_("%(colour)s (at %(board)s) doubles"),
    "accept": N_("%(colour)s (at %(board)s) accepts the double"),
    "drop": N_("%(colour)s (at %(board)s) drops out"),
}
#: The protocol's doubling actions as a player chooses them (a value in a sentence).
ACTIONS = {"double": N_("double"), "accept": N_("accept"), "drop": N_("drop")}
CHOSE_OTHERWISE = N_(
    "board %(board)s says %(colour)s chose %(action)s on double %(n)s, but here %(colour)s "
    "chose %(mine)s: the boards are out of step"
)
TWO_ANSWERS = N_("board %(board)s sent two different answers for %(colour)s: out of step")


def publish_doublings(game: Game, remote: RemoteGame) -> list[Effect]:
    """The doubles called and answered here (recorded first, as turns are), for the others."""
    if game.config.variant != Variant.POINTS:
        return []  # no doubling to look for (this runs after every input)
    doublings = game.doublings()
    remote.doublings_offered = min(remote.doublings_offered, len(doublings))
    effects: list[Effect] = []
    for each in doublings[remote.doublings_offered :]:
        if remote.seated_at(each.turns).get(each.colour) == remote.me:
            event = DoublingEvent(
                remote.setup.game, each.round, each.turns, remote.me, each.colour, each.action
            )
            effects.append(PublishDoubling(event))
    remote.doublings_offered = len(doublings)
    return effects


def doubling_heard(table: Table, remote: RemoteGame, heard: DoublingEvent) -> list[Effect]:
    """Another board's double or answer: kept until the game reaches the point it was said at."""
    if heard.game != remote.setup.game or heard.board == remote.me or table.game is None:
        return []
    refused = not_seated(table, remote, heard.action, heard.board, heard.colour, heard.seq)
    if refused:
        return refused
    key = (heard.round, heard.colour)
    held = remote.doubling_inbox.get(key)
    if held is not None and held != heard:
        say(table, msg(TWO_ANSWERS, board=heard.board, colour=phrases.colour(heard.colour)))
        return [Buzz("illegal")]
    remote.doubling_inbox[key] = heard
    return []


def take_doublings(table: Table, remote: RemoteGame) -> list[Effect]:
    """Play the other boards' doublings the game has reached, in order: a double when the game
    waits for its caller's card at the turn it was called, an answer while its double waits."""
    game = table.game
    assert game is not None
    effects: list[Effect] = []
    while remote.doubling_inbox and not game.over:
        done = game.doublings()
        effects += _drop_seen(table, remote, {(d.round, d.colour): d for d in done})
        called = sum(1 for d in done if d.action == "double")
        ready = next(
            (e for e in remote.doubling_inbox.values() if _doubling_ready(table, game, e, called)),
            None,
        )
        if ready is None:
            break
        del remote.doubling_inbox[(ready.round, ready.colour)]
        name = COLOURS[ready.colour]
        try:
            getattr(game, ready.action)(ready.colour)
        except GameError as error:
            say(table, f"{name.capitalize()}'s {ready.action} from board {ready.board}: {error}")
            effects.append(Buzz("illegal"))
            continue
        table.news = said(
            msg(
                DOUBLED_THERE[ready.action],
                colour=phrases.capital(ready.colour),
                board=ready.board,
            )
        )
        effects += [*after_doubling(table), Buzz("turn")]
    return effects


def _doubling_ready(table: Table, game: Game, event: DoublingEvent, called: int) -> bool:
    if event.action == "double":
        return (
            event.round == called
            and event.seq == len(game.history)
            and game.phase == Phase.DRAW
            and game.turn == event.colour
            and table.phase in (CompanionPhase.DRAW, CompanionPhase.SETUP)
        )
    return (
        event.round == called - 1
        and game.phase == Phase.DOUBLE
        and event.colour in game.waiting_for
    )


def _drop_seen(
    table: Table, remote: RemoteGame, seen: Mapping[tuple[int, int], Doubling]
) -> list[Effect]:
    """Doublings this game has already (a copy again, or its own after a restart): dropped,
    and one that differs from the game's said to be out of step."""
    effects: list[Effect] = []
    for key, event in list(remote.doubling_inbox.items()):
        mine = seen.get(key)
        if mine is None:
            continue
        del remote.doubling_inbox[key]
        if (mine.action, mine.turns) != (event.action, event.seq):
            say(
                table,
                msg(
                    CHOSE_OTHERWISE,
                    board=event.board,
                    colour=phrases.colour(event.colour),
                    action=Message(ACTIONS[event.action]),
                    n=event.round + 1,
                    mine=Message(ACTIONS[mine.action]),
                ),
            )
            effects.append(Buzz("illegal"))
    return effects
