"""``pawnlight games export -o`` and ``import`` with files that are not what they seem
(issue #33): a device, an existing file, an endless or huge input."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

from pawnlight.store import cli
from pawnlight.store.record import read_record

from .test_cli import data, run  # noqa: F401 - the fixture, used by name


def test_export_refuses_a_target_that_is_not_a_regular_file(data, capsys, tmp_path):  # noqa: F811
    # A device of its own, like /dev/full (1, 7): as root, the old export replaced the device
    # by a regular file, so the test never points at the real one.
    device = tmp_path / "full"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    os.symlink(device, tmp_path / "link")
    for target, why in (
        (str(device), "not a regular file"),
        (str(tmp_path), "not a regular file"),
        (str(tmp_path / "link"), "a symbolic link"),
    ):
        for force in ((), ("--force",)):
            code, out, err = run(capsys, "export", "1", "-o", target, "--data", str(data), *force)
            assert code == 2 and out == "" and why in err, (target, err)
    assert os.path.islink(tmp_path / "link") and stat.S_ISCHR(os.stat(device).st_mode)


def test_export_replaces_an_existing_file_only_with_force(data, capsys, tmp_path):  # noqa: F811
    target = tmp_path / "game.jsonl"
    target.write_text("keep me\n")
    code, _, err = run(capsys, "export", "1", "-o", str(target), "--data", str(data))
    assert code == 2 and "exists: add --force to replace it" in err
    assert target.read_text() == "keep me\n"
    code, _, err = run(capsys, "export", "1", "-o", str(target), "--data", str(data), "--force")
    assert code == 0 and err == ""
    assert read_record(target.read_text()).result is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "game.jsonl"]  # no temporary


def test_export_checks_what_it_wrote(data, capsys, tmp_path, monkeypatch):  # noqa: F811
    target = tmp_path / "game.jsonl"
    real_fdopen = os.fdopen

    class Lossy:
        """A file whose last bytes never reach the storage (a card that lies)."""

        def __init__(self, file):
            self.file = file

        def write(self, data):
            return self.file.write(data[:-10])

        def __getattr__(self, name):
            return getattr(self.file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

    monkeypatch.setattr(cli.os, "fdopen", lambda *a, **k: Lossy(real_fdopen(*a, **k)))
    code, _, err = run(capsys, "export", "1", "-o", str(target), "--data", str(data))
    assert code == 2 and "does not read back the same" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_import_refuses_an_endless_file_with_bounded_memory(tmp_path):
    # In a child with 256 MB of address space beyond what it has: the old import read
    # /dev/zero whole (1.3 GB) and would fail with MemoryError, not the refusal.
    script = (
        "import resource, sys\n"
        "from pawnlight.cli import main\n"
        "used = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (used + (256 << 20), resource.RLIM_INFINITY))\n"
        "sys.exit(main(['games', 'import', '/dev/zero', '--data', sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "larger than 8 MB" in done.stderr and "not read" in done.stderr
    assert not (tmp_path / "data").exists()


def test_import_refuses_a_file_over_the_documented_size(tmp_path, capsys):
    big = tmp_path / "big.jsonl"
    big.write_bytes(b" " * (cli.MAX_RECORD_BYTES + 1))
    code, out, err = run(capsys, "import", str(big), "--data", str(tmp_path / "data"))
    assert code == 2 and out == "" and f"{big}: larger than 8 MB" in err
    code, out, err = run(capsys, "replay", str(big), "--check")
    assert code == 2 and "larger than 8 MB" in err
