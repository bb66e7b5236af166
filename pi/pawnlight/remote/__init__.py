"""Remote play, all of it (docs/remote.md).

This package's own modules are values and pure logic, with no thread or socket: the protocol
(topics, messages, the checks each board makes of another's move), the live summary a club's
page shows (``live``) and the club's latest-per-board view (``club_view``).  What runs
threads and sockets is ``link/``: the one MQTT client setup (``link.mqtt``), the board's link
(``link.board_link``), the club's subscriber (``link.club_client``), the live publisher, the
local Mosquitto (``link.local_broker``) and the demo.  ``link/`` sits at the runtime's level
of the layer map (docs/architecture.md); this package sits beside the store and the devices.
"""
