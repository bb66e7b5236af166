"""What the owner reads from the journal at start and writes to it for the companion.

At start the board carries on where it stopped (:func:`restore`): its settings, a leader draw
in progress, else the unfinished game with the match it belongs to.  The companion's record
effects become writes (:func:`new_record`, :func:`append`, :func:`finish_record`,
:func:`remember`), which the storage guard makes durable or holds.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pawnlight.companion.signals import FinishRecord, RecordEvent, Remember, StartRecord
from pawnlight.rules.editions import Variant
from pawnlight.rules.game import Game, GameError, Result
from pawnlight.store.errors import StoreError
from pawnlight.store.journal import Decided, Journal

if TYPE_CHECKING:
    from pawnlight.runtime.owner_core import OwnerCore

log = logging.getLogger("pawnlight")


def restore(owner: OwnerCore) -> None:
    """Carry on where the board stopped: its settings, then a leader draw in progress (it
    is newer than any unfinished game: starting one ends the draw), else the unfinished
    game, with the match it belongs to."""
    assert owner._journal is not None
    settings = _recall(owner, "settings")
    if settings is not None:
        owner.companion.restore_settings(settings)
    leader = _recall(owner, "leader")
    if leader is not None:
        log.info("resuming the leader draw")
        owner._execute(owner.companion.restore_leader(leader))
        return
    _resume(owner)
    # The remote game the resumed game belongs to (docs/remote.md), if any.
    owner._execute(owner.companion.restore_remote(_recall(owner, "remote")))


def _recall(owner: OwnerCore, name: str) -> dict[str, Any] | None:
    """Board state kept in the journal; a damaged one is reported and left out, never
    in the way of the game."""
    assert owner._journal is not None
    try:
        return owner._journal.recall(name)
    except StoreError as error:
        owner._fail(f"{error}; going on without them")
        return None


def _resume(owner: OwnerCore) -> None:
    journal = owner._journal
    assert journal is not None
    game_id = journal.unfinished() or _match_between_games(journal)
    if game_id is None:
        return
    game: Game = journal.resume(game_id)
    meta = journal.load(game_id).meta
    computer = meta.get("computer")
    seats = _recall(owner, "seats")  # seats changed during the game (POST /api/seat)
    if seats is not None:
        computer = seats.get("computer")
    owner.game_id = game_id
    owner.saved_turns = len(game.history)
    earlier = _match_games(owner, journal, meta.get("match"))
    log.info("resuming game %s at turn %s", game_id, len(game.history))
    owner._execute(
        owner.companion.resume(game, computer if isinstance(computer, dict) else None, earlier)
    )


def _match_between_games(journal: Journal) -> int | None:
    """The newest game, when it ended as a game of a match ends (point play, or a match's
    second game or later): the match goes on from it with *next game*."""
    games = journal.games()
    if not games:
        return None
    last = games[-1]
    if last.damage or not last.finished or not last.winners:
        return None  # no game, one ended early (abandoned), or one nobody won
    meta = journal.load(last.id).meta
    return last.id if last.variant == Variant.POINTS or "match" in meta else None


def _match_games(owner: OwnerCore, journal: Journal, match: object) -> list[Game]:
    """The match's earlier games, replayed from the journal (their points carry over)."""
    owner.match_ids = []
    if match is None:
        return []
    ids = match.get("games") if isinstance(match, dict) else None
    try:
        if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
            raise StoreError(f"its match names no games: {match!r}")
        games = [journal.resume(i) for i in ids]
        if any(not g.over for g in games):
            raise StoreError("an earlier game of the match is not finished")
    except StoreError as error:
        owner._fail(f"the match goes on from this game only: {error}")
        return []
    owner.match_ids = list(ids)
    return games


def new_record(owner: OwnerCore, journal: Journal, effect: StartRecord) -> None:
    meta: dict[str, Any] = {"computer": dict(effect.computer)} if effect.computer else {}
    match = []
    if effect.match and owner.game_id is not None:
        match = [*owner.match_ids, owner.game_id]
        meta["match"] = {"games": match}
    owner.game_id = journal.new_game(effect.config, seed=effect.seed, meta=meta)
    owner.match_ids = match


def append(owner: OwnerCore, journal: Journal, effect: RecordEvent) -> None:
    """Write down what the companion decided (no second run of the rules); an event that
    does not say (seq 0) is checked against the store's own replay."""
    decided = None
    if effect.seq:
        decided = Decided(effect.seq, effect.turns, effect.result)
    if owner.game_id is None:
        raise GameError("no game is open in the journal to record this in")
    journal.append(owner.game_id, effect.event, decided)
    if effect.seq:
        owner.saved_turns = effect.turns


def finish_record(owner: OwnerCore, journal: Journal, effect: FinishRecord) -> None:
    if owner.game_id is not None:
        # No result: the game was ended early (a new game started over it).
        journal.finish(owner.game_id, effect.result or Result((), reason="abandoned"))


def remember(journal: Journal, effect: Remember) -> None:
    journal.remember(effect.name, effect.value)
