"""The board's connection to the remote-play broker (``pawnlight run --remote``, docs/remote.md).

An MQTT client (paho-mqtt) on its own thread.  What arrives is handed to the owner as the
companion's inputs (``RemoteTurn``, ``RemoteBoard``, ``RemoteResync``); the companion's
``PublishTurn`` effects come back here through the owner.  Hosting and joining a game are the
web's commands ``remote_host`` and ``remote_join``: the link checks them, announces or looks up
the game on the broker, and starts it through the owner's ``remote_start`` command.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from pawnlight.companion.config import ConfigError, new_game
from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import (
    RemoteBoard,
    RemoteDoubling,
    RemoteResync,
    RemoteSeating,
    RemoteTakeback,
    RemoteTurn,
    Trouble,
)
from pawnlight.remote.protocol import (
    CODE,
    PRESENCE_ALL,
    DoublingEvent,
    ProtocolError,
    Seating,
    Setup,
    Takeback,
    TurnEvent,
    check_board_id,
    check_seats,
    code_any,
    code_topic,
    decode_doubling,
    decode_event,
    decode_seating,
    decode_setup,
    decode_takeback,
    event_topic,
    events_of,
    new_code,
    new_game_id,
    parse_topic,
    presence_payload,
    presence_topic,
    read_presence,
    seating_topic,
    takeback_topic,
)

from .mqtt import (  # noqa: F401 (BrokerAddress, RemoteUrlError, parse_remote: named here too)
    BrokerAddress,
    RemoteUrlError,
    Will,
    connect,
    disconnect,
    new_client,
    parse_remote,
)

log = logging.getLogger("pawnlight.remote")

#: Seconds a join waits for the host's announcement of its code.
LOOKUP_TIMEOUT = 5.0
#: Ignored messages each said in the log before only one in 1,000 is.
LOGGED = 50
#: How long hosting or joining waits for a connection being made before it is refused.
CONNECT_WAIT = 3.0


class RemoteLink:
    """One board's MQTT client; ``post`` hands inputs to the owner, ``command`` runs the owner's
    commands, ``remote_game`` says which remote game the companion plays now (its id)."""

    def __init__(
        self,
        address: BrokerAddress,
        board: str,
        post: Callable[[object], None],
        command: Callable[[str, dict[str, Any]], dict[str, Any]],
        remote_game: Callable[[], str | None],
        user: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
        keepalive: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.board = check_board_id(board)
        self._post = post
        self._command = command
        self._remote_game = remote_game
        self._clock = clock
        self.keepalive = keepalive
        self._lock = threading.Lock()
        self._following: str | None = None
        self._lookups: dict[str, list[Setup]] = {}
        self._looked_up = threading.Condition(self._lock)
        self.connected = False
        #: This connection's random word in its presence (a new one each connection), and
        #: every one this link used: another under this board's id is another board.
        self.nonce = uuid.uuid4().hex[:12]
        self._nonces = {self.nonce}
        #: Why this board left the broker for good (another board has its id), else None.
        self.refused: str | None = None
        #: Called when a newcomer under this board's id was refused (it may have overwritten
        #: this board's retained messages meanwhile: the live game is sent again).
        self.on_clash: Callable[[], None] | None = None
        # Set once stop() says "offline": that message coming back is this board's own goodbye,
        # not a stale will to answer with "online" again (_on_message).
        self._stopping = False
        client = new_client(
            address,
            board,
            user=user,
            password=password,
            ca_file=ca_file,
            will=Will(presence_topic(board), presence_payload(False)),
            max_delay=2,
        )
        client.on_connect = self._guarded(self._on_connect)
        client.on_disconnect = self._guarded(self._on_disconnect)
        client.on_message = self._on_message  # guarded itself: it names the message's topic
        client.on_connect_fail = self._guarded(self._on_connect_fail)
        self._failures = 0
        #: Messages from the broker ignored (malformed, forged, or one that raised): counted.
        self.ignored = 0
        self.client = client

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        connect(self.client, self.address, self.keepalive)

    def stop(self) -> None:
        self._stopping = True
        if self.connected:
            info = self.client.publish(
                presence_topic(self.board), presence_payload(False), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):  # the link went meanwhile
                info.wait_for_publish(timeout=2)
        disconnect(self.client)

    # -- MQTT callbacks (the client's thread) -----------------------------------------------------

    def _guarded(self, callback: Callable[..., None]) -> Callable[..., None]:
        """A callback whose exception is counted and said in one line: one raising in the
        client's thread would end that thread, and the board's remote play with it."""

        def run(*args: Any) -> None:
            try:
                callback(*args)
            except Exception as error:
                self.ignored += 1
                log.error(
                    "board %s: the MQTT %s failed: %s: %s",
                    self.board,
                    callback.__name__.strip("_"),
                    type(error).__name__,
                    str(error)[:200],
                )

        return run

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            log.error("the remote broker refused this board (%s): %s", self.board, reason)
            return
        with self._looked_up:
            self.connected = True
            self._looked_up.notify_all()
        self._failures = 0
        self.nonce = uuid.uuid4().hex[:12]
        self._nonces.add(self.nonce)
        self._say_online(client)
        client.subscribe(PRESENCE_ALL, qos=1)
        with self._lock:
            self._following = None
        self.follow()
        for code in list(self._lookups):
            client.subscribe(code_any(code), qos=1)
        self._post(RemoteBoard(self.board, True, self._clock()))
        self._post(RemoteResync(self._clock()))
        log.info("connected to the remote broker as %s", self.board)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        """The broker cannot be reached, or its TLS certificate is not trusted: said once (and
        again every 30 tries), then tried again every 1 to 2 s."""
        if self._failures % 30 == 0:
            scheme = "mqtts" if self.address.tls else "mqtt"
            log.error(
                "cannot connect to the remote broker %s://%s:%s (down, unreachable, or a TLS "
                "certificate this board does not trust); trying again",
                scheme,
                self.address.host,
                self.address.port,
            )
        self._failures += 1

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.connected = False
        # Set once stop() says "offline": that message coming back is this board's own goodbye,
        # not a stale will to answer with "online" again (_on_message).
        self._stopping = False
        self._post(RemoteBoard(self.board, False, self._clock()))
        log.warning("disconnected from the remote broker: %s", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Every message, whatever it holds, is read or ignored: nothing in one can stop the
        link (a message the client's thread raised on would end it, and with it the board's
        remote play, at every start while it stays retained)."""
        try:
            self._read(client, message)
        except ProtocolError as error:
            self._ignore(message, str(error))
        except Exception as error:  # a bug, or a message no check foresaw: counted, said
            self._ignore(message, f"{type(error).__name__}: {str(error)[:200]}")

    def _ignore(self, message: mqtt.MQTTMessage, why: str) -> None:
        """Counted; said in one line (the first LOGGED, then one in every 1,000: a flood must
        not fill the log)."""
        self.ignored += 1
        if self.ignored > LOGGED and self.ignored % 1000:
            return
        try:
            topic = str(message.topic)[:120]
        except Exception:  # a topic that is not UTF-8 text
            topic = repr(message._topic[:120])
        log.warning(
            "board %s ignored a message on %s: %s (%d ignored so far)",
            self.board,
            topic,
            why,
            self.ignored,
        )

    def _read(self, client: mqtt.Client, message: mqtt.MQTTMessage) -> None:
        topic = parse_topic(message.topic)
        payload = bytes(message.payload)
        if topic.kind == "presence":
            if not payload:
                return  # an empty retained message clears it
            presence = read_presence(payload)
            online = presence.online
            if topic.board == self.board and self._own_presence(client, presence, message):
                return
            self._post(RemoteBoard(topic.board, online, self._clock()))
        elif not payload:
            return  # a retained turn withdrawn (taken back)
        elif topic.kind == "event":
            self._post(RemoteTurn(decode_event(payload, topic), self._clock()))
        elif topic.kind == "doubling":
            self._post(RemoteDoubling(decode_doubling(payload, topic), self._clock()))
        elif topic.kind == "seating":
            self._post(RemoteSeating(decode_seating(payload, topic), self._clock()))
        elif topic.kind == "takeback":
            self._post(RemoteTakeback(decode_takeback(payload, topic), self._clock()))
        elif topic.kind == "code" and topic.code is not None:
            setup = decode_setup(payload)
            # The host announces it; every board of the game keeps a copy under its own name,
            # so a broker that lost its store is given it back by any of them.
            if topic.board not in setup.boards() or setup.code != topic.code:
                raise ProtocolError("a game announced by a board not in it, or under another code")
            with self._looked_up:
                found = self._lookups.setdefault(topic.code, [])
                # The host's own word first, then the first copy heard.
                found.insert(0 if topic.board == setup.host else len(found), setup)
                self._looked_up.notify_all()

    def _say_online(self, client: mqtt.Client, clash: str | None = None) -> None:
        payload = presence_payload(True, self.nonce, clash)
        client.publish(presence_topic(self.board), payload, qos=1, retain=True)

    def _own_presence(self, client: mqtt.Client, presence: Any, message: Any) -> bool:
        """A presence under this board's own id: handled here (True), or an ordinary one."""
        if not presence.online:
            if self.connected and not self._stopping:
                # This board's own last will, from a connection the broker dropped late
                # (a broker stopped and resumed, a board paused past its keepalive) after
                # this one began: still here, so said again.
                self._say_online(client)
                return True
            return False
        if presence.clash is not None and presence.clash in self._nonces:
            # Another board had this id first and refused this one: leave the broker for good
            # (a clean disconnect: no last will calling the other board offline).
            self._stopping = True
            self.connected = False  # left for good, from now on (the disconnect follows)
            self.refused = (
                f"another board is connected to the remote broker as {self.board}: this board "
                "left it; give each board its own id (--board-id, docs/remote.md)"
            )
            log.error("%s", self.refused)
            self._post(Trouble(self.refused, self._clock()))
            client.disconnect()
            return True
        if presence.nonce is not None and presence.nonce not in self._nonces and not message.retain:
            # A newcomer under this board's id, heard live: it is refused (it leaves on
            # hearing its nonce named), and the people here are told.
            words = (
                f"another board connected to the remote broker as {self.board} and was "
                "refused: give each board its own id (--board-id, docs/remote.md)"
            )
            log.error("%s", words)
            self._post(Trouble(words, self._clock()))
            self._say_online(client, clash=presence.nonce)
            if self.on_clash is not None:
                self.on_clash()
            return True
        return presence.nonce is not None and presence.nonce in self._nonces

    # -- the game --------------------------------------------------------------------------------

    def follow(self) -> None:
        """Subscribe to the events of the remote game the companion plays (if any, once)."""
        game = self._remote_game()
        with self._lock:
            if game is None or game == self._following or not self.connected:
                return
            self._following = game
        self.client.subscribe(events_of(game), qos=1)

    def publish(self, event: TurnEvent) -> None:
        """A turn played here, recorded: retained, so a board that was away catches up."""
        topic = event_topic(self.board, event.game, event.seq)
        self.client.publish(topic, event.encode(), qos=1, retain=True)

    def publish_takeback(self, takeback: Takeback) -> None:
        topic = takeback_topic(self.board, takeback.game, takeback.seq)
        self.client.publish(topic, takeback.encode(), qos=1)

    def publish_seating(self, seating: Seating) -> None:
        """The host's seating (seats handed, adjourned): retained, for the boards away too."""
        topic = seating_topic(self.board, seating.game)
        self.client.publish(topic, seating.encode(), qos=1, retain=True)

    def publish_setup(self, setup: Setup) -> None:
        """The game's setup, retained under this board's own name (every board of the game
        keeps one): a broker restarted without its store gets the join code back from any."""
        topic = code_topic(self.board, setup.code)
        self.client.publish(topic, setup.encode(), qos=1, retain=True)

    def publish_doubling(self, doubling: DoublingEvent) -> None:
        """Point play: a double called or answered here, recorded: retained, as a turn."""
        self.client.publish(doubling.topic(), doubling.encode(), qos=1, retain=True)

    def clear(self, game: str, seq: int, upto: int) -> None:
        """Turns taken back: withdraw those published here (an empty retained message)."""
        for each in range(seq, upto):
            self.client.publish(event_topic(self.board, game, each), b"", qos=1, retain=True)

    def command(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The web's ``remote_host`` and ``remote_join`` (web thread); CommandRefused in words."""
        if name == "remote_host":
            return self._host(args)
        return self._join(args)

    def _wait_connected(self) -> None:
        """A board just started (or reconnecting) is given a few seconds to reach the broker
        before hosting or joining is refused: a person pressing Host as the daemon starts
        should not be told it is offline."""
        with self._looked_up:
            self._looked_up.wait_for(lambda: self.connected, timeout=CONNECT_WAIT)
        if self.refused is not None:
            raise CommandRefused(self.refused, 503)
        if not self.connected:
            raise CommandRefused("this board is not connected to the remote broker now", 503)

    def _host(self, args: dict[str, Any]) -> dict[str, Any]:
        body = dict(args.get("game") or {})
        try:
            config = new_game(body).config
            seats = check_seats(args.get("seats"), config.players)
        except (ConfigError, ProtocolError) as error:
            raise CommandRefused(str(error), 400) from None
        if self.board not in seats.values():
            raise CommandRefused(
                f"this board is {self.board}: give it at least one seat in the game it hosts", 400
            )
        self._wait_connected()
        setup = Setup(new_game_id(), self.board, new_code(), body, seats)
        self._command("remote_start", {"setup": setup.to_json(), "me": self.board})
        self.follow()
        topic = code_topic(self.board, setup.code)
        info = self.client.publish(topic, setup.encode(), qos=1, retain=True)
        info.wait_for_publish(timeout=5)
        return {"game": setup.game, "code": setup.code}

    def _join(self, args: dict[str, Any]) -> dict[str, Any]:
        code = args.get("code")
        if not isinstance(code, str) or not CODE.match(code.strip().upper()):
            raise CommandRefused(
                "a join code is 4 to 16 letters and digits, as the host shows it", 400
            )
        code = code.strip().upper()
        self._wait_connected()
        with self._looked_up:
            self._lookups.setdefault(code, [])
        self.client.subscribe(code_any(code), qos=1)
        deadline = self._clock() + LOOKUP_TIMEOUT
        with self._looked_up:
            while not self._lookups[code]:
                left = deadline - self._clock()
                if left <= 0:
                    del self._lookups[code]
                    raise CommandRefused(f"no game with the join code {code} on this broker", 404)
                self._looked_up.wait(left)
            setup = self._lookups.pop(code)[0]
        self.client.unsubscribe(code_any(code))
        started = self._command("remote_start", {"setup": setup.to_json(), "me": self.board})
        self.follow()
        seats = sorted(colour for colour, board in setup.seats.items() if board == self.board)
        answer: dict[str, Any] = {"game": setup.game, "host": setup.host, "seats": seats}
        if started.get("kept"):
            answer["kept"] = True
            answer["said"] = "this board plays that game already: it goes on where it stands"
        return answer
