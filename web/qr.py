"""A QR code of the page's address, so another phone at the table can join by pointing at it."""

from __future__ import annotations

import io
from ipaddress import ip_address
from urllib.parse import urlsplit

import segno
from flask import request

from .context import context


def page_url() -> str:
    """The configured public address, else the one this page was opened at."""
    return context().public_url or request.host_url


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
