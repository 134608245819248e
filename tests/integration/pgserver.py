"""A real PostgreSQL server for the tests of the shared results store.

Debian's `postgresql` package (scripts/setup.sh installs it): initdb and
pg_ctl from /usr/lib/postgresql/*/bin/, a cluster in a temporary folder, a
unix socket there and no TCP.  initdb refuses root, so when the tests run as
root the server runs as the `postgres` user that Debian's package creates.
One server per pytest session; each test gets a store of its own: a schema
in one database, chosen by the URL (`options=-csearch_path=...`), since
creating a database takes the server up to a second.

Authentication as a CI farm would set it up: the superuser through the
socket without a password (peer-like trust, local only), every other role
with a SCRAM password (pg_hba.conf below), so a wrong password is refused
for real.
"""
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile

import pytest

SUPERUSER = "postgres"


def pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(f"PostgreSQL ({name}) is missing: scripts/setup.sh installs it",
                    pytrace=False)
    return found[-1]


def as_server_user(argv):
    """argv run as the server's user: `postgres` when we are root."""
    if os.geteuid() == 0:
        return ["runuser", "-u", SUPERUSER, "--", *argv]
    return argv


class Server:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="xfbtrace-pg-")
        self.data = os.path.join(self.dir, "data")
        self.socket = self.dir
        self.log = os.path.join(self.dir, "server.log")
        # The socket's name carries the port number; nothing listens on TCP.
        self.port = 50000 + os.getpid() % 10000
        self.names = itertools.count(1)
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam(SUPERUSER)
            except KeyError:
                pytest.fail("the postgres system user is missing: scripts/setup.sh installs "
                            "Debian's postgresql package, which creates it", pytrace=False)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.user = SUPERUSER if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        subprocess.run(as_server_user([pg_bin("initdb"), "-D", self.data, "-U", self.user,
                                       "-A", "trust", "--no-sync", "-E", "UTF8",
                                       "--locale", "C"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with open(os.path.join(self.data, "pg_hba.conf"), "w") as f:
            f.write(f"local all {self.user} trust\nlocal all all scram-sha-256\n")
        subprocess.run(as_server_user([
            pg_bin("pg_ctl"), "-D", self.data, "-l", self.log, "-w", "start", "-o",
            f"-k {self.socket} -c listen_addresses='' -p {self.port} -c fsync=off"
            " -c max_connections=200"]),
            check=True, stdout=subprocess.DEVNULL)
        self.psql("CREATE DATABASE stores")

    def restart(self):
        """A fast restart: every client's connection drops."""
        subprocess.run(as_server_user([pg_bin("pg_ctl"), "-D", self.data, "-m", "fast", "-w",
                                       "restart"]),
                       check=True, stdout=subprocess.DEVNULL)

    def stop(self):
        subprocess.run(as_server_user([pg_bin("pg_ctl"), "-D", self.data, "-m", "immediate",
                                       "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, dbname, user=None, password=None):
        """A database; `dbname` "stores/NAME" is schema NAME of the
        database the stores share."""
        who = user or self.user
        if password is not None:
            who += f":{password}"
        dbname, _, schema = dbname.partition("/")
        options = f"&options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql://{who}@/{dbname}?host={self.socket}&port={self.port}{options}"

    def psql(self, sql, dbname="postgres"):
        out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-F", "\x1f",
                              "-d", self.url(dbname), "-c", sql],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def new_database(self):
        """A new, empty store: what url() and psql() take as `dbname`."""
        name = f"t{next(self.names)}"
        self.psql(f"CREATE SCHEMA {name}", "stores")
        return f"stores/{name}"


def rows(text):
    """psql -At output as tuples, integers as int."""
    def value(v):
        return int(v) if v.lstrip("-").isdigit() else (None if v == "" else v)
    return [tuple(value(v) for v in line.split("\x1f")) for line in text.splitlines()]
