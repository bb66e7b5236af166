#!/usr/bin/env bash
# Install pawnlight as a service on a Raspberry Pi, from this checkout: Raspberry Pi OS Bookworm or
# Trixie (64-bit or 32-bit), or plain Debian 12/13 on a Pi.  README.md "On a Raspberry Pi".
#   sudo deploy/install.sh            install, or upgrade in place (games and settings are kept)
#   sudo deploy/install.sh --remove   stop and remove the service and the program; games
#                                     (/var/lib/pawnlight) and settings (/etc/pawnlight) are kept
# Where systemd is not running (a root filesystem being prepared, a container) the service is
# installed and enabled, not started.  PAWNLIGHT_ROOT installs into another root (the tests'
# dry runs, tests/test_install_script.py); PYTHON names the Python to build with.
set -euo pipefail
root="${PAWNLIGHT_ROOT:-}"
python="${PYTHON:-python3}"
# Free space the venv and its build take (about 250 MB measured on aarch64), with room to spare.
need_mb="${PAWNLIGHT_NEED_MB:-500}"
here="$(cd "$(dirname "$0")/.." && pwd)"
die() { echo "pawnlight install: $*" >&2; exit 1; }
say() { echo "pawnlight install: $*"; }

mode=install
case "${1:-}" in
    "") ;;
    --remove) mode=remove ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (use no option to install or upgrade, --remove to remove)" ;;
esac
[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0${1:+ $1}"

etc="$root/etc/pawnlight"
opt="$root/opt/pawnlight"
venv="$opt/venv"
data="$root/var/lib/pawnlight"
unit="$root/etc/systemd/system/pawnlight.service"
udev_rules="$root/etc/udev/rules.d/60-pawnlight-gpio.rules"
# systemd's own test for "booted with systemd" (sd_booted): absent in a chroot or a container.
systemd_running() { [ -d "$root/run/systemd/system" ]; }
systemctl_() {
    if [ -n "$root" ]; then systemctl --root="$root" "$@"; else systemctl "$@"; fi
}
# The shadow tools work on another root's files with --prefix (no chroot needed).
prefix=()
[ -n "$root" ] && prefix=(--prefix "$root")
has_group() { grep -q "^$1:" "$root/etc/group" 2>/dev/null; }
has_user() { grep -q "^$1:" "$root/etc/passwd" 2>/dev/null; }

if [ "$mode" = remove ]; then
    if systemd_running; then
        systemctl disable --now pawnlight.service >/dev/null 2>&1 || true
    elif [ -f "$unit" ]; then
        systemctl_ disable pawnlight.service >/dev/null 2>&1 || true
    fi
    rm -f "$unit" "$udev_rules"
    rm -rf "$opt"
    systemd_running && systemctl daemon-reload
    say "removed the service and /opt/pawnlight; games stay in /var/lib/pawnlight, settings in" \
        "/etc/pawnlight, the pawnlight user stays (delete them by hand to remove everything)"
    exit 0
fi

# -- what the machine must have ----------------------------------------------------------------
command -v "$python" >/dev/null 2>&1 || die "no $python here: sudo apt-get install python3"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    die "pawnlight needs Python 3.11 or newer; $python is $("$python" --version 2>&1) (Raspberry Pi OS Bookworm or newer has 3.11)"
where="$opt"
until [ -d "$where" ]; do where="$(dirname "$where")"; done
free_mb=$(( $(df -Pk "$where" | awk 'NR == 2 {print $4}') / 1024 ))
[ "$free_mb" -ge "$need_mb" ] ||
    die "not enough disk: $free_mb MB free on $where, $need_mb MB needed (sudo apt-get clean frees some)"

# Debian's packages for building: a venv, and Python's headers and gcc for the compiled rules core
# and the pi extra's spidev and evdev.  GPIO is lgpio from PyPI: a wheel where one exists (Python
# 3.11 on arm64 and armhf), else built from its source with swig and linked statically (PYPI=1
# below), so no package of the Raspberry Pi archive (liblgpio-dev) is needed and plain Debian
# on a Pi works the same.
missing=()
for package in python3-venv python3-dev gcc swig; do
    [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] ||
        missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || die "no network: apt-get update failed (is the Pi online?)"
    apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi

# -- the service's user, with only the groups it needs -----------------------------------------
has_user pawnlight ||
    useradd "${prefix[@]}" --system --home-dir /var/lib/pawnlight --no-create-home \
        --shell /usr/sbin/nologin --user-group pawnlight
# dialout: the Pico's USB serial port; gpio, spi: buttons and the SPI card reader; input: a USB
# card reader.  Raspberry Pi OS has gpio and spi with its udev rules; plain Debian gets both here.
own_rules=no
for group in gpio spi; do
    if ! has_group "$group"; then
        groupadd "${prefix[@]}" --system "$group"
        own_rules=yes
    fi
done
for group in dialout gpio spi input; do
    has_group "$group" || groupadd "${prefix[@]}" --system "$group"
    usermod "${prefix[@]}" -aG "$group" pawnlight
done
if [ "$own_rules" = yes ] || [ -f "$udev_rules" ]; then
    install -d "$(dirname "$udev_rules")"
    cat >"$udev_rules" <<'RULES'
# pawnlight (deploy/install.sh): on plain Debian, the gpio and spi groups reach the header's
# GPIO and SPI as on Raspberry Pi OS.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
RULES
fi

# -- the program, in its own venv --------------------------------------------------------------
wanted="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if [ -x "$venv/bin/python" ]; then
    had="$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true)"
    if [ "$had" != "$wanted" ]; then
        say "the system's Python is now $wanted (the venv had ${had:-none}): making the venv again"
        rm -rf "$venv"
    fi
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv" >/dev/null ||
    die "$python -m venv failed: sudo apt-get install python3-venv"
log="$opt/pip.log"
: >"$log"
network_error="NewConnectionError|ConnectionResetError|Connection reset by peer|Temporary failure in name resolution|Network is unreachable|ConnectTimeout|ReadTimeout|ProxyError|IncompleteRead|ProtocolError"
# pip retries each download itself (--retries); a whole install that still failed on the network
# (a connection reset mid-download) is tried again twice, a minute apart, before giving up.
pip_() {
    local attempt start
    for attempt in 1 2 3; do
        start=$(( $(stat -c %s "$log") + 1 ))
        "$venv/bin/python" -m pip install --disable-pip-version-check --retries 10 --timeout 60 \
            "$@" >>"$log" 2>&1 && return 0
        tail -c "+$start" "$log" | grep -qiE "$network_error" || break
        if [ "$attempt" -eq 3 ]; then
            die "no network: pip could not reach the package index (log: $log)"
        fi
        say "pip lost the network; trying again in ${PAWNLIGHT_RETRY_SECONDS:-60} s (attempt $(( attempt + 1 )) of 3)"
        sleep "${PAWNLIGHT_RETRY_SECONDS:-60}"
    done
    tail -n 15 "$log" >&2
    die "pip install $* failed (log: $log)"
}
say "installing pawnlight into $venv (a few minutes on a Pi; log: $log)"
pip_ --upgrade pip
# The build's tools first: setuptools, and mypyc to compile the rules core (docs/rules-core.md);
# without mypyc pawnlight is built as pure Python, slower but the same.
pip_ "$(grep '^setuptools' "$here/scripts/build-requirements.txt")"
"$venv/bin/python" -m pip install --retries 10 --timeout 60 -r "$here/scripts/build-requirements.txt" >>"$log" 2>&1 ||
    echo "no mypyc for this machine: the rules core will run as Python" >&2
# A second run builds and installs this checkout again (an upgrade after git pull); settings,
# the PIN and the games are never touched below once they exist.
# PYPI=1: lgpio's own switch to build its C library into the module (it is read by lgpio's
# setup.py only, when no wheel fits this Python).
PYPI=1 pip_ --upgrade --no-build-isolation "$here[pi]"
"$venv/bin/pawnlight" --version

# -- settings, PIN and games: made once, kept on every upgrade ---------------------------------
install -d -m 0755 "$etc"
if [ ! -f "$etc/pawnlight.toml" ]; then
    cat >"$etc/pawnlight.toml" <<TOML
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
if [ ! -f "$etc/pawnlight.env" ]; then
    # Ten digits: with the limit of wrong PINs across all addresses (docs/web.md), guessing one
    # would take thousands of years; still easy to type on a phone's number pad.
    pin=$(python3 -c 'import secrets; print(f"{secrets.randbelow(10**10):010d}")')
    (umask 077; echo "PAWNLIGHT_PIN=$pin" >"$etc/pawnlight.env")
    say "owner PIN: $pin (kept in /etc/pawnlight/pawnlight.env)"
fi
install -d -m 0750 "$data"
chown -R "$(awk -F: '$1 == "pawnlight" {print $3 ":" $4}' "$root/etc/passwd")" "$data"

# -- the service --------------------------------------------------------------------------------
port="$("$python" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("http", {}).get("port", 8080))' "$etc/pawnlight.toml" 2>/dev/null || echo 8080)"
install -d "$(dirname "$unit")"
install -m 0644 "$here/deploy/pawnlight.service" "$unit"
if systemd_running; then
    systemctl daemon-reload
    systemctl enable pawnlight.service >/dev/null 2>&1
    systemctl restart pawnlight.service
    say "waiting for the page to answer on port $port"
    "$python" - "$port" <<'PY' || die "the service started but its page does not answer: journalctl -u pawnlight -e"
import sys, time, urllib.error, urllib.request
deadline = time.monotonic() + 90
while True:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=5)
        break
    except urllib.error.HTTPError:
        break  # it answered
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(1)
        time.sleep(1)
PY
    say "pawnlight is running (logs: journalctl -u pawnlight -f)"
else
    systemctl_ enable pawnlight.service >/dev/null 2>&1
    say "systemd is not running here: the service is installed and enabled, not started;" \
        "it starts at the next boot"
fi
address="$(hostname -I 2>/dev/null | awk '{print $1}')"
say "the page: http://$(hostname).local:$port/${address:+  (or http://$address:$port/)}"
