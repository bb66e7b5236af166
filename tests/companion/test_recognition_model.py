"""Model-based: whatever the players do in any order — new games (mid-game, with the leader
draw), cards, moves, doubles and their answers, undo, restarts, the next game of a match — the
companion recognises exactly the legal moves of the card in play, and what it recorded replays to
the live game (issue #22)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pawnlight.companion.machine import Companion
from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import RecordEvent, Remember, StartRecord
from pawnlight.rules import Game, move_text
from pawnlight.rules.board import COLOURS
from pawnlight.rules.cards import CARDS

from .bench import Bench

CONFIGS = [
    {"edition": "parker-1950", "variant": "points", "players": ["red", "yellow"]},
    {"edition": "parker-1950", "variant": "points", "players": ["red", "blue", "green"]},
    {"edition": "parker-1939", "variant": "points", "players": ["blue", "green"]},
    {"edition": "hasbro-2002", "variant": "points", "players": ["red", "blue"]},
    {"edition": "parker-1939", "variant": "quick", "players": ["yellow", "green"]},
    {"edition": "parker-1950", "teams": True, "players": ["red", "blue", "yellow", "green"]},
    {"edition": "hasbro-2002", "players": ["red", "blue"]},
]


class Evening(RuleBasedStateMachine):
    """One companion on a board; the test is the players and the journal."""

    layout = "colour"

    @initialize(config=st.sampled_from(CONFIGS))
    def start(self, config: dict) -> None:
        self.bench = Bench(self.layout)
        #: The recorded events of each game of the match, as the journal has them.
        self.games: list[list] = []
        self.leader: dict | None = None  # the leader draw in progress, as the journal keeps it
        self.consumed = 0
        self.bench.command("new_game", **config)
        self._collect()
        self.bench.show(self.bench.game.position)

    # -- what the players do ------------------------------------------------------------------

    @rule(config=st.sampled_from(CONFIGS), leader=st.booleans())
    def new_game(self, config: dict, leader: bool) -> None:
        """A new game, also in the middle of one; with the leader draw or not."""
        self.bench.command("new_game", draw_leader=leader, **config)
        self._collect()
        if self.bench.game is not None:
            self.bench.show(self.bench.game.position)

    @precondition(lambda self: self.bench.companion.phase in ("draw", "leader"))
    @rule(card=st.sampled_from(CARDS))
    def scan(self, card: str) -> None:
        leading = self.bench.companion.phase == "leader"
        self.bench.scan(card)
        if leading and self.bench.companion.phase != "leader":
            self._collect()
            self.bench.show(self.bench.game.position)

    @precondition(lambda self: self.bench.companion.phase == "move")
    @rule(data=st.data())
    def play(self, data) -> None:
        move = data.draw(st.sampled_from(self.bench.game.legal), label="move")
        self.bench.play(move)

    @precondition(lambda self: self.bench.game is not None)
    @rule(action=st.sampled_from(["double", "accept", "drop"]), data=st.data())
    def doubling(self, action: str, data) -> None:
        game = self.bench.game
        colour = data.draw(st.sampled_from([COLOURS[c] for c in game.order]), label="colour")
        try:
            self.bench.command(action, colour=colour)
        except CommandRefused:
            return
        self.bench.show(self.bench.game.position)

    @precondition(lambda self: self.bench.game is not None)
    @rule()
    def undo(self) -> None:
        try:
            self.bench.command("undo")
        except CommandRefused:
            return
        self.bench.show(self.bench.game.position)  # the players put the board back as lit

    @precondition(lambda self: self.bench.companion.phase == "over")
    @rule()
    def next_game(self) -> None:
        self.bench.command("next_game")
        self._collect()
        self.bench.show(self.bench.game.position)

    @precondition(lambda self: self.bench.game is not None or self.leader is not None)
    @rule()
    def restart(self) -> None:
        """The Pi restarts: a new companion resumes the journal's game, with its match."""
        self._collect()
        old = self.bench.companion
        fresh = Companion(old.layout, old.deck, old.settings)
        self.bench.companion = fresh
        if self.leader is not None:
            fresh.restore_leader(self.leader)
            assert fresh.phase == "leader" and fresh.leader == old.leader
            return
        assert old.game is not None and old.match is not None
        config = old.game.config
        match_configs = [g.config for g in old.match.games]
        replayed = [
            Game.replay(c, events) for c, events in zip(match_configs, self.games, strict=True)
        ]
        assert replayed[-1].config == config
        self.bench.effects += fresh.resume(replayed[-1], earlier=replayed[:-1])
        self.bench.show(self.bench.game.position)

    # -- what must hold -----------------------------------------------------------------------

    def _collect(self) -> None:
        effects = self.bench.effects
        for effect in effects[self.consumed :]:
            if isinstance(effect, StartRecord) and effect.match:
                self.games.append([])
            elif isinstance(effect, StartRecord):
                self.games = [[]]  # a new match
            elif isinstance(effect, Remember) and effect.name == "leader":
                self.leader = effect.value
            elif isinstance(effect, RecordEvent):
                self.games[-1].append(effect.event)
        self.consumed = len(effects)

    @invariant()
    def recognition_follows_the_phase_and_the_card(self) -> None:
        companion = self.bench.companion
        game = companion.game
        recogniser = companion.recogniser
        if game is None:
            assert companion.phase == "leader" and recogniser is None
            return
        if companion.phase in ("move", "choose"):
            assert recogniser is not None
            assert sorted(map(move_text, recogniser.moves)) == sorted(map(move_text, game.legal))
        elif companion.phase in ("draw", "double", "setup"):
            assert recogniser is not None and recogniser.moves == ()
            assert recogniser.position == game.position
        else:
            assert recogniser is None
        if companion.phase not in ("setup", "choose"):
            assert companion.phase == {"draw": "draw", "move": "move", "double": "double"}.get(
                game.phase, "over"
            )

    @invariant()
    def the_record_replays_to_the_live_game(self) -> None:
        self._collect()
        companion = self.bench.companion
        game = companion.game
        if game is None:
            return
        replayed = Game.replay(game.config, self.games[-1])
        assert replayed.history == game.history and replayed.phase == game.phase
        assert replayed.doubled == game.doubled

    @invariant()
    def match_totals_add_up_the_finished_games(self) -> None:
        match = self.bench.companion.match
        if match is None:
            return
        assert len(match.games) == len(self.games)
        totals = dict.fromkeys(match.games[0].order, 0)
        for game in match.games:
            for colour, points in (game.result.scores or {}).items() if game.result else ():
                totals[colour] += points
        assert match.totals == totals


class PresenceEvening(Evening):
    """The same on a presence board, which also asks which move when two look alike."""

    layout = "presence"


SETTINGS = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestColourEvening = Evening.TestCase
TestColourEvening.settings = SETTINGS
TestPresenceEvening = PresenceEvening.TestCase
TestPresenceEvening.settings = settings(SETTINGS, max_examples=50)
