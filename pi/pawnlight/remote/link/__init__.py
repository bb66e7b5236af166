"""Remote play's running parts: MQTT connections, threads, the local broker's process.

``mqtt`` creates and connects every paho client (the board's and the club's); ``board_link``
is a board's link to its remote game, ``club_client`` the club page's subscriber,
``live_publisher`` sends a board's live summary, ``local_broker`` runs a Mosquitto for the
demo and the tests, ``demo`` is ``pawnlight remote-demo``.  Layer: above the web, below the
runtime (docs/architecture.md); the runtime's daemon starts these parts.
"""
