"""Starts a paceline-server on a free loopback port for a test and stops it
(SIGTERM, graceful) afterwards. The server prints one ready line on stdout;
start() waits for that line (no sleeping), then returns."""
import os
import re
import signal
import subprocess


class ServerProcess:
    def __init__(self, binary, *args):
        self.binary = binary
        self.args = list(args)
        self.proc = None
        self.port = None
        self.metrics_port = None

    def start(self):
        # In memory unless the test gives a data directory (the server's
        # default is one in the working directory).
        data_dir = [] if any(a.startswith(("--data-dir", "--data_dir")) for a in self.args) else ["--data-dir="]
        self.proc = subprocess.Popen([self.binary, "--port=0", "--listen=127.0.0.1", *data_dir, *self.args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # blocks until ready (or exit: empty)
        m = re.search(r"port (\d+)", line)
        if not m:
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            raise RuntimeError("paceline-server did not start: %r %s" % (line, err))
        self.port = int(m.group(1))
        m = re.search(r"metrics-port (\d+)", line)  # with --metrics-port
        self.metrics_port = int(m.group(1)) if m else None
        return self

    def env(self):
        env = dict(os.environ)
        env.update(PGHOST="127.0.0.1", PGPORT=str(self.port), PGDATABASE="paceline", PGUSER="tester",
                   PGSSLMODE="prefer", PGCONNECT_TIMEOUT="10")
        env.pop("PGPASSWORD", None)
        env.pop("PGSERVICE", None)
        return env

    def stop(self):
        """SIGTERM; returns (exit code, stderr)."""
        if self.proc is None:
            return None, ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        code = self.proc.returncode
        self.proc = None
        return code, err

    def kill(self):
        """SIGKILL (a crash): nothing is flushed or closed by the server."""
        if self.proc is None:
            return
        self.proc.kill()
        self.proc.communicate()
        self.proc = None
