"""The story of a finished game: each colour's chance of winning after every turn, the turns
that moved those chances most, and the moves of the people at the table that cost them most.

The chances come from the win-chance model (:mod:`.win_chance`): each colour's chance from the
position after a turn, whose turn is next and the cards not seen since the last shuffle.  Its
error is measured over self-play games (the player lab's ``pawnlight_lab.story_calibration``,
docs/players.md "The game's story") and stated with every story; a move's cost is told only
when it is larger than that.

The result is plain JSON, the shape ``pawnlight games story ID --json`` prints (docs/records.md):
``{"game", "turns", "turning_points", "costly_moves", "estimator"}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import PawnlightError
from ..rules.board import COLOURS, HOME, PARTNER, TRACK_SQUARES
from ..rules.cards import count, pack
from ..rules.editions import Variant
from ..rules.game import Game, Turn
from ..rules.moves import Move, StepKind, legal_options
from ..rules.position import Position
from .base import distinct_moves
from .evaluation import TOGO, Evaluator
from .view import card_probabilities
from .win_chance import WinChance

#: The estimator's name as the story states it.
ESTIMATOR = "win-chance model"
#: Its error: the largest gap between the chance given and the share of games won, over the
#: bands of chances of the calibration run (1.2 points over 1,000 games), rounded up to allow
#: for its sampling noise (docs/players.md, "The game's story").
ERROR = 0.02
#: The model was fitted on tables of four, where it is too sure of a leader at smaller tables:
#: its utilities are divided by this, per number of colours playing, fitted on self-play games
#: apart from the calibration's (``python -m pawnlight_lab.story_calibration --fit``).
TEMPERATURE: dict[int, float] = {2: 1.255, 3: 1.301, 4: 1.091}
#: How many turning points and costly moves a story tells.
TURNING_POINTS = 3
COSTLY_MOVES = 3
#: The variants a story is told for: a race to HOME, the game the model was fitted on.
RACES = (Variant.STANDARD, Variant.QUICK)

Progress = Callable[[int, int], None]


class StoryError(PawnlightError, ValueError):
    """This game has no story (unfinished, no winner, or a variant that is not a race)."""


def name(colour: int) -> str:
    return COLOURS[colour].capitalize()


def seen_since_shuffle(cards: Sequence[str], extra_one: bool) -> dict[str, int]:
    """The cards not yet seen since the last shuffle, after ``cards`` were drawn in order
    (one card a turn; the pack is reshuffled when the pile runs out)."""
    size = len(pack(extra_one))
    since = len(cards) % size
    unseen = count(pack(extra_one))
    for card in cards[len(cards) - since :] if since else ():
        unseen[card] = max(0, unseen[card] - 1)
    return unseen


class Judge:
    """Each colour's chance to win a position, for one game's table."""

    def __init__(self, order: Sequence[int], teams: bool, extra_one: bool) -> None:
        self.order = tuple(order)
        self.teams = teams
        self.extra_one = extra_one
        self._evaluators: dict[tuple[tuple[str, int], ...], WinChance] = {}

    def _model(self, unseen: Mapping[str, int]) -> WinChance:
        key = tuple(sorted(unseen.items()))
        found = self._evaluators.get(key)
        if found is None:
            order = self.order
            evaluator = Evaluator(
                (order[0],), order[1:], card_probabilities(unseen), teams=self.teams
            )
            found = WinChance(evaluator, (order[0],), order)
            if len(self._evaluators) > 256:
                self._evaluators.clear()
            self._evaluators[key] = found
        return found

    def chances(
        self, position: Position, to_move: int, unseen: Mapping[str, int]
    ) -> dict[int, float]:
        """Each colour's chance that it (in partnership: its side) wins; a side home has 1."""
        won = [c for c in self.order if self._side_home(position, c)]
        if won:
            return {c: 1.0 if c in won else 0.0 for c in self.order}
        raw = self.softmax(self.utilities(position, to_move, unseen))
        if not self.teams:
            return {c: raw.get(c, 0.0) for c in self.order}
        return {c: raw.get(c, 0.0) + raw.get(PARTNER[c], 0.0) for c in self.order}

    def utilities(
        self, position: Position, to_move: int, unseen: Mapping[str, int]
    ) -> dict[int, float]:
        """The win-chance model's utility of each playing colour (its chance's logit)."""
        model = self._model(unseen)
        weights = model.model.weights
        return {
            colour: sum(w * x for w, x in zip(weights, figures, strict=True))
            for colour, figures in model.features(position, to_move).items()
        }

    def softmax(self, utilities: Mapping[int, float]) -> dict[int, float]:
        """The chances from the utilities, tempered for the table's size (:data:`TEMPERATURE`)."""
        temperature = TEMPERATURE.get(len(utilities), 1.0)
        top = max(utilities.values())
        exp = {c: math.exp((u - top) / temperature) for c, u in utilities.items()}
        total = sum(exp.values())
        return {c: e / total for c, e in exp.items()}

    def _side_home(self, position: Position, colour: int) -> bool:
        if self.teams:
            return position.all_home(colour) and position.all_home(PARTNER[colour])
        return position.all_home(colour)


def tell(
    game: Game,
    game_id: int,
    people: Sequence[int] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The story of a finished ``game`` (replayed from the journal) as the JSON object.

    ``people``: the colours played by people (their moves are judged); default every colour."""
    config = game.config
    if config.variant not in RACES:
        raise StoryError(f"game {game_id} is a {config.variant} game: a story is told only for "
                         "the standard and the quick game")  # fmt: skip
    if not game.over or game.result is None:
        raise StoryError(f"game {game_id} is not finished: its story is told once it is")
    if not game.result.winners:
        raise StoryError(f"game {game_id} ended early with no winner: it has no story")
    history = game.history
    judge = Judge(game.order, config.teams, config.extra_one)
    people_set = set(game.order if people is None else people)
    cards = [turn.card for turn in history]
    winners = set(game.result.winners)
    turns: list[dict[str, Any]] = []
    costly: list[dict[str, Any]] = []
    fresh = seen_since_shuffle([], config.extra_one)
    start = judge.chances(history[0].before, history[0].colour, fresh) if history else {}
    total = len(history)
    for index, turn in enumerate(history):
        unseen = seen_since_shuffle(cards[: index + 1], config.extra_one)
        to_move = history[index + 1].colour if index + 1 < total else turn.colour
        if index + 1 == total:
            chances = {c: 1.0 if c in winners else 0.0 for c in game.order}
        else:
            chances = judge.chances(turn.after, to_move, unseen)
        turns.append(
            {
                "turn": index + 1,
                "colour": COLOURS[turn.colour],
                "card": turn.card,
                "text": turn.text,
                "chances": {COLOURS[c]: round(p, 4) for c, p in chances.items()},
            }
        )
        # The last turn won the game: no move did better than that.
        if turn.colour in people_set and turn.text != "discard" and index + 1 < total:
            found = _cost(judge, game, turn, to_move, unseen, chances[turn.colour], index)
            if found is not None:
                costly.append(found)
        if progress is not None:
            progress(index + 1, total)
    return {
        "game": game_id,
        "turns": turns,
        "turning_points": turning_points(start, game, turns),
        "costly_moves": sorted(costly, key=lambda m: (-m["cost"], m["turn"]))[:COSTLY_MOVES],
        "estimator": {"name": ESTIMATOR, "error": ERROR},
    }


def _cost(
    judge: Judge,
    game: Game,
    turn: Turn,
    to_move: int,
    unseen: Mapping[str, int],
    played: float,
    index: int,
) -> dict[str, Any] | None:
    """The chance the turn's move cost its colour against the best move it had, if beyond the
    estimator's error."""
    options = legal_options(turn.before, turn.colour, turn.card, game.edition, game.config.teams)
    moves = distinct_moves(options.moves)
    if len(moves) + (1 if options.forfeit and moves else 0) < 2:
        return None
    # The next to move after any of the moves: the card's own rule (a 2 plays again), the same
    # for every choice, so the one that followed in the game.
    best, best_move = -1.0, None
    for move in moves:
        chance = judge.chances(move.after, to_move, unseen)[turn.colour]
        if chance > best:
            best, best_move = chance, move
    if options.forfeit:
        stay = judge.chances(turn.before, to_move, unseen)[turn.colour]
        if stay > best:
            best, best_move = stay, None
    cost = best - played
    if cost <= ERROR:
        return None
    who = name(turn.colour)
    instead = "not moving" if best_move is None else move_words(best_move, turn.colour)
    words = (
        f"{turn_words(turn, game)}. {instead[:1].upper() + instead[1:]} would have kept "
        f"{round(cost * 100)} points more of {who}'s chance of winning"
    )
    return {
        "turn": index + 1,
        "colour": COLOURS[turn.colour],
        "cost": round(cost, 4),
        "words": words,
    }


def _played_words(turn: Turn, game: Game) -> str:
    options = legal_options(turn.before, turn.colour, turn.card, game.edition, game.config.teams)
    for move in options.moves:
        if move.after == turn.after:
            return move_words(move, turn.colour)
    return "the move played"


def card_words(card: str) -> str:
    return "Sorry!" if card == "sorry" else card


def turning_points(
    start: Mapping[int, float], game: Game, turns: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The turns that moved one colour's chance most (one entry per turn), in turn order.  The
    last turn, which ends the game, is not one: the game's result tells it."""
    found = []
    previous = {COLOURS[c]: p for c, p in start.items()}
    for turn, told in zip(game.history[:-1], turns[:-1], strict=True):
        now = told["chances"]
        colour = max(now, key=lambda c: (abs(now[c] - previous[c]), c == COLOURS[turn.colour]))
        swing = round(now[colour] - previous[colour], 4)
        found.append((abs(swing), told["turn"], colour, swing, previous[colour], now[colour], turn))
        previous = now
    found.sort(key=lambda f: (-f[0], f[1]))
    chosen = sorted(found[:TURNING_POINTS], key=lambda f: f[1])
    return [
        {
            "turn": number,
            "colour": colour,
            "swing": swing,
            "words": f"{turn_words(turn, game)}. {colour.capitalize()}'s chance "
            f"{'rose' if swing > 0 else 'fell'} from {round(was * 100)}% to {round(now * 100)}%",
        }
        for _, number, colour, swing, was, now, turn in chosen
    ]


def turn_words(turn: Turn, game: Game) -> str:
    """A turn in the family's words: "Blue's Sorry!: sending Red back to start"."""
    who = f"{name(turn.colour)}'s {card_words(turn.card)}"
    if turn.text == "forfeit":
        return f"{who} could not be played"
    if turn.text == "discard":
        return f"{who} was discarded"
    return f"{who}: {_played_words(turn, game)}"


def move_words(move: Move, mover: int) -> str:
    """A move in words, no square codes: what it does, or how far it goes."""
    parts = []
    for step in move.steps:
        colour = step.colour
        own = "" if colour == mover else f"{name(colour)}'s "
        togo = TOGO[colour]
        if step.kind == StepKind.SORRY:
            victim = name(step.bumped[0][0]) if step.bumped else "a pawn"
            parts.append(f"sending {victim} back to start")
            continue
        if step.kind == StepKind.START_OUT:
            parts.append(f"taking {own}a pawn out of start")
        elif step.kind == StepKind.SWITCH:
            parts.append(
                f"switching places with {name(step.swapped)}, to {togo[step.target]} steps "
                "from home"
            )
        else:
            end = step.slide.end if step.slide is not None else step.target
            if end == HOME:
                parts.append(f"bringing {own}a pawn home")
            elif end >= TRACK_SQUARES > step.origin:
                parts.append(f"moving {own}a pawn into the safety zone")
            else:
                way = "back" if step.kind == StepKind.BACKWARD else "on"
                parts.append(f"moving {own}a pawn {way} to {togo[end]} steps from home")
        if step.slide is not None:
            parts[-1] += " with a slide"
        victims = sorted({name(c) for c, _ in step.bumped if c != mover})
        if victims and step.kind != StepKind.SWITCH:
            parts[-1] += f" and bumping {' and '.join(victims)}"
    return " and ".join(parts) or "moving"
