"""The status page for phones, the simulator page and the JSON API (docs/web.md, docs/api.md).

``create_app(service, pin=...)`` builds the Flask app for a running companion;
``WebServer(app, host, port)`` serves it with uvicorn from the daemon's thread.
"""

from .app import create_app
from .server import WebServer

__all__ = ["WebServer", "create_app"]
