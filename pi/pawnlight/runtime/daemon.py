"""``pawnlight run``: wire the devices, the owner thread and the web server, and keep them running.

No logic of its own: it chooses the devices (real or simulated), connects their events to the
owner, the owner's effects to the devices, and serves the web pages, then waits for a signal.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from pawnlight.board.layout import Layout, choose_layout
from pawnlight.board.leds import Scene
from pawnlight.board.snapshot import Occupancy, read_occupancy
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion, Settings
from pawnlight.devices.controls import Controls
from pawnlight.devices.gpio_backend import choose_gpio, open_pin_factory
from pawnlight.devices.open_board import (
    BoardSpec,
    OpenBoard,
    open_board,
    parse_board_spec,
    spec_from_options,
)
from pawnlight.store.calibration_file import (
    CalibrationFileError,
    apply_saved_calibration,
    calibration_path,
)
from pawnlight.store.deck_file import (
    DECK_FILE,
    NEW_DECK_FILE,
    DeckFileError,
    load_deck,
    save_deck,
)
from pawnlight.store.location import JOURNAL_FILE

from .config import Config
from .owner import Owner
from .storyteller import StoryTeller

if TYPE_CHECKING:
    from pawnlight.devices.board_link import BoardLink
    from pawnlight.devices.card_readers import KeyboardCardReader, SpiCardReader
    from pawnlight.devices.sim.board import SimulatedBoard
    from pawnlight.devices.sim.firmware import SimulatedFirmware
    from pawnlight.remote.link.board_link import RemoteLink
    from pawnlight.remote.link.live_publisher import LivePublisher
    from pawnlight.web.server import WebServer

log = logging.getLogger("pawnlight")

REMOTE_START_WAIT = 30.0  # a remote game starts in the journal first: a hang guard, not 5 s


def choose_board(config: Config) -> tuple[BoardSpec, Layout]:
    """The board the config names and the layout it plays with: a simulated board is of the
    layout's kind, and a layout left unsaid is the simulated board's (else presence)."""
    told = parse_board_spec(config.board) if config.board is not None else None
    layout = choose_layout(config.layout, (told.sensing if told else None) or "presence")
    spec = spec_from_options(
        config.board,
        serial=config.serial,
        sim=config.sim,
        sim_pico=config.sim_pico,
        sensing=layout.sensing,
    )
    if spec.simulated and spec.sensing != layout.sensing:
        raise ValueError(
            f"the board {spec} senses {spec.sensing}, but the layout {layout.name} "
            f"senses {layout.sensing}: leave one of them out"
        )
    return spec, layout


class Daemon:
    """Everything ``pawnlight run`` starts, in start order; ``stop()`` undoes it in reverse."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.board_spec, layout = choose_board(config)
        #: A simulated board (``--sim``, ``--sim-pico``, ``--board sim:...``): the simulator
        #: page, gpiozero's mock pins and a ready-enrolled pack come with it.
        self.sim = self.board_spec.simulated
        try:
            # A colour board's measured reading bands (pawnlight calibrate); none: unchanged.
            layout = apply_saved_calibration(layout, config.data)
        except CalibrationFileError as error:
            log.error("%s: playing with the layout's own bands", error)
        self.layout = layout
        self.board: OpenBoard | None = None
        self.firmware: SimulatedFirmware | None = None  # the simulated firmware, with --sim
        self.link: BoardLink | None = None
        self.controls: Controls | None = None
        self.card_reader: SpiCardReader | KeyboardCardReader | None = None
        self.sim_board: SimulatedBoard | None = None
        self.server: WebServer | None = None
        self.owner: Owner | None = None
        self.deck_path = config.data / DECK_FILE
        self._pin_factory = None
        self.slowdown = 1.0  # how much slower than a real board the simulated one runs
        self.remote_link: RemoteLink | None = None  # --remote: the broker of remote games
        self.stories: StoryTeller | None = None  # finished games' stories, told in the background
        self.live_publisher: LivePublisher | None = None  # --remote: the game for a club's page

    # -- start --------------------------------------------------------------------------------

    def start(self, web: bool = True) -> None:
        """Start everything; ``web=False`` leaves the web server out (tests drive the owner)."""
        config = self.config
        config.data.mkdir(parents=True, exist_ok=True)
        deck = self._deck()
        companion = Companion(
            self.layout,
            deck,
            Settings(brightness=config.brightness, settle=config.settle),
            offline_grace=float(config.offline_grace),
        )
        if self.sim:
            from gpiozero.pins.mock import MockFactory

            self._pin_factory = MockFactory()
        else:
            # On a Pi: lgpio; said in one line, with what to install when it is missing.
            choice = choose_gpio()
            log.info("%s", choice.why)
            self._pin_factory = open_pin_factory(choice)
        owner = Owner(
            companion,
            config.data / JOURNAL_FILE,
            send_leds=self._send_leds,
            send_scene=self._send_scene,
            buzz=self._buzz,
            status=self._status,
            save_deck=lambda uids: save_deck(self.deck_path, uids),
            diagnostics=self._diagnostics,
        )
        self.owner = owner
        self.controls = Controls(
            owner.post, config.pins, pin_factory=self._pin_factory, held=owner.post
        )
        self._open_board(deck)
        self._start_card_reader()
        owner.start()
        if self.sim:
            # The pawns left on the simulated board from last time are sensed at once.
            assert self.sim_board is not None and self.firmware is not None
            self.firmware.set_sensors(self.sim_board.position_reading())
        self._start_remote()
        if web:
            self._start_web()
        self._start_speech()

    def _start_remote(self) -> None:
        """--remote: connect to the broker (in the background; the page says when it is down)."""
        config, owner = self.config, self.owner
        if config.remote is None or config.board_id is None or owner is None:
            return
        from pawnlight.remote.link.board_link import RemoteLink, parse_remote

        def remote_game() -> str | None:
            remote = owner.state().get("remote")
            return remote.get("game") if isinstance(remote, dict) else None

        link = RemoteLink(
            parse_remote(config.remote),
            config.board_id,
            owner.post,
            partial(owner.command, timeout=REMOTE_START_WAIT),
            remote_game,
            user=config.mqtt_user,
            password=config.mqtt_password,
            ca_file=config.mqtt_ca,
            keepalive=config.mqtt_keepalive,
        )
        owner.remote = link
        self.remote_link = link
        link.start()
        self._start_live(link)

    def _start_live(self, link: RemoteLink) -> None:
        """--remote: this board's game, retained on the broker for a club's page."""
        from pawnlight.remote.link.live_publisher import LivePublisher

        assert self.owner is not None
        self.live_publisher = LivePublisher(
            self.owner.subscribe,
            link.board,
            lambda topic, payload: link.client.publish(topic, payload, qos=1, retain=True),
            lambda: link.connected,
        )
        link.on_clash = self.live_publisher.resend
        self.live_publisher.start()

    def _deck(self) -> CardDeck:
        """The enrolled pack from the data folder; ``self.deck_path`` is where it is saved."""
        path = self.config.data / DECK_FILE
        try:
            uids = load_deck(path)
        except DeckFileError as error:
            log.error("%s; starting with no enrolled pack (the file is left as it is)", error)
            path, uids = path.with_name(NEW_DECK_FILE), {}
        self.deck_path = path
        if self.sim and not uids:
            uids = simulated_uids(extra_one=True)  # the simulator's pack is ready-enrolled
            try:
                save_deck(path, uids)
            except OSError as error:  # a read-only storage: the pack is made again next start
                log.error("could not save the simulator's pack to %s: %s", path, error)
        return CardDeck(uids)

    def _open_board(self, deck: CardDeck) -> None:
        """The board the config names, its link feeding the owner; a simulated one gets its
        pawns, cards and buttons (devices.sim.board) for the simulator page."""
        assert self.owner is not None
        self.board = board = open_board(self.board_spec, self.owner.post)
        self.link, self.firmware, self.slowdown = board.link, board.firmware, board.slowdown
        firmware = board.firmware
        if firmware is None:
            return
        from pawnlight.devices.sim.board import SimulatedBoard

        self.sim_board = SimulatedBoard(
            self.layout,
            write_sensors=firmware.set_sensors,
            read_leds=firmware.leds,
            present_card=self._present_card,
            card_uids=deck.uids,
            path=self.config.data / "sim-board.json",
            press=self._press,
            line=firmware.line_fault,  # the simulated firmware's own line faults
            seen=self._sim_seen,
            hold=self._hold,
        )
        self.owner.sim = self.sim_board

    def _sim_seen(self, occupancy: Occupancy) -> None:
        """Return once the companion has taken in a reading showing ``occupancy`` (or after a
        few seconds: a board that stopped answering must not hang the simulator's hands)."""
        assert self.owner is not None
        layout = self.layout
        self.owner.wait_for_reading(lambda values: read_occupancy(layout, values) == occupancy, 5.0)

    def _start_card_reader(self) -> None:
        from pawnlight.devices import card_readers

        assert self.owner is not None
        kind = self.config.card_reader
        if kind == "spi":
            self.card_reader = card_readers.SpiCardReader(self.owner.post)
        elif kind == "keyboard":
            assert self.config.keyboard_device is not None
            self.card_reader = card_readers.KeyboardCardReader(
                self.owner.post, self.config.keyboard_device, self.config.keyboard_decimal
            )
        if self.card_reader is not None:
            self.card_reader.start()

    def _start_web(self) -> None:
        from pawnlight.web import create_app
        from pawnlight.web.server import WebServer

        assert self.owner is not None
        self.stories = StoryTeller(self.owner.journal_path)
        self.stories.follow(self.owner)
        app = create_app(
            self.owner,
            pin=self.config.pin,
            sim=self.sim,
            secret_key=self._secret_key(),
            public_url=self.config.public_url,
            allowed_hosts=self.config.http_allowed_hosts,
            sessions_path=self.config.data / "sessions.json",
            remote_board=self.config.board_id if self.remote_link is not None else None,
            stories=self.stories,
        )
        self.server = WebServer(app, self.config.http_host, self.config.http_port)
        self.server.start()
        log.info(
            "pawnlight %s: status page on http://%s:%s/%s",
            "simulated board" if self.sim else "board",
            self.config.http_host,
            self.server.port,
            "  simulator on /sim" if self.sim else "",
        )

    def _start_speech(self) -> None:
        """Spoken announcements, when the owner turns them on (off by default): a reader of the
        snapshots like any phone, saying what announce.announcement picks."""
        from pawnlight.companion.announce import announcement
        from pawnlight.devices import speaker
        from pawnlight.i18n import voice as voice_of

        if not speaker.available():
            log.info("espeak-ng is not installed: no spoken announcements")
            return
        assert self.owner is not None
        subscription = self.owner.subscribe()
        self._speaker = voice = speaker.Speaker()
        self._speaking = True

        def run() -> None:
            # the owner's published state, then each state the subscription hands over
            last: Any = self.owner.state() if self.owner else None
            while self._speaking:
                state = subscription.get(timeout=0.5)
                if state is None:
                    continue
                settings = state.get("settings") or {}
                language = str(settings.get("language") or "en")
                said = announcement(last, state, language)
                last = state
                if said and settings.get("speech"):
                    voice.say(said, voice_of(language))
            subscription.close()

        self._speech_thread = threading.Thread(target=run, name="announcements", daemon=True)
        self._speech_thread.start()

    def _secret_key(self) -> bytes:
        """The session-cookie key, kept in the data folder so a restart keeps the owner in."""
        path = self.config.data / "secret_key"
        if path.exists() and len(path.read_bytes()) >= 32:
            return path.read_bytes()
        key = os.urandom(32)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(key)
        return key

    # -- effects on devices -------------------------------------------------------------------

    def _send_leds(self, frame) -> None:
        if self.link is not None:
            try:
                self.link.send_leds(frame)
            except (ValueError, OSError) as error:
                log.warning("LED frame not sent: %s", error)

    def _send_scene(self, scene: Scene, phase_ms: int) -> bool:
        """Send a scene to a board whose firmware runs scenes (protocol 1.1); False when the
        board is not connected or older, and the owner sends frames instead."""
        link = self.link
        board = link.board if link is not None else None
        if link is None or board is None or board.protocol < (1, 1):
            return False
        try:
            link.send_scene(scene.base, scene.effects, phase_ms)
        except (ValueError, OSError) as error:
            log.warning("LED scene not sent: %s", error)
            return False
        return True

    def _buzz(self, pattern: str) -> None:
        if self.controls is not None:
            self.controls.buzz(pattern)

    def _status(self, state: str) -> None:
        if self.controls is not None:
            self.controls.status(state)

    def _present_card(self, uid: str) -> None:
        """Hold a card to the simulated reader until the Pi has its tag, then take it away, as
        a hand does; a read the reader missed is tried again, as a person would."""
        firmware, owner = self.firmware, self.owner
        assert firmware is not None and owner is not None
        for _ in range(3):
            seen = owner.card_reads
            firmware.present_card(uid)
            arrived = owner.wait_for_card(seen, timeout=2.0 * self.slowdown)
            firmware.remove_card()
            if arrived:
                return
            # let the reader see it gone before trying again
            firmware.wait_reader_polls(4, timeout=5.0 * self.slowdown)
        log.warning("the simulated reader did not read card %s", uid)

    def _press(self, button: str, bounce: bool = False) -> None:
        if self.controls is None or button not in self.controls.buttons:
            raise ValueError(f"unknown button {button!r} (confirm, undo, new_game or hint)")
        pin = self.controls.buttons[button].pin
        for _ in range(3 if bounce else 1):  # a worn button's contacts chatter
            pin.drive_low()
            pin.drive_high()
        self._acted_on("press")

    def _hold(self, buttons: Sequence[str], seconds: float) -> None:
        """The simulator's hand holding buttons together: each pin driven low in turn (a hand's
        pace apart), all kept low ``seconds``, then let go.  The companion times the hold from
        the controls' inputs, as on the real board."""
        from pawnlight.devices.sim.board import HAND_PACE

        if self.controls is None:
            raise ValueError("this board has no buttons")
        pins = []
        for button in buttons:
            if button not in self.controls.buttons:
                raise ValueError(f"unknown button {button!r} (confirm, undo, new_game or hint)")
            pins.append(self.controls.buttons[button].pin)
        for pin in pins:
            pin.drive_low()
            time.sleep(HAND_PACE)
        time.sleep(seconds)
        for pin in reversed(pins):
            pin.drive_high()
        self._acted_on("hold")

    def _acted_on(self, what: str) -> None:
        """Return once the owner has handled what the simulator's hand just did (the presses
        are posted to its inbox), so a state read on the answer shows it."""
        if self.owner is not None and not self.owner.caught_up(5.0 * self.slowdown):
            log.warning("the owner did not handle the simulated %s in time", what)

    def _diagnostics(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "sim": self.sim,
            "layout": self.layout.name,
            "calibrated": self.layout.colour_sensing
            and calibration_path(self.config.data).exists(),
        }
        if self.link is not None:
            info["link"] = dataclasses.asdict(self.link.stats())
            board = self.link.board
            info["board"] = None if board is None else dataclasses.asdict(board)
        return info

    # -- stop ---------------------------------------------------------------------------------

    def stop(self) -> None:
        if getattr(self, "_speaking", False):
            self._speaking = False
            self._speech_thread.join(timeout=2)
            self._speaker.close()
        parts = (
            self.stories,
            self.server,
            self.live_publisher,
            self.remote_link,
            self.card_reader,
            self.owner,
            self.link,
        )
        for part in (*parts, self.firmware):
            if part is not None:
                try:
                    part.stop()
                except Exception:  # keep stopping the rest
                    log.exception("stopping %s", type(part).__name__)
        if self.controls is not None:
            self.controls.close()


def run(config: Config) -> int:
    """Run until SIGTERM or SIGINT."""
    logging.basicConfig(
        level=logging.INFO,
        # Under systemd the journal adds its own timestamps.
        format="%(levelname)s %(message)s"
        if os.environ.get("JOURNAL_STREAM")
        else "%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    if not config.pin:
        log.warning(
            "no owner PIN set (PAWNLIGHT_PIN or pin = ... in the config): "
            "the page is read-only until one is set"
        )
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    # A file-size limit or quota must fail the write (the journal reports it as a storage fault
    # and holds the game), not kill the companion as SIGXFSZ would by default.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        daemon = Daemon(config)
    except ValueError as error:  # a layout or board that cannot be used: said in words
        log.error("pawnlight could not start: %s", error)
        return 1
    try:
        daemon.start()
    except Exception as error:
        log.error("pawnlight could not start: %s", error)
        daemon.stop()
        return 1
    try:
        stopping.wait()
    finally:
        log.info("stopping")
        daemon.stop()
    return 0
