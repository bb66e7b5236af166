"""A QR code of the page's address, so another phone at the table can join by pointing at it."""

from __future__ import annotations

import io
from ipaddress import ip_address
from urllib.parse import urlsplit

import segno
from flask import request

from .context import context
from .hosts import url_of


def page_url() -> str:
    """The address another phone opens: the configured public address; else, when this page
    was opened at an address only this machine can open and the server serves every interface,
    the machine's network address (hosts.py) at the same port; else the one it was opened at."""
    here = context()
    if here.public_url:
        return here.public_url
    url = request.host_url
    if here.share_host and local_only(url):
        parts = urlsplit(url)
        return url_of(here.share_host, parts.port, parts.scheme)
    return url


def local_only(url: str) -> bool:
    """An address only this machine can open (a QR code of it helps nobody)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def svg(url: str, standalone: bool = False) -> str:
    code = segno.make(url, error="m")
    title = f"QR code of {url}"
    if not standalone:
        return code.svg_inline(scale=5, border=2, dark="#111111", light="#ffffff", title=title)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=5, border=2, dark="#111111", light="#ffffff", title=title)
    return out.getvalue().decode()
