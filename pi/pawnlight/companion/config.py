"""The one check of what people may set: the settings (brightness, settle time, speech) and a new
game's config (``POST /api/game``, the board's buttons, a leader draw kept in the journal).

The config file (runtime/config.py), the web (web/actions.py) and the companion all check with
these functions, so a value is accepted or refused in the same words everywhere.  Every refusal
is a :class:`ConfigError` (a ValueError) whose message names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import PawnlightError
from ..i18n import LANGUAGES
from ..rules.board import COLOURS
from ..rules.editions import EDITIONS, VARIANTS
from ..rules.game import GameConfig, GameError
from ..rules.house_rules import HOUSE_RULES

#: The LEDs' brightness: its default and bounds (0 is dark, 1 the firmware's full current).
BRIGHTNESS_DEFAULT = 0.6
BRIGHTNESS_MIN, BRIGHTNESS_MAX = 0.0, 1.0
#: The night level: the LEDs' brightness while ``night`` is on (one tap on the page), its default
#: and bounds.  Its lowest still keeps a 25 % LED apart from a full one (docs/leds.md).
NIGHT_LEVEL_DEFAULT = 0.12
NIGHT_LEVEL_MIN, NIGHT_LEVEL_MAX = 0.05, 0.5
#: Seconds a board must be still before a move is accepted: default and bounds.
SETTLE_DEFAULT = 0.3
SETTLE_MIN, SETTLE_MAX = 0.1, 2.0

#: The settings' names, in the order the page and the journal give them.
SETTING_NAMES = (
    "brightness",
    "settle",
    "speech",
    "language",
    "patterns",
    "night",
    "night_level",
)
#: The fields of a new game's request (``POST /api/game``).
NEW_GAME_FIELDS = (
    "edition",
    "players",
    "teams",
    "variant",
    "draw_leader",
    "extra_one",
    "house_rules",
    "computer",
)


class ConfigError(PawnlightError, ValueError):
    """A setting or a game's config that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Settings:
    brightness: float = BRIGHTNESS_DEFAULT  # 0..1, applied to every LED frame
    settle: float = SETTLE_DEFAULT  # seconds a board must be still before a move is accepted
    speech: bool = False  # spoken announcements (espeak-ng on the Pi's audio out)
    language: str = "en"  # the board's voice (pawnlight.i18n.LANGUAGES); phones choose their own
    patterns: bool = False  # LED patterns for colour-blind players (board/led_patterns.py)
    night: bool = False  # the LEDs at the night level instead of the brightness
    night_level: float = NIGHT_LEVEL_DEFAULT  # the LEDs' brightness at night

    def to_json(self) -> dict[str, float | bool | str]:
        return {
            "brightness": self.brightness,
            "settle": self.settle,
            "speech": self.speech,
            "language": self.language,
            "patterns": self.patterns,
            "night": self.night,
            "night_level": self.night_level,
        }

    @property
    def level(self) -> float:
        """The brightness the LEDs are shown at now: the night level at night."""
        return self.night_level if self.night else self.brightness

    def changed(self, changes: Mapping[str, object]) -> Settings:
        """These settings with ``changes`` (any of SETTING_NAMES) checked and applied."""
        unknown = sorted(set(changes) - set(SETTING_NAMES))
        if unknown:
            raise ConfigError(
                f"unknown setting {unknown[0]!r} (expected {', '.join(SETTING_NAMES)})"
            )
        checked = {name: setting(name, value) for name, value in changes.items()}
        return replace(self, **checked)  # type: ignore[arg-type]


def number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{name} must be a number")
    return float(value)


def brightness(value: object) -> float:
    level = number(value, "brightness")
    if not BRIGHTNESS_MIN <= level <= BRIGHTNESS_MAX:
        raise ConfigError(f"brightness must be between {BRIGHTNESS_MIN:g} and {BRIGHTNESS_MAX:g}")
    return level


def night_level(value: object) -> float:
    level = number(value, "night_level")
    if not NIGHT_LEVEL_MIN <= level <= NIGHT_LEVEL_MAX:
        raise ConfigError(
            f"night_level must be between {NIGHT_LEVEL_MIN:g} and {NIGHT_LEVEL_MAX:g}"
        )
    return level


def settle(value: object) -> float:
    seconds = number(value, "settle")
    if not SETTLE_MIN <= seconds <= SETTLE_MAX:
        raise ConfigError(f"settle must be between {SETTLE_MIN:g} and {SETTLE_MAX:g} seconds")
    return seconds


def setting(name: str, value: object) -> float | bool | str:
    """One setting checked by its name (brightness, settle, speech, language, patterns, night,
    night_level)."""
    if name == "brightness":
        return brightness(value)
    if name == "night_level":
        return night_level(value)
    if name in ("patterns", "night"):
        return flag(value, name)
    if name == "settle":
        return settle(value)
    if name == "speech":
        return flag(value, "speech")
    if name == "language":
        return _name(value, "language", LANGUAGES)
    raise ConfigError(f"unknown setting {name!r} (expected {', '.join(SETTING_NAMES)})")


#: What the settings are, in words (the answer to an empty change).
SETTINGS_WORDS = (
    f"brightness ({BRIGHTNESS_MIN:g} to {BRIGHTNESS_MAX:g}), "
    f"settle ({SETTLE_MIN:g} to {SETTLE_MAX:g} seconds), speech (true or false), "
    f"language ({', '.join(LANGUAGES)}), patterns (true or false), night (true or false) "
    f"or night_level ({NIGHT_LEVEL_MIN:g} to {NIGHT_LEVEL_MAX:g})"
)


def full_brightness(level: float) -> bool:
    """Whether LED frames go out as painted (no dimming): the one cut-off."""
    return level >= BRIGHTNESS_MAX


def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be true or false")
    return value


def _name(value: object, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise ConfigError(f"unknown {name} {value!r} (expected one of {', '.join(choices)})")
    return value.strip().lower()


def _names(value: object, name: str, each: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise ConfigError(f"{name} must be a list")
    try:
        return tuple(_name(item, each, choices) for item in value)
    except ConfigError as error:
        raise ConfigError(f"{error}, in {name}") from None


@dataclass(frozen=True)
class NewGame:
    """A new game as asked for: its config, the colours the computer plays (colour -> player
    spec), and whether the leader is drawn first."""

    config: GameConfig
    computer: tuple[tuple[str, str], ...] = ()
    draw_leader: bool = False


def new_game(args: Mapping[str, object]) -> NewGame:
    """A new game's request (``POST /api/game``'s body) checked: every field by name, then the
    rules' own limits (partnership needs four colours, the book's variants)."""
    unknown = sorted(set(args) - set(NEW_GAME_FIELDS))
    if unknown:
        raise ConfigError(f"unknown field {unknown[0]!r} (expected {', '.join(NEW_GAME_FIELDS)})")
    players = _names(args.get("players", list(COLOURS)), "players", "colour", COLOURS)
    if not 2 <= len(players) <= 4:
        raise ConfigError("players must have 2 to 4 entries")
    if len(set(players)) != len(players):
        raise ConfigError("a colour is named twice in players")
    house_rules = args.get("house_rules", [])
    if isinstance(house_rules, str):
        raise ConfigError(f"house_rules must be a list of names, got {house_rules!r}")
    config = GameConfig(
        edition=_name(args.get("edition", "hasbro-2002"), "edition", tuple(EDITIONS)),
        players=players,
        teams=flag(args.get("teams", False), "teams"),
        variant=_name(args.get("variant", "standard"), "variant", VARIANTS),
        extra_one=flag(args.get("extra_one", False), "extra_one"),
        house_rules=tuple(
            sorted(set(_names(house_rules, "house_rules", "house rule", tuple(HOUSE_RULES))))
        ),
    )
    check_config(config)
    return NewGame(
        config,
        computer=computer_seats(args.get("computer", {}), config),
        draw_leader=flag(args.get("draw_leader", False), "draw_leader"),
    )


def check_config(config: GameConfig) -> None:
    """The rules' limits on a game's config (a config kept in the journal is checked so too)."""
    try:
        config.check()
    except (GameError, ValueError) as error:
        raise ConfigError(str(error)) from None


def computer_seats(seats: object, config: GameConfig) -> tuple[tuple[str, str], ...]:
    """``{"blue": "heuristic", "green": "strong"}`` checked: playing colours, known players."""
    if not isinstance(seats, Mapping):
        raise ConfigError('computer must map colours to players, e.g. {"blue": "heuristic"}')
    chosen: list[tuple[str, str]] = []
    for name, spec in seats.items():
        colour = _name(name, "colour", COLOURS)
        if colour not in config.players:
            raise ConfigError(f"{name} is not playing")
        chosen.append((colour, player_spec(spec, colour)))
    return tuple(sorted(chosen, key=lambda seat: COLOURS.index(seat[0])))


def player_spec(spec: object, colour: str) -> str:
    """A computer player's spec for ``colour`` checked: a known player, each setting within its
    bounds (players/registry.py, BOUNDS); the same for a new game's seats and a seat changed."""
    from ..players.registry import level_of  # the players load on first use

    if not isinstance(spec, str) or len(spec) > 60:
        raise ConfigError(f"say which player for {colour}: a player or easy, normal or hard")
    try:
        return level_of(spec)  # one name for one player, in the records as on the pages
    except ValueError as error:
        raise ConfigError(f"computer {colour}: {error}") from None


#: The fields of a seat changed during a game (``POST /api/seat``).
SEAT_FIELDS = ("colour", "player")


@dataclass(frozen=True)
class Seat:
    """A seat given to the computer (``player``: its spec) or back to a person (None)."""

    colour: str
    player: str | None


def seat(args: Mapping[str, object], config: GameConfig | None = None) -> Seat:
    """``{"colour": "red", "player": "heuristic"}`` (or ``"player": null`` for a person)
    checked as a new game's ``computer`` is; with the game's ``config``, the colour must play."""
    unknown = sorted(set(args) - set(SEAT_FIELDS))
    if unknown:
        raise ConfigError(f"unknown field {unknown[0]!r} (expected {', '.join(SEAT_FIELDS)})")
    if "colour" not in args or "player" not in args:
        raise ConfigError(
            'say which colour and who plays it: {"colour": "red", "player": "heuristic"}, '
            'or "player": null for a person'
        )
    colour = _name(args["colour"], "colour", COLOURS)
    if config is not None and colour not in config.players:
        raise ConfigError(f"{colour} is not playing")
    player = args["player"]
    return Seat(colour, None if player is None else player_spec(player, colour))
