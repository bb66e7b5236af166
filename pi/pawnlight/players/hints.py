"""Hints for people: the move pawnlight would play with the card in hand."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.game import Game, Phase
from ..rules.moves import Move, legal_options
from .base import Player
from .registry import LEVELS, make_player
from .view import view_of

#: Seconds a hint may take: a person is waiting (docs/players.md "How fast").
HINT_TIME_LIMIT = 1.0


def hint(
    game: Game,
    card: str | None = None,
    player: Player | None = None,
    hand: Iterable[str] = (),
    discards: Iterable[str] | None = None,
) -> Move | None:
    """The move suggested to the colour whose turn it is, for ``card``.

    ``card`` defaults to the card drawn and waiting to be played (the game's ``move`` phase);
    in the ``draw`` phase any card can be asked about ("what if I play my 7?").  The hard
    level's player answers (the strongest measured that answers within ``HINT_TIME_LIMIT``)
    unless another ``player`` is given.  None when the card has no legal move, or when the best
    play is to decline an 11.  The game is not changed.
    """
    if game.over:
        return None
    if card is None:
        if game.phase != Phase.MOVE or game.card is None:
            raise ValueError("no card is waiting to be played: name the card to hint for")
        card = game.card
    if game.phase == Phase.MOVE and card == game.card and game.options is not None:
        options = game.options
    else:
        options = legal_options(game.position, game.turn, card, game.edition, game.config.teams)
    if not options.moves:
        return None
    view = view_of(game, hand=hand, discards=discards)
    if player is None:
        player = make_player(LEVELS["hard"], time_limit=HINT_TIME_LIMIT)
    return player.choose(view, card, options)
