#!/usr/bin/env python3
"""Hurts the real binary the ways an unlucky or hostile user can, and prints one table (Markdown) of what survived.

    cargo build --release
    python3 scripts/faults.py target/release/parlor                  # the full run (about 10 minutes on 2 cores)
    python3 scripts/faults.py target/release/parlor --kills 20 --games 300   # a quick one

Standard library only (and the `sqlite3` module). What it does:
- kill -9 at a random moment of a game being played in plain mode (every game in turn), then takes the game up
  again: a game is *lost* if it comes back behind the last move the killed process reported, *changed* if it
  comes back with another position than the one reported at that point;
- two and three processes finishing games at once in one data directory, with and without --seed: records lost
  (fewer rows than games that reported their end) or duplicated (more);
- a full disk: a small tmpfs when this runs as root and may mount one, else the file-size limit (RLIMIT_FSIZE);
  counts every "saved" said after a save failed;
- damaged databases and damaged saved games: start-up goes on, the user is told, and the damaged bytes are kept;
- every way to end the full-screen interface, with the terminal's state checked after each (line discipline,
  alternate screen, cursor, mouse reporting).
"""
import argparse, os, pty, random, re, select, shutil, signal, sqlite3, struct, subprocess, sys, tempfile, termios
import threading, time, fcntl

ROWS = []


def row(what, runs, bad, target, note=""):
    ROWS.append((what, runs, bad, target, note))
    print(f"  {what}: {runs} runs, {bad} bad ({note})", file=sys.stderr, flush=True)


def env_for(data_dir):
    e = dict(os.environ)
    e["PARLOR_DATA_DIR"] = data_dir
    e["NO_COLOR"] = "1"
    e.pop("TERM", None)
    return e


# ---------------------------------------------------------------- kill -9

PROGRESS = re.compile(r"^(Score .*? · \d+ moves?|\d+ of \d+ guesses used|Ply \d+ · .*? to move)")

GAMES = [
    ("2048", ["2048"], lambda r: r.choice("wasd")),
    ("mastermind", ["mastermind", "--guesses", "30"], lambda r: "".join(r.choice("123456") for _ in range(4))),
    ("nocca", ["nocca", "--level", "beginner"],
     lambda r: r.choice("abcde") + r.choice("123456") + r.choice("hjklyubn")),
]


# Lines of a drawn position: 2048's grid, Mastermind's rows and rules, Nocca's rows, files and goals.
BOARD_LINE = re.compile(r"^[+|]|^[^>]*\|[^>]*$|^\s*\d+\s+[_bw]|^-{5,}|^\s+a\s+b|====")


def progress_line(line):
    m = PROGRESS.match(line)
    return m.group(1) if m else None


def boards_by_progress(text):
    """Maps each progress line to the board printed just before it (new/merged marks removed)."""
    out, block = {}, []
    for line in text.splitlines():
        p = progress_line(line)
        if p:
            # Separator lines before the board (a menu's heading, say) are not part of the position.
            while block and re.fullmatch(r"-{5,}", block[0]):
                block.pop(0)
            out[p] = "\n".join(block)
            block = []
        elif BOARD_LINE.search(line):
            block.append(re.sub(r"(\d)[+*]", r"\1 ", line))
    return out


def kill_nine(binary, kills, rnd):
    lost = changed = 0
    for i in range(kills):
        name, args, move = GAMES[i % len(GAMES)]
        d = tempfile.mkdtemp(prefix="parlor-kill-")
        p = subprocess.Popen([binary] + args + ["--seed", str(1000 + i)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env_for(d))
        chunks = []
        reader = threading.Thread(target=lambda: chunks.append(p.stdout.read()), daemon=True)
        reader.start()
        deadline = time.time() + rnd.uniform(0.05, 1.5)
        try:
            while time.time() < deadline:
                p.stdin.write((move(rnd) + "\n").encode())
                p.stdin.flush()
                time.sleep(rnd.uniform(0, 0.004))
        except BrokenPipeError:
            pass
        p.kill()
        p.wait()
        reader.join(5)
        text = b"".join(chunks).decode("utf-8", "replace")
        seen = boards_by_progress(text)
        acked = [progress_line(l) for l in text.splitlines() if progress_line(l)]
        last = acked[-1] if acked else None
        again = subprocess.run([binary] + args, input=b"q\n", capture_output=True, env=env_for(d), timeout=60)
        resumed_text = again.stdout.decode("utf-8", "replace")
        resumed = boards_by_progress(resumed_text)
        first = next((progress_line(l) for l in resumed_text.splitlines() if progress_line(l)), None)
        db = sqlite3.connect(os.path.join(d, "parlor.db"))
        recorded = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        db.close()
        if "Recorded as game #" in text or (recorded and "Continuing" not in resumed_text):
            # The game ended before the kill (perhaps before it could say so): it must be in the history, once.
            if recorded != 1:
                lost += 1
            shutil.rmtree(d, ignore_errors=True)
            continue
        if first is None or "Continuing" not in resumed_text:
            # Nothing to continue: fine only if no move was ever reported.
            if last is not None and not last.startswith(("Score 0 · 0 moves", "0 of ", "Ply 1 ")):
                lost += 1
            continue
        order = list(dict.fromkeys(acked))
        verdict = None
        if last is not None and first in order and order.index(first) < order.index(last):
            lost += 1
            verdict = "lost"
        elif first in seen and seen[first] != resumed.get(first):
            changed += 1
            verdict = "changed"
        if verdict and os.environ.get("FAULTS_KEEP"):
            with open(os.path.join(d, "killed.txt"), "w") as f:
                f.write(text)
            with open(os.path.join(d, "resumed.txt"), "w") as f:
                f.write(resumed_text)
            print(f"  {verdict}: kept in {d}", file=sys.stderr)
        else:
            shutil.rmtree(d, ignore_errors=True)
    row("kill -9 at a random moment, then continue", kills, lost + changed, "0",
        f"{lost} lost, {changed} changed; 2048, Mastermind and Nocca in turn")


# ---------------------------------------------------------------- concurrent games

MM_GUESSES = "".join(f"{g}\n" for g in ["1234", "5612", "3456", "2143", "6543", "1122", "3344", "5566"])


def concurrent(binary, games, procs, seeded):
    d = tempfile.mkdtemp(prefix="parlor-conc-")
    ended = [0]
    refused = []
    lock = threading.Lock()

    def worker(n):
        for k in range(n):
            # Without --seed, each start continues the newest unfinished game of these settings if another
            # process has left one (claimed games are not taken), as a user starting Parlor twice would.
            args = [binary, "mastermind"] + (["--seed", str(k)] if seeded else [])
            r = subprocess.run(args, input=MM_GUESSES.encode(), capture_output=True, env=env_for(d), timeout=120)
            t = r.stdout.decode("utf-8", "replace")
            # Every game of eight guesses ends, won or lost: the process says it recorded it (or could not).
            if "Recorded as game #" in t or "could not record" in t:
                with lock:
                    ended[0] += 1
                    if "could not record" in t:
                        refused.append(t[t.find("could not record"):][:300])

    per = games // procs
    threads = [threading.Thread(target=worker, args=(per,)) for _ in range(procs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db = sqlite3.connect(os.path.join(d, "parlor.db"))
    rows = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    db.close()
    shutil.rmtree(d, ignore_errors=True)
    lost, duplicated = max(ended[0] - rows, 0), max(rows - ended[0], 0)
    kind = "with --seed" if seeded else "without --seed"
    row(f"{procs} processes finishing games at once, {kind}", per * procs, lost + duplicated, "0",
        f"{ended[0]} games ended, {rows} rows: {lost} lost, {duplicated} duplicated"
        + (f"; {len(refused)} said they could not be recorded: {refused[0]!r}" if refused else ""))


# ---------------------------------------------------------------- full disk

def full_disk(binary):
    mount = None
    if os.geteuid() == 0:
        mount = tempfile.mkdtemp(prefix="parlor-tmpfs-")
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", mount],
                          capture_output=True).returncode != 0:
            os.rmdir(mount)
            mount = None
    runs = false_saved = failures_seen = 0
    for seed in range(10):
        if mount:
            d = os.path.join(mount, f"d{seed}")
            os.makedirs(d)
            filler = os.path.join(mount, "filler")
            if seed == 0:
                # Fill most of the tmpfs, so the database runs out of room a little way into a game.
                with open(filler, "wb") as f:
                    f.write(b"\0" * 40 * 1024)
            preexec = None
        else:
            d = tempfile.mkdtemp(prefix="parlor-disk-")
            subprocess.run([binary, "history"], capture_output=True, env=env_for(d))
            limit = max(os.path.getsize(os.path.join(d, "parlor.db")), 65536) + 8192

            def preexec(limit=limit):
                import resource
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        moves = "".join(random.Random(seed).choice("wasd") + "\n" for _ in range(3000))
        r = subprocess.run([binary, "2048", "--seed", str(seed)], input=(moves + "q\n").encode(),
                           capture_output=True, env=env_for(d), preexec_fn=preexec, timeout=300)
        t = r.stdout.decode("utf-8", "replace")
        runs += 1
        failed_at = t.find("could not save")
        if failed_at >= 0:
            failures_seen += 1
            after = t[failed_at:]
            # After a failure, "saved" may be said only once a later save succeeded (no warning after it).
            last_warning = t.rfind("could not save")
            tail = t[last_warning:]
            if "Game saved." in tail or "the game is saved" in tail:
                false_saved += 1
            del after
        if mount:
            shutil.rmtree(d, ignore_errors=True)
    if mount:
        subprocess.run(["umount", mount])
        os.rmdir(mount)
    how = "tmpfs of 160 KiB" if mount else "RLIMIT_FSIZE"
    row("full disk: a false \"saved\"", runs, false_saved, "0",
        f"{how}; writes failed in {failures_seen} of {runs} games")


# ---------------------------------------------------------------- damaged databases

def damaged(binary):
    runs = bad = 0
    notes = []

    def fresh_db(d, games=2):
        for s in range(games):
            subprocess.run([binary, "2048", "--seed", str(s + 1)], input=b"a\nd\nx\ny\n", capture_output=True,
                           env=env_for(d))
        return os.path.join(d, "parlor.db")

    def file_cases():
        yield "random bytes", lambda p: open(p, "wb").write(os.urandom(8192))
        yield "truncated to half", lambda p: os.truncate(p, os.path.getsize(p) // 2)
        yield "zeroed header", lambda p: _patch(p, 0, b"\0" * 100)
        yield "garbage in every page but the first", lambda p: [_patch(p, at, os.urandom(64))
                                                             for at in range(4096, os.path.getsize(p), 4096)]
        yield "empty file", lambda p: open(p, "wb").close()

    for what, hurt in file_cases():
        d = tempfile.mkdtemp(prefix="parlor-bad-")
        p = fresh_db(d)
        # Fold the write-ahead log into the file first (closing the last connection does), so the damage hits
        # the data itself.
        db = sqlite3.connect(p)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        db.close()
        for side in ("-wal", "-shm"):
            if os.path.exists(p + side) and os.path.getsize(p + side) == 0:
                os.remove(p + side)
        hurt(p)
        before = open(p, "rb").read()
        r = subprocess.run([binary, "2048", "--seed", "9"], input=b"a\nq\n", capture_output=True, env=env_for(d))
        kept = [f for f in os.listdir(d) if ".corrupt-" in f and not f.endswith(("-wal", "-shm"))]
        same = any(open(os.path.join(d, f), "rb").read() == before for f in kept)
        saved = r.returncode == 0 and "Game saved." in r.stdout.decode()
        # An empty file is an empty database to SQLite: there is nothing to keep, it is simply used.
        ok = saved and (same or what == "empty file")
        runs += 1
        bad += 0 if ok else 1
        if not ok:
            notes.append(what)
        shutil.rmtree(d, ignore_errors=True)

    rows = [
        ("moves that are not moves", "moves", "left banana right"),
        ("options not JSON", "options", "{not json"),
        ("size 99", "options", '{"size":99,"four_chance":0.1,"target":2048}'),
        ("moves that cannot be replayed", "moves", "L L L L L L L L L L L L L L L L L L L L L L L L"),
    ]
    for what, column, value in rows:
        d = tempfile.mkdtemp(prefix="parlor-row-")
        subprocess.run([binary, "2048", "--seed", "5"], input=b"a\nd\n", capture_output=True, env=env_for(d))
        db = sqlite3.connect(os.path.join(d, "parlor.db"))
        db.execute(f"UPDATE unfinished SET {column} = ?", (value,))
        db.commit()
        db.close()
        r = subprocess.run([binary, "2048"], input=b"a\nq\n", capture_output=True, env=env_for(d))
        db = sqlite3.connect(os.path.join(d, "parlor.db"))
        aside = db.execute(f"SELECT COUNT(*) FROM set_aside WHERE {column} = ?", (value,)).fetchone()[0]
        db.close()
        ok = r.returncode == 0 and aside == 1 and "set aside" in (r.stdout + r.stderr).decode()
        runs += 1
        bad += 0 if ok else 1
        if not ok:
            notes.append(what)
        shutil.rmtree(d, ignore_errors=True)

    d = tempfile.mkdtemp(prefix="parlor-new-")
    p = fresh_db(d, 3)
    db = sqlite3.connect(p)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    before = open(p, "rb").read()
    r = subprocess.run([binary, "history"], capture_output=True, env=env_for(d))
    ok = (r.returncode == 0 and len(r.stdout.decode().splitlines()) == 3 and b"read-only" in r.stderr
          and open(p, "rb").read() == before)
    runs += 1
    bad += 0 if ok else 1
    if not ok:
        notes.append("newer schema")
    shutil.rmtree(d, ignore_errors=True)
    row("damaged databases and saved games", runs, bad, "0",
        "5 damaged files (kept aside, byte for byte), 4 damaged saved games (set aside), a newer schema (read-only)"
        + (f"; failed: {', '.join(notes)}" if notes else ""))


def _patch(path, at, data):
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(data)


def _still_db(path, before):
    return os.path.exists(path) and open(path, "rb").read() == before


# ---------------------------------------------------------------- terminal endings

def tui_spawn(binary, args, data_dir, extra_env=None):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["PARLOR_DATA_DIR"] = data_dir
        os.environ["TERM"] = "xterm-256color"
        os.environ.pop("NO_COLOR", None)
        for k, v in (extra_env or {}).items():
            os.environ[k] = v
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execv(binary, [binary] + args)
    return pid, fd


def read_until(fd, needle, timeout=10.0):
    buf = b""
    end = time.time() + timeout
    while needle not in buf and time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
    return buf


def restored(stream, fd):
    """Whether the terminal was given back: cooked mode, main screen, cursor shown, mouse reporting off."""
    attrs = termios.tcgetattr(fd)
    lflag = attrs[3]
    cooked = bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO) and bool(lflag & termios.ISIG)

    def last_is_off(on, off):
        return stream.rfind(on) <= stream.rfind(off) if stream.rfind(on) >= 0 else True

    return (cooked and last_is_off(b"\x1b[?1049h", b"\x1b[?1049l") and last_is_off(b"\x1b[?25l", b"\x1b[?25h")
            and last_is_off(b"\x1b[?1000h", b"\x1b[?1000l"))


def endings(binary, repeats):
    cases = [
        ("q from the menu", [], None, lambda pid, fd: os.write(fd, b"q")),
        ("q from a game, then q", ["2048", "--seed", "1"], None, lambda pid, fd: (os.write(fd, b"q"), time.sleep(.2),
                                                                               os.write(fd, b"q"))),
        ("Esc from a game, then q", ["2048", "--seed", "1"], None,
         lambda pid, fd: (os.write(fd, b"\x1b"), time.sleep(.3), os.write(fd, b"q"))),
        ("Ctrl-C as a key", ["2048", "--seed", "1"], None, lambda pid, fd: os.write(fd, b"\x03")),
        ("SIGINT", ["2048", "--seed", "1"], None, lambda pid, fd: os.kill(pid, signal.SIGINT)),
        ("SIGQUIT", ["2048", "--seed", "1"], None, lambda pid, fd: os.kill(pid, signal.SIGQUIT)),
        ("SIGTERM", ["2048", "--seed", "1"], None, lambda pid, fd: os.kill(pid, signal.SIGTERM)),
        ("SIGHUP", ["2048", "--seed", "1"], None, lambda pid, fd: os.kill(pid, signal.SIGHUP)),
        ("a panic", ["2048", "--seed", "1"], {"PARLOR_TEST_PANIC": "1"}, lambda pid, fd: os.write(fd, b"\x1b[24~")),
    ]
    runs = bad = 0
    failed = []
    for what, args, extra, end in cases:
        for _ in range(repeats):
            d = tempfile.mkdtemp(prefix="parlor-tui-")
            pid, fd = tui_spawn(binary, args, d, extra)
            stream = read_until(fd, b"help")
            time.sleep(0.1)
            end(pid, fd)
            deadline = time.time() + 10
            done = False
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    try:
                        stream += os.read(fd, 65536)
                    except OSError:
                        pass
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    done = True
                    stream += read_until(fd, b"\x00", 0.2)
                    break
            ok = done and restored(stream, fd)
            if not done:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            os.close(fd)
            runs += 1
            if not ok:
                bad += 1
                failed.append(what)
            shutil.rmtree(d, ignore_errors=True)
    row("full-screen endings: terminal not given back", runs, bad, "0",
        f"q, Esc then q, Ctrl-C key, SIGINT, SIGQUIT, SIGTERM, SIGHUP, a panic, {repeats} each"
        + (f"; failed: {sorted(set(failed))}" if failed else "") + "; kill -9 cannot be caught (not counted)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--kills", type=int, default=120)
    ap.add_argument("--games", type=int, default=3000, help="games per concurrency case")
    ap.add_argument("--endings", type=int, default=5, help="runs of each way to end the full screen")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    rnd = random.Random(a.seed)
    started = time.time()
    kill_nine(binary, a.kills, rnd)
    for seeded in (True, False):
        for procs in (2, 3):
            concurrent(binary, a.games // 2, procs, seeded)
    full_disk(binary)
    damaged(binary)
    endings(binary, a.endings)
    print("| fault | runs | bad | target | notes |")
    print("|---|---|---|---|---|")
    for what, runs, bad, target, note in ROWS:
        print(f"| {what} | {runs} | {bad} | {target} | {note} |")
    print(f"\n({time.time() - started:.0f} s; {sys.platform}, euid {os.geteuid()})")
    sys.exit(1 if any(r[2] for r in ROWS) else 0)


if __name__ == "__main__":
    main()
