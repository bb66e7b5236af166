"""The story of a finished game on the page: a chart of each colour's chance by turn, the
turning points (links to the history at that turn) and the three moves that cost most.

The story is told in the background (pawnlight.runtime.storyteller) and kept in the journal;
until it is ready the block says how far the work has got, and the page's script fetches it
again (``GET /partial/story/ID``).  ``GET /api/games/ID/story`` gives the same as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from pawnlight.i18n.marks import N_
from pawnlight.rules.board import COLOURS
from pawnlight.rules.game import Game

from . import language, story_words, view
from .context import context
from .errors import ApiError

blueprint = Blueprint("story", __name__)

#: The chart's drawing area in SVG units (it scales to the block's width).
WIDTH, HEIGHT = 300, 170
LEFT, BOTTOM, TOP, RIGHT = 36, 18, 8, 14
#: Each colour's line pattern, so the lines tell apart without their colours too.
DASHES = {"red": "", "blue": "7 4", "yellow": "2 3", "green": "9 3 2 3"}
PATTERN_WORDS = {"red": "solid", "blue": "dashed", "yellow": "dotted", "green": "dash-dot"}
#: Each pattern as the legend names it, in the page's language.
PATTERN_NAMES = {
    "solid": N_("solid"),
    "dashed": N_("dashed"),
    "dotted": N_("dotted"),
    "dash-dot": N_("dash-dot"),
}
#: Why a game has no story, as the storyteller says it (runtime.storyteller), in words a
#: family reads; a reason not listed (a fault's own words) is shown as it is.
REASONS = {
    "stories are not told on this board": N_("stories are not told on this board"),
    "the game is not finished": N_("the game is not finished"),
}


def status(game_id: int) -> dict[str, Any]:
    """The story's state for the page: ready (with it), working, or none (with the reason)."""
    teller = context().stories
    if teller is None:
        return {"state": "none", "reason": "stories are not told on this board"}
    return teller.status(game_id)


def chart_svg(story: Mapping[str, Any]) -> str:
    """One line per colour: its chance of winning after each turn, 0 to 100%."""
    turns: Sequence[Mapping[str, Any]] = story["turns"]
    colours = list(turns[0]["chances"]) if turns else []
    span = max(1, len(turns))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return LEFT + inner_w * turn / span

    def y(chance: float) -> float:
        return TOP + inner_h * (1 - chance)

    parts = [
        f'<svg class="story-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="story-chart-title" preserveAspectRatio="xMidYMid meet">',
        '<title id="story-chart-title">'
        + language.gettext(N_("Each colour’s chance of winning after every turn"))
        + "</title>",
    ]
    for level in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(level):.1f}" '
            f'y2="{y(level):.1f}"/>'
        )
        parts.append(
            f'<text class="axis" x="{LEFT - 4}" y="{y(level) + 3:.1f}" '
            f'text-anchor="end">{percent(round(level * 100))}</text>'
        )
    step = _tick_step(span)
    for turn in sorted({1, span, *range(step, span + 1, step)}):
        if turn == span or span - turn >= step / 2:
            parts.append(
                f'<text class="axis" x="{x(turn):.1f}" y="{HEIGHT - 4}" '
                f'text-anchor="middle">{turn}</text>'
            )
    start = 1 / len(colours) if colours else 0
    for colour in colours:
        points = [f"{x(0):.1f},{y(start):.1f}"] + [
            f"{x(n):.1f},{y(float(t['chances'][colour])):.1f}" for n, t in enumerate(turns, 1)
        ]
        dash = f' stroke-dasharray="{DASHES[colour]}"' if DASHES.get(colour) else ""
        parts.append(
            f'<polyline class="story-line c-{colour}" data-colour="{colour}"{dash} '
            f'points="{" ".join(points)}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def percent(value: int) -> str:
    """``50%`` in English, ``50 %`` (a no-break space) in German, French and Spanish."""
    gap = "" if language.current() == "en" else "\u00a0"
    return f"{language.number(value)}{gap}%"


def _tick_step(span: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 500):
        if span / step <= 6:
            return step
    return 1000


def story_context(status: Mapping[str, Any], game_id: int, link: str) -> dict[str, Any]:
    """What _story.html shows; ``link`` is the history's address with ``{turn}`` in it."""
    found: dict[str, Any] = {"story_state": status.get("state"), "story_game": game_id}
    if status.get("state") == "working":
        done, of = int(status.get("done") or 0), int(status.get("of") or 0)
        found["story_progress"] = (done, of)
    elif status.get("state") == "none":
        reason = str(status.get("reason") or "")
        found["story_reason"] = language.gettext(REASONS[reason]) if reason in REASONS else reason
    else:
        story = status["story"]
        colours = list(story["turns"][0]["chances"]) if story["turns"] else []
        # The story's sentences are kept in English: another language says them again from
        # the game's record (story_words.py); a record that cannot be read keeps them.
        game = None if language.current() == "en" else _replayed(game_id)
        points = [dict(point) for point in story["turning_points"]]
        costly = [dict(move) for move in story["costly_moves"]]
        if game is not None:
            try:
                for point in points:
                    point["words"] = story_words.point_words(point, story, game)
                for move in costly:
                    move["words"] = story_words.costly_words(move, game)
            except (KeyError, IndexError, ValueError, TypeError):
                points = [dict(point) for point in story["turning_points"]]
                costly = [dict(move) for move in story["costly_moves"]]
        found.update(
            story_chart=chart_svg(story),
            story_legend=[(c, PATTERN_WORDS.get(c, "")) for c in colours],
            pattern_words=PATTERN_NAMES,
            story_points=[{**point, "href": link.format(turn=point["turn"])} for point in points],
            story_costly=[{**move, "href": link.format(turn=move["turn"])} for move in costly],
            story_error=round(float(story["estimator"]["error"]) * 100),
        )
    return found


def end_screen(state: Mapping[str, Any]) -> dict[str, Any]:
    """The story block of a finished game's status page (nothing while a game is on)."""
    game_id = state.get("game_id")
    if state.get("phase") != "over" or not isinstance(game_id, int):
        return {}
    return story_context(status(game_id), game_id, "/?turn={turn}")


def _known(game_id: int) -> None:
    if not any(game.get("id") == game_id for game in context().service.games()):
        raise ApiError(f"no game {game_id}", 404)


@blueprint.get("/api/games/<int:game_id>/story")
def story_json(game_id: int):
    _known(game_id)
    return jsonify(status(game_id))


@blueprint.get("/partial/story/<int:game_id>")
def story_fragment(game_id: int):
    _known(game_id)
    link = request.args.get("link") == "past"
    href = f"/games/{game_id}?turn={{turn}}#turn-{{turn}}" if link else "/?turn={turn}"
    return render_template("_story.html", **story_context(status(game_id), game_id, href))


@blueprint.get("/games/<int:game_id>")
def past_game(game_id: int):
    """A past game: its story, and its turns in words (``?turn=N`` marks one)."""
    _known(game_id)
    lines = _turn_lines(game_id)
    raw = request.args.get("turn", "")
    marked = int(raw) if view.whole_number(raw) else None
    summary = next(g for g in view.game_lines(context().service.games()) if g["id"] == game_id)
    href = f"/games/{game_id}?turn={{turn}}#turn-{{turn}}"
    return render_template(
        "game.html",
        state=context().service.state(),
        game=summary,
        lines=lines,
        marked=marked,
        **story_context(status(game_id), game_id, href),
    )


def _replayed(game_id: int) -> Game | None:
    """The game played again from its record; None when its record cannot be read."""
    from pawnlight.store.errors import StoreError
    from pawnlight.store.record import decode, read_record
    from pawnlight.store.replay import replay_events

    try:
        record = read_record(decode(context().service.export(game_id).encode("utf-8")))
        return replay_events(record.config, record.events)
    except (StoreError, KeyError, ValueError):
        return None


def _turn_lines(game_id: int) -> list[dict[str, Any]]:
    """The game's turns in words (no square codes), oldest first, in the page's language."""
    from pawnlight.players.story import turn_words

    game = _replayed(game_id)
    if game is None:
        return []
    said = turn_words if language.current() == "en" else story_words.turn_words
    return [
        {"number": n, "colour": COLOURS[t.colour], "words": said(t, game)}
        for n, t in enumerate(game.history, 1)
    ]
