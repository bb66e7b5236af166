#!/usr/bin/env bash
# Install pawnlight as a service on Raspberry Pi OS (Bookworm or newer), from this checkout.
#   sudo deploy/install.sh            install or upgrade
#   sudo deploy/install.sh --remove   stop and remove the service (games are kept)
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
here="$(cd "$(dirname "$0")/.." && pwd)"

if [ "${1:-}" = "--remove" ]; then
    systemctl disable --now pawnlight.service 2>/dev/null || true
    rm -f /etc/systemd/system/pawnlight.service
    systemctl daemon-reload
    echo "removed the service; games stay in /var/lib/pawnlight, settings in /etc/pawnlight"
    exit 0
fi

apt-get update -qq
apt-get install -y -qq python3-venv python3-dev gcc swig liblgpio-dev >/dev/null
id pawnlight >/dev/null 2>&1 || useradd --system --home /var/lib/pawnlight --shell /usr/sbin/nologin pawnlight
for group in dialout gpio spi input; do
    getent group "$group" >/dev/null && usermod -aG "$group" pawnlight
done

python3 -m venv /opt/pawnlight/venv
/opt/pawnlight/venv/bin/pip install --quiet --upgrade pip
# The build's tools first: setuptools, and mypyc to compile the rules core (docs/rules-core.md);
# without mypyc pawnlight is built as pure Python, slower but the same.
/opt/pawnlight/venv/bin/pip install --quiet "$(grep '^setuptools' "$here/scripts/build-requirements.txt")"
/opt/pawnlight/venv/bin/pip install --quiet -r "$here/scripts/build-requirements.txt" ||
    echo "no mypyc for this machine: the rules core will run as Python" >&2
/opt/pawnlight/venv/bin/pip install --quiet --no-build-isolation "$here[pi]"
/opt/pawnlight/venv/bin/pawnlight --version

install -d -m 0755 /etc/pawnlight
if [ ! -f /etc/pawnlight/pawnlight.toml ]; then
    cat > /etc/pawnlight/pawnlight.toml <<TOML
# pawnlight settings: see docs/daemon.md
public_url = "http://$(hostname).local:8080/"
layout = "presence"
card_reader = "board"
brightness = 0.6
settle = 0.3

[http]
host = "0.0.0.0"
port = 8080
TOML
fi
if [ ! -f /etc/pawnlight/pawnlight.env ]; then
    # Ten digits: with the limit of wrong PINs across all addresses (docs/web.md), guessing one
    # would take thousands of years; still easy to type on a phone's number pad.
    pin=$(python3 -c 'import secrets; print(f"{secrets.randbelow(10**10):010d}")')
    umask 077
    echo "PAWNLIGHT_PIN=$pin" > /etc/pawnlight/pawnlight.env
    echo "owner PIN: $pin (kept in /etc/pawnlight/pawnlight.env)"
fi
install -d -o pawnlight -g pawnlight -m 0750 /var/lib/pawnlight

install -m 0644 "$here/deploy/pawnlight.service" /etc/systemd/system/pawnlight.service
systemctl daemon-reload
systemctl enable --now pawnlight.service
echo "pawnlight is running: http://$(hostname).local:8080/  (logs: journalctl -u pawnlight -f)"
