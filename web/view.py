"""From a published state to what the pages show: words for the phase, the history, the scores,
the board picture of now or of any turn.  Pure functions of the state (its JSON, and for the
history its typed turns: each turn's move as a value), so the server-rendered page and the
fragments the page's script fetches are the same HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pawnlight.board.marks import NO_MARKS, marks_for, turn_marks
from pawnlight.board.svg import Centre, render_board
from pawnlight.companion.phases import CompanionPhase
from pawnlight.companion.state import PlayedTurn, Published
from pawnlight.i18n.marks import N_
from pawnlight.i18n.message import msg
from pawnlight.rules import EDITIONS, phrases
from pawnlight.rules.editions import Variant
from pawnlight.rules.notation import move_text
from pawnlight.rules.words import a_card, move_words, no_move_reason

from . import language

#: The page's heading for each phase (plain strings from the state find them too: str enum).
PHASES: dict[str, str] = {
    CompanionPhase.IDLE: N_("No game"),
    CompanionPhase.ENROL: N_("Enrolling the pack"),
    CompanionPhase.LEADER: N_("Drawing for the lead"),
    CompanionPhase.SETUP: N_("Set up the board"),
    CompanionPhase.DRAW: N_("Draw a card"),
    CompanionPhase.MOVE: N_("Make the move"),
    CompanionPhase.CHOOSE: N_("Which move was it?"),
    CompanionPhase.DOUBLE: N_("A double was called"),
    CompanionPhase.OVER: N_("Game over"),
}

#: What each card does, in a line (the same in every edition pawnlight knows).
CARDS: dict[str, str] = {
    "1": N_("Start a pawn, or move one forward 1."),
    "2": N_("Start a pawn, or move one forward 2 — then draw again."),
    "3": N_("Move a pawn forward 3."),
    "4": N_("Move a pawn backward 4."),
    "5": N_("Move a pawn forward 5."),
    "7": N_("Move a pawn forward 7, or split the 7 between two pawns."),
    "8": N_("Move a pawn forward 8."),
    "10": N_("Move a pawn forward 10, or backward 1."),
    "11": N_("Move a pawn forward 11, or switch places with an opponent."),
    "12": N_("Move a pawn forward 12."),
    "sorry": N_("Take a pawn from START and bump an opponent back to its START."),
}

#: Each variant as the page names it (the API and the records keep the names).
VARIANT_NAMES: dict[str, str] = {
    Variant.STANDARD: N_("Standard game"),
    Variant.QUICK: N_("Quick game (3 pawns each)"),
    Variant.POINTS: N_("Point play"),
    Variant.PATIENCE: N_("Patience Sorry"),
}


def variant_name(variant: object) -> str:
    """A variant as the page names it, in the page's language (its own name when unknown)."""
    name = VARIANT_NAMES.get(str(variant))
    return language.gettext(name) if name else str(variant)


def colour_list(colours: Sequence[object]) -> str:
    """Colours named in the page's language, with commas: ``Rot, Blau``."""
    return ", ".join(language.colour_name(c) for c in colours)


#: How a past game ended, as the journal says it (store.replay.outcome), in the page's words.
OUTCOMES: dict[str, str] = {
    "in progress": N_("in progress"),
    "finished": N_("finished"),
    "ended early": N_("ended early"),
    "ended early (abandoned)": N_("ended early"),
    "patience: success": N_("Patience Sorry: success"),
    "patience: failure": N_("Patience Sorry: failure"),
}


def outcome_words(outcome: str) -> str:
    """A past game's outcome in the page's language: ``Rot hat gewonnen`` for ``red won``."""
    if outcome in OUTCOMES:
        return language.gettext(OUTCOMES[outcome])
    double = outcome.endswith(" (double game)")
    core = outcome.removesuffix(" (double game)")
    if core.endswith(" won"):
        names = core.removesuffix(" won").split(" and ")
        if len(names) == 1:
            message = N_("%(colour)s won — a double game!") if double else N_("%(colour)s won")
            return language.gettext(message, colour=language.colour_name(names[0]))
        if len(names) == 2:
            message = (
                N_("%(colour)s and %(partner)s won — a double game!")
                if double
                else N_("%(colour)s and %(partner)s won")
            )
            return language.gettext(
                message,
                colour=language.colour_name(names[0]),
                partner=language.colour_name(names[1]),
            )
    if core.startswith("ended early"):
        return language.gettext(OUTCOMES["ended early"])
    return outcome


#: The rule books' titles, marked for the catalogs (a publisher's name stays; the words round
#: it are translated).
EDITION_TITLES: dict[str, str] = {
    "parker-1950": N_("Parker Brothers, 1934/1939/1950"),
    "parker-1939": N_("Parker Brothers, 1939 (Winning Moves transcription)"),
    "hasbro-2002": N_("Hasbro, 2002"),
}

#: Each house rule's name and line as the New game form shows them (rules.house_rules keeps
#: the names and the help's English line).
HOUSE_RULE_WORDS: dict[str, tuple[str, str]] = {
    "diamond-lock": (
        N_("Diamond lock"),
        N_(
            "Classic boards: a pawn on its own diamond cannot move forward; it leaves only by a "
            "backward move, a switch, a Sorry! or a bump"
        ),
    ),
    "strict-own-landing": (
        N_("Strict own landing"),
        N_(
            "No move may end where one of the player's own pawns stands, not even a triangle "
            "that would slide"
        ),
    ),
}


def house_rule_words(name: str, summary: str) -> tuple[str, str]:
    """A house rule's name and line in the page's language (its own when unknown)."""
    known = HOUSE_RULE_WORDS.get(name)
    if known is None:
        return name.replace("-", " ").capitalize(), summary[:1].upper() + summary[1:]
    return language.gettext(known[0]), language.gettext(known[1])


def variant_books() -> dict[str, str]:
    """Each variant's rule books in words, for the New game form to say why a variant is not
    offered with the book chosen: ``{"quick": "Parker Brothers 1939"}``."""
    books: dict[str, list[str]] = {}
    for edition in EDITIONS.values():
        for variant in edition.variants:
            books.setdefault(str(variant), []).append(edition_title(edition.name))
    return {variant: " · ".join(titles) for variant, titles in books.items()}


def edition_title(name: object) -> str:
    """A rule book as the page names it: ``Hasbro, 2002`` for ``hasbro-2002``."""
    edition = EDITIONS.get(str(name))
    if edition is None:
        return language.gettext(N_("an unknown rule book"))
    title = EDITION_TITLES.get(edition.name)
    return language.gettext(title) if title else edition.title


def game_lines(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The journal's games as the past-games page lists them, newest first, in words: the
    rule book's and the variant's names, the colours, the outcome (the record is the export)."""
    lines = []
    for game in sorted(games, key=lambda g: -int(g.get("id") or 0)):
        variant = str(game.get("variant") or "")
        players = [str(p) for p in game.get("players") or []]
        started = str(game.get("started") or "")
        turns = int(game.get("turns") or 0)
        outcome = str(game.get("outcome") or ("finished" if game.get("finished") else ""))
        title = f"{variant_name(variant)} · {edition_title(game.get('edition'))}"
        names = colour_list(players)
        if game.get("teams"):
            names = language.gettext(N_("%(colours)s (partners)"), colours=names)
        lines.append(
            {
                "id": game.get("id"),
                "title": title,
                "players": names,
                "when": started_words(started),
                "turns": language.ngettext("%(num)s turn", "%(num)s turns", turns)
                % {"num": language.number(turns)},
                "outcome": outcome_words(outcome) if outcome else "",
            }
        )
    return lines


def started_words(started: str) -> str:
    """When a game started, ``2026-11-29T07:50`` as ``2026-11-29 at 07:50`` in the page's
    language (the date stays ISO: it reads the same in every language)."""
    if len(started) < 16:
        return started
    return language.gettext(N_("%(date)s at %(time)s"), date=started[:10], time=started[11:16])


WHEN = ("before", "after")


def whole_number(text: str, longest: int = 6) -> bool:
    """ASCII digits only, and few of them: a turn or page number from a URL is checked with this
    before ``int()`` (which takes other scripts' digits, and refuses 5,000 digits with an
    error) and before it reaches a loop or SQLite."""
    return 0 < len(text) <= longest and text.isascii() and text.isdigit()


def card_label(card: object) -> str:
    return "Sorry!" if card == "sorry" else str(card)


def diamonds(state: Mapping[str, Any]) -> bool:
    edition = EDITIONS.get(str(state.get("edition")))
    return bool(edition and edition.diamonds)


def turns(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    value = state.get("turns")
    return [t for t in value if isinstance(t, Mapping)] if isinstance(value, list) else []


@dataclass(frozen=True)
class HistoryLine:
    number: int  # 1-based, as ?turn=N
    colour: str
    card: str
    text: str  # the notation: the record's own line, shown when the turn is replayed
    words: str = ""  # what happened, in board words

    @property
    def label(self) -> str:
        """The line as the history shows it: ``Red, 5: no pawn can go forward 5``."""
        said = self.words or self.text
        return language.gettext(
            N_("%(colour)s, %(card)s: %(said)s"),
            colour=language.colour_name(self.colour),
            card=card_label(self.card),
            said=said,
        )

    @property
    def code(self) -> str:
        return f"{self.colour} {card_label(self.card)}: {self.text}"


def said(played: PlayedTurn) -> str:
    """A turn of the history in board words, from its move (its notation when it has none)."""
    turn = played.turn
    if language.current() != "en":
        return _said_in(played, language.current())
    if played.move is not None:
        return move_words(played.move)
    if turn.text == "forfeit":
        return f"no move, {no_move_reason(turn.card)}"
    if turn.text == "discard":
        return "discarded, no move"
    return turn.text


def _said_in(played: PlayedTurn, lang: str) -> str:
    """A turn of the history in ``lang``'s board words (the catalogs' messages)."""
    turn = played.turn
    if played.move is not None:
        return phrases.move(played.move).render(lang)
    if turn.text == "forfeit":
        reason = phrases.no_move_reason(turn.card)
        return msg(N_("no move, %(reason)s"), reason=reason).render(lang)
    if turn.text == "discard":
        return language.gettext("discarded, no move")
    return turn.text


def moves_said(state: Mapping[str, Any]) -> dict[str, str]:
    """The legal moves and the choices in this request's language, by their notation (none in
    English, or for a snapshot that is plain JSON: the page then shows their ``words``)."""
    typed = state.typed if isinstance(state, Published) else None
    lang = language.current()
    if typed is None or lang == "en":
        return {}
    moves = [*(typed.game.legal if typed.game is not None else ()), *typed.choices]
    return {move_text(m): phrases.move(m).capitalised().render(lang) for m in moves}


def played_turns(state: Mapping[str, Any]) -> tuple[PlayedTurn, ...]:
    """The history's turns as values, from the typed state the snapshot was made from (none
    for a snapshot that is plain JSON)."""
    typed = state.typed if isinstance(state, Published) else None
    return typed.game.turns if typed is not None and typed.game is not None else ()


def turn_said(state: Mapping[str, Any], number: int) -> str:
    """Turn ``number`` (from 1) in board words; its notation when the state has no values."""
    played = played_turns(state)
    if 1 <= number <= len(played):
        return said(played[number - 1])
    entries = turns(state)
    return str(entries[number - 1].get("text", "")) if 1 <= number <= len(entries) else ""


def history(state: Mapping[str, Any]) -> list[HistoryLine]:
    """Every turn, newest first; from ``turns`` (with colours and cards) when the snapshot has
    it, else from the bare ``history`` texts.  The words come from each turn's move."""
    played = played_turns(state)
    lines = [
        HistoryLine(
            n,
            str(t.get("colour", "")),
            str(t.get("card", "")),
            str(t.get("text", "")),
            said(played[n - 1]) if n <= len(played) else "",
        )
        for n, t in enumerate(turns(state), 1)
    ]
    if not lines:
        texts = state.get("history") or []
        lines = [HistoryLine(n, "", "", str(text)) for n, text in enumerate(texts, 1)]
    return lines[::-1]


def board_svg(state: Mapping[str, Any], turn: int | None = None, when: str = "after") -> str:
    """The board now (with the legal moves highlighted), or before/after turn ``turn``
    (1-based) with that turn's move highlighted; IndexError for a turn not in the history."""
    if turn is None:
        colour, card = state.get("turn"), state.get("card")
        centre = None
        if state.get("players"):
            caption = (
                language.gettext(N_("%(colour)s’s turn"), colour=language.colour_name(colour))
                if colour
                else language.gettext(PHASES.get(str(state.get("phase")), ""))
            )
            centre = Centre(colour if isinstance(colour, str) else None, card, caption)
        lit = state.get("lit")
        colours = state.get("lit_colours")
        guidance = state.get("guidance")
        sensed = state.get("sensed")
        return render_board(
            state.get("pawns"),
            diamonds=diamonds(state),
            centre=centre,
            lit=lit if isinstance(lit, Mapping) else {},
            lit_colours=colours if isinstance(colours, Mapping) else {},
            guidance=guidance if isinstance(guidance, list) else [],
            sensed=sensed if isinstance(sensed, list) else None,
            words=language.words(),
            language=language.current(),
        )
    entries = turns(state)
    if not 1 <= turn <= len(entries):
        raise IndexError(f"there is no turn {turn} (the game has {len(entries)} so far)")
    entry = entries[turn - 1]
    played = played_turns(state)
    if len(played) >= turn:  # the turn's move as a value: no notation read back
        move = played[turn - 1].move
        marks = marks_for(() if move is None else (move,))
    else:
        marks = turn_marks(entry, bool(state.get("teams")))
    caption = language.gettext(
        N_("turn %(turn)s, before") if when == "before" else N_("turn %(turn)s, after"),
        turn=turn,
    )
    centre = Centre(str(entry.get("colour")), entry.get("card"), caption)
    words = turn_said(state, turn)
    label = language.gettext(
        N_("The board before turn %(turn)s: %(colour)s, %(said)s.")
        if when == "before"
        else N_("The board after turn %(turn)s: %(colour)s, %(said)s."),
        turn=turn,
        colour=language.colour_name(entry.get("colour")),
        said=words,
    )
    return render_board(
        entry.get(when),
        diamonds=diamonds(state),
        marks=marks if marks else NO_MARKS,
        centre=centre,
        label=label,
        words=language.words(),
        language=language.current(),
    )


#: What each role of a lit place looks like on the page and means: (legend key, words).
LEGEND: dict[str, tuple[str, str]] = {
    "turn": ("key-turn", N_("whose turn it is: their START glows")),
    "destination": ("key-dest", N_("where a pawn may go, in its colour")),
    "hint": ("key-hint", N_("the move suggested")),
    "pawn": ("key-from", N_("a pawn that can move (dashed ring)")),
    "slide": ("key-slide", N_("a slide that would fire")),
    "bump": ("key-bump", N_("a pawn that would go back to START")),
    "switch": ("key-switch", N_("the pawn an 11 would switch places with")),
    "choice": ("key-choice", N_("a move the board may show (dashed)")),
    "moved": ("key-dest", N_("the move just made")),
    "correction": ("key-fix", N_("a place to put right: follow the arrows, 1 first")),
    "check": ("key-check", N_("a pawn whose colour cannot be read")),
    "position": ("key-dest", N_("a pawn where the game has it")),
    "celebration": ("key-gold", N_("the winner's lights")),
    "ask": ("key-ask", N_("the board asks: press New game again to end this game")),
    "error": ("key-check", N_("a fault: see the message above")),
}
#: The legend of a turn replayed: (legend key, words, the board drawing's attribute for that
#: mark). A line is shown only when the turn's drawing has its mark (a turn with no slide says
#: nothing of slides).
REPLAY_LEGEND: tuple[tuple[str, str, str], ...] = (
    ("key-dest", N_("where the turn's pawns went"), "data-dest"),
    ("key-from", N_("the pawns that moved"), "data-from"),
    ("key-slide", N_("a slide taken"), "data-slide"),
    ("key-bump", N_("a pawn sent back to START or switched"), "data-bump"),
)


def legend(state: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The legend of the live board: one line for each kind of mark on it now, no more."""
    lit = state.get("lit")
    roles = set(lit.values()) if isinstance(lit, Mapping) else set()
    seen: dict[str, tuple[str, str]] = {}
    for role, entry in LEGEND.items():
        if role in roles:
            seen.setdefault(entry[1], entry)
    return list(seen.values())


def card_sentence(card: object) -> str:
    """``The card: a 5.`` for screen readers (no double stop after "Sorry!")."""
    said = a_card(str(card))
    if language.current() != "en":
        words = phrases.a_card(str(card)).render(language.current())
        line = N_("The card: %(card)s") if words.endswith("!") else N_("The card: %(card)s.")
        return language.gettext(line, card=words)
    return f"The card: {said}" + ("" if said.endswith("!") else ".")


def scores(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rows of the score table: this game's points and, in a match, the totals and wins."""
    game = _mapping(state.get("scores"))
    match = _mapping(state.get("match"))
    totals = _mapping(match.get("totals"))
    wins = _mapping(match.get("wins"))
    colours = list(state.get("players") or []) or list(game or totals)
    return [
        {"colour": c, "game": game.get(c), "total": totals.get(c), "wins": wins.get(c)}
        for c in colours
    ]


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def result_text(state: Mapping[str, Any]) -> str | None:
    result = state.get("result")
    if not isinstance(result, Mapping):
        return None
    if result.get("patience"):
        patience = OUTCOMES.get(f"patience: {result['patience']}")
        return language.gettext(patience) if patience else f"Patience Sorry: {result['patience']}"
    winners = result.get("winners") or []
    if not winners:
        return language.gettext("The game is over.")
    double = bool(result.get("double_game"))
    if len(winners) == 1:
        message = N_("%(colour)s won — a double game!") if double else N_("%(colour)s won")
        return language.gettext(message, colour=language.colour_name(winners[0]))
    if len(winners) == 2:
        message = (
            N_("%(colour)s and %(partner)s won — a double game!")
            if double
            else N_("%(colour)s and %(partner)s won")
        )
        # English names the partner in lower case ("Yellow and red won"), as it always did.
        partner = str(winners[1]) if language.current() == "en" else None
        return language.gettext(
            message,
            colour=language.colour_name(winners[0]),
            partner=partner or language.colour_name(winners[1]),
        )
    if language.current() != "en":
        message = N_("%(colour)s won — a double game!") if double else N_("%(colour)s won")
        return language.gettext(message, colour=colour_list(winners))
    names = " and ".join(str(w) for w in winners)
    text = f"{names[:1].upper()}{names[1:]} won"
    return text + (" — a double game!" if double else "")


def doubling(state: Mapping[str, Any]) -> bool:
    """Whether the double/accept/drop buttons belong on the page: point play, classic books."""
    edition = EDITIONS.get(str(state.get("edition")))
    return (
        state.get("variant") == Variant.POINTS
        and edition is not None
        and edition.scoring.drop_out_win is not None
    )
