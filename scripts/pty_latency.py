#!/usr/bin/env python3
"""Measures the real binary in a pseudo-terminal (80x24), with nothing but the standard library.

    python3 scripts/pty_latency.py target/release/parlor startup 30   # exec to a fully drawn menu
    python3 scripts/pty_latency.py target/release/parlor keys 200     # arrow key to the first redrawn bytes (2048)
"""
import fcntl, os, pty, select, struct, sys, tempfile, termios, time


def spawn(binary, args, data_dir):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["PARLOR_DATA_DIR"] = data_dir
        os.environ["TERM"] = "xterm-256color"
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execv(binary, [binary] + args)
    return pid, fd


def drain(fd, timeout):
    buf = b""
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return buf
        try:
            buf += os.read(fd, 65536)
        except OSError:
            return buf
        timeout = 0.02


def report(what, ms):
    ms.sort()
    print(f"{what} over {len(ms)} runs: min {ms[0]:.2f} ms, median {ms[len(ms) // 2]:.2f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, max {ms[-1]:.2f} ms")


def startup(binary, runs):
    data_dir = tempfile.mkdtemp()
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pid, fd = spawn(binary, [], data_dir)
        buf = b""
        while b"Quit" not in buf:  # the menu's last item: the whole menu has been written
            ready, _, _ = select.select([fd], [], [], 5)
            if not ready:
                sys.exit("no menu within 5 s")
            buf += os.read(fd, 65536)
        ms.append((time.perf_counter() - t0) * 1000)
        os.write(fd, b"q")
        os.waitpid(pid, 0)
        os.close(fd)
    report("start-up to a drawn menu", ms)


def keys(binary, runs):
    pid, fd = spawn(binary, ["2048", "--seed", "1"], tempfile.mkdtemp())
    drain(fd, 1.0)
    arrows = [b"\x1b[D", b"\x1b[B", b"\x1b[C", b"\x1b[A"]
    ms = []
    for i in range(runs):
        t0 = time.perf_counter()
        os.write(fd, arrows[i % 4])
        select.select([fd], [], [], 2)
        ms.append((time.perf_counter() - t0) * 1000)
        drain(fd, 0.02)
    report("key press to redrawn board", ms)
    os.kill(pid, 9)


if __name__ == "__main__":
    binary, mode, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"startup": startup, "keys": keys}[mode](binary, runs)
