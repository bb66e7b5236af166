"""The story's sentences in the page's language: the turning points, the costly moves and a past
game's turns (pawnlight.players.story tells them in English when the game ends, and keeps them
so in the journal).  For another language they are said again here from the game's record and
the story's figures, each a whole sentence of the catalogs (docs/languages.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pawnlight.i18n.marks import N_
from pawnlight.players.evaluation import TOGO
from pawnlight.rules.board import COLOURS, HOME, TRACK_SQUARES
from pawnlight.rules.game import Game, Turn
from pawnlight.rules.moves import Move, StepKind, legal_options

from . import language
from .view import card_label

_ = language.gettext


def _colour(colour: int) -> str:
    return language.colour_name(COLOURS[colour])


def step_words(move: Move, mover: int) -> list[str]:
    """Each step of a move in words, no square codes: what it does, or how far it goes."""
    parts = []
    for step in move.steps:
        colour, togo = step.colour, TOGO[step.colour]
        own = colour == mover
        if step.kind == StepKind.SORRY:
            victims = [c for c, _place in step.bumped]
            parts.append(
                _(N_("sending %(colour)s back to START"), colour=_colour(victims[0]))
                if victims
                else _(N_("sending a pawn back to START"))
            )
            continue
        if step.kind == StepKind.START_OUT:
            said = (
                _(N_("taking a pawn out of START"))
                if own
                else _(N_("taking a pawn of %(colour)s out of START"), colour=_colour(colour))
            )
        elif step.kind == StepKind.SWITCH:
            said = _(
                N_("switching places with %(colour)s, to %(steps)s steps from HOME"),
                colour=_colour(step.swapped),
                steps=togo[step.target],
            )
        else:
            end = step.slide.end if step.slide is not None else step.target
            if end == HOME:
                said = (
                    _(N_("bringing a pawn HOME"))
                    if own
                    else _(N_("bringing a pawn of %(colour)s HOME"), colour=_colour(colour))
                )
            elif end >= TRACK_SQUARES > step.origin:
                said = (
                    _(N_("moving a pawn into the safety zone"))
                    if own
                    else _(
                        N_("moving a pawn of %(colour)s into the safety zone"),
                        colour=_colour(colour),
                    )
                )
            elif step.kind == StepKind.BACKWARD:
                said = _(N_("moving a pawn back to %(steps)s steps from HOME"), steps=togo[end])
            else:
                said = _(N_("moving a pawn on to %(steps)s steps from HOME"), steps=togo[end])
        if step.slide is not None:
            said = _(N_("%(move)s with a slide"), move=said)
        bumped = sorted({_colour(c) for c, _place in step.bumped if c != mover})
        if bumped and step.kind != StepKind.SWITCH:
            said = _(N_("%(move)s, bumping %(colours)s"), move=said, colours=", ".join(bumped))
        parts.append(said)
    return parts


def move_words(move: Move, mover: int) -> str:
    parts = step_words(move, mover)
    if not parts:
        return _(N_("moving"))
    said = parts[0]
    for part in parts[1:]:
        said = _(N_("%(first)s, then %(second)s"), first=said, second=part)
    return said


def _played(turn: Turn, game: Game) -> Move | None:
    options = legal_options(turn.before, turn.colour, turn.card, game.edition, game.config.teams)
    return next((move for move in options.moves if move.after == turn.after), None)


def turn_words(turn: Turn, game: Game) -> str:
    """A turn: ``Blaus Sorry!: Rot auf START zurückschicken``."""
    values = {"colour": _colour(turn.colour), "card": card_label(turn.card)}
    if turn.text == "forfeit":
        return _(N_("%(colour)s’s %(card)s could not be played"), **values)
    if turn.text == "discard":
        return _(N_("%(colour)s’s %(card)s was discarded"), **values)
    move = _played(turn, game)
    said = move_words(move, turn.colour) if move is not None else _(N_("the move played"))
    return _(N_("%(colour)s’s %(card)s: %(move)s"), move=said, **values)


def _percent(chance: float) -> int:
    return round(chance * 100)


def point_words(point: Mapping[str, Any], story: Mapping[str, Any], game: Game) -> str:
    """A turning point: the turn, and how the colour's chance moved."""
    number = int(point["turn"])
    turns: Sequence[Mapping[str, Any]] = story["turns"]
    colour = str(point["colour"])
    now = float(turns[number - 1]["chances"][colour])
    if number > 1:
        was = float(turns[number - 2]["chances"][colour])
    else:
        was = 1 / max(1, len(turns[0]["chances"]))
    message = (
        N_("%(turn)s. %(colour)s’s chance rose from %(was)s%% to %(now)s%%")
        if now > was
        else N_("%(turn)s. %(colour)s’s chance fell from %(was)s%% to %(now)s%%")
    )
    return _(
        message,
        turn=turn_words(game.history[number - 1], game),
        colour=language.colour_name(colour),
        was=_percent(was),
        now=_percent(now),
    )


def costly_words(move: Mapping[str, Any], game: Game) -> str:
    """A costly move: the turn, and how many points of its colour's chance it cost."""
    turn = game.history[int(move["turn"]) - 1]
    return _(
        N_(
            "%(turn)s. Another choice would have kept %(points)s points more of %(colour)s’s "
            "chance of winning"
        ),
        turn=turn_words(turn, game),
        points=_percent(float(move["cost"])),
        colour=_colour(turn.colour),
    )
