"""Remote play's protocol, as pure logic: topics, messages, and the checks each board makes of
another's move (docs/remote.md).  No sockets here: the MQTT client is runtime.remote_link."""
