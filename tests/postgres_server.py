"""A real PostgreSQL server for the tests, started from the Debian package's binaries
(``initdb`` + ``pg_ctl``) into a temporary folder, on a free loopback port.

``.ci/run`` installs the package (``postgresql``); where its binaries are missing the tests
that need the server skip, saying so loudly. PostgreSQL refuses to run as root, so under root
the server runs as the package's ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["PostgresServer", "find_binaries"]


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else Debian's versioned folder."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(os.path.realpath(initdb)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in ``folder``; :meth:`start`, :meth:`stop` (any mode) and
    :meth:`start` again, on the same port, as a database server restarting would."""

    USER = "attribution"

    def __init__(self, binaries: Path, folder: Path | None = None) -> None:
        """``folder``: where the cluster goes; None: a new folder in the system's temporary
        folder (not under pytest's, whose parents are closed to the postgres user)."""
        self.binaries = binaries
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="attribution-postgres-"))
        self.folder = folder
        self.data = folder / "data"
        self.sockets = folder / "sockets"
        self.logfile = folder / "server.log"
        self.port = _free_port()
        self._as: list[str] = []
        folder.mkdir(parents=True, exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")  # KeyError: the package is not installed
            for path in (folder, self.sockets):
                os.chown(path, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            self.USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, tool: str, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [*self._as, str(self.binaries / tool), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            log = self.logfile.read_text()[-2000:] if self.logfile.is_file() else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr}\n{log}")
        return done.stdout

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.sockets} "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.logfile),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast`` (clients disconnected, a clean shutdown) or ``immediate`` (a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def remove(self) -> None:
        """Stop the server (as a crash would) if it runs, and delete its folder."""
        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def running(self) -> bool:
        done = subprocess.run(
            [*self._as, str(self.binaries / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True,
            check=False,
        )
        return done.returncode == 0

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def wait_accepting(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL on port {self.port} did not come up")
