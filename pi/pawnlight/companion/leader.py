"""The leader draw: each player scans a card, the highest leads; ties draw again.  Kept in the
journal (``Remember("leader", ...)``) so a restart goes on with the next player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..i18n.marks import N_
from ..i18n.message import Message, msg, say
from ..rules import phrases
from ..rules.board import COLOURS
from ..rules.cards import leader_draw
from ..rules.game import GameConfig
from .config import ConfigError, new_game
from .phases import CompanionPhase
from .recognition import enter
from .signals import Buzz, Effect, Remember
from .table import LeaderDraw, Table, seat_players, seats_of

LEADER_DRAW = N_("Leader draw: %(colour)s, scan a card")
LEADER_NEXT = N_("%(colour)s drew a %(card)s; %(next)s, scan a card")
LEADER_TIE = N_("%(colours)s tie: draw again, %(first)s first")
SORRY = N_("sorry")


def _colour(name: str) -> Message | str:
    return phrases.colour(COLOURS.index(name)) if name in COLOURS else name


def begin(table: Table, config: GameConfig) -> list[Effect]:
    """Start the draw for a game of ``config`` (the match is over: a new one starts after)."""
    table.match = None
    table.leader = LeaderDraw(config, list(config.players), {})
    enter(table, CompanionPhase.LEADER)
    table.message = say(msg(LEADER_DRAW, colour=_colour(config.players[0])))
    return [remember(table)]


def scan(table: Table, card: str) -> tuple[list[Effect], GameConfig | None]:
    """A card drawn for the lead: the effects, and the game's config (the leader first) once
    the draw is decided; the caller starts that game."""
    draw = table.leader
    assert draw is not None
    colour = draw.drawing.pop(0)
    draw.draws[colour] = card
    if draw.drawing:
        table.message = say(
            msg(
                LEADER_NEXT,
                colour=_colour(colour),
                card=Message(SORRY) if card == "sorry" else card,
                next=_colour(draw.drawing[0]),
            )
        )
        return [remember(table), Buzz("turn")], None
    best = leader_draw(draw.draws)
    if len(best) > 1:
        draw.drawing = list(best)
        draw.draws = {}
        draw.rounds += 1
        table.message = say(
            msg(
                LEADER_TIE,
                colours=phrases.joined(_colour(c) for c in best),
                first=_colour(best[0]),
            )
        )
        return [remember(table), Buzz("turn")], None
    leader = best[0]
    players = [p for p in draw.config.players if p != leader]
    table.deck.shuffled()  # the drawn cards go back into the pack
    return [], replace(draw.config, players=(leader, *players))


def remember(table: Table) -> Remember:
    """The draw as the journal keeps it."""
    draw = table.leader
    assert draw is not None
    config = draw.config
    return Remember(
        "leader",
        {
            "edition": config.edition,
            "variant": config.variant,
            "players": list(config.players),
            "teams": config.teams,
            "extra_one": config.extra_one,
            "house_rules": list(config.house_rules),
            "computer": dict(seats_of(table)),
            "drawing": list(draw.drawing),
            "draws": dict(draw.draws),
            "round": draw.rounds,
        },
    )


#: The fields of the kept draw that are the game's request.
_GAME_FIELDS = ("edition", "variant", "players", "teams", "extra_one", "house_rules", "computer")


def restore(table: Table, saved: Mapping[str, object]) -> list[Effect]:
    """Carry on with a leader draw interrupted by a restart (kept in the journal)."""
    try:
        request = new_game({k: saved[k] for k in _GAME_FIELDS if k in saved})
        players = request.config.players
        drawing, draws, rounds = saved["drawing"], saved["draws"], saved["round"]
        if not (
            isinstance(drawing, list)
            and drawing
            and all(d in players for d in drawing)
            and isinstance(draws, dict)
            and all(c in players and isinstance(v, str) for c, v in draws.items())
            and isinstance(rounds, int)
        ):
            raise ConfigError("its draws do not fit its players")
    except (ConfigError, KeyError) as error:
        table.warning = f"the leader draw in progress was not restored: {error}"
        return [Remember("leader", None)]
    table.computer = seat_players(request.computer)
    table.match = None
    table.leader = LeaderDraw(request.config, list(drawing), dict(draws), rounds)
    enter(table, CompanionPhase.LEADER)
    table.message = f"Leader draw resumed: {drawing[0]}, scan a card"
    return []
