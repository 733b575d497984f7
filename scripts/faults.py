#!/usr/bin/env python3
"""Hurts the real binary the ways an unlucky or hostile user can, and prints one table (Markdown) of what survived.

    cargo build --release -p parlor
    nice -n 19 python3 scripts/faults.py target/release/parlor     # the full run (3,000 games by three processes)
    python3 scripts/faults.py target/release/parlor --kills 15 --games 300 --endings 1   # a quick one (CI)

Standard library only (and the `sqlite3` module). What it does:
- kill -9 at a random moment of a game being played in plain mode (every game in turn), then takes the game up
  again: a game is *lost* if it comes back behind the last move the killed process reported, *changed* if it
  comes back with another position than the one reported at that point;
- several processes playing Mastermind in one data directory (three and two, with and without --seed, and three
  with a file where the claims folder should be): each run makes one to three guesses and quits (the game is left
  unfinished for whichever process starts next to continue), gives up, or plays to the last guess. Every guess of
  the workload is unique, so each is followed into the database: it must be in exactly one finished game or game
  in progress, in the order played (a game recorded twice shows as guesses recorded twice), and every record must
  have been announced by exactly one run;
- a full disk: a small tmpfs when this runs as root and may mount one, else the file-size limit (RLIMIT_FSIZE);
  random real moves; counts every "saved" said after a save failed;
- damaged databases and damaged saved games (bad text, and values of the wrong SQLite type): start-up goes on,
  the user is told, and the damaged bytes are kept; damaged finished games: the history says how many it left out
  and why, as statistics count them; damaged 2048 weights (and a FIFO or folder in their place), Nocca tables and
  Mastermind trees: no hang, no crash, the game goes on;
- the engines' limits: 2048 slides that would make a 2^64 tile or 2^64 points, Nocca solves larger than the
  machine, a long perft stopped by SIGINT;
- every way to end the full-screen interface, and suspending it (Ctrl-Z, kill -TSTP, then SIGCONT), with the
  terminal's state checked after each (line discipline, alternate screen, cursor, mouse reporting).
"""
import argparse, json, os, pty, random, re, select, shutil, signal, sqlite3, struct, subprocess, sys, tempfile, termios
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

# Mastermind with 8 colours and 5 pegs: 32,768 codes, so every guess of a run of the workload can be told apart and
# followed into the database. Stored moves are letters; the plain mode prints the numbers.
MM_ARGS = ["mastermind", "--variant", "custom", "--colours", "8", "--pegs", "5", "--guesses", "8"]
MM_LETTERS = {"R": "1", "G": "2", "Y": "3", "U": "4", "K": "5", "O": "6", "P": "7", "C": "8"}
ACCEPTED = re.compile(r"Guess \d+: [A-Z ]+ \(([1-8](?: [1-8])*)\)")
RECORDED = re.compile(r"Recorded as game #(\d+)")
# Said by a run whose game another process finished, set aside or played on meanwhile (claims cannot be used).
TOLD = "another Parlor finished, set aside or played on this game"


def stored_guesses(moves):
    out = []
    for token in (moves or "").split():
        out.append("".join(MM_LETTERS.get(c, "?") for c in token))
    return out


def concurrent(binary, games, procs, seeded, rnd, claims=True):
    """`procs` processes play Mastermind in one data directory until `games` games have ended. A run makes one to
    three guesses, then quits (leaving the game unfinished for whichever process starts next to continue), gives
    up, or plays on to the last guess. Every accepted guess is unique in the workload, so each can be followed: it
    must be in exactly one finished game or game in progress, in the order its run played it; every record must
    have been announced by exactly one run."""
    d = tempfile.mkdtemp(prefix="parlor-conc-")
    if not claims:
        # A file where the claims folder should be: no process can tell which games the others are playing.
        open(os.path.join(d, "claims"), "w").write("not a folder")
    lock = threading.Lock()
    codes = ["".join(str(1 + (n // 8 ** k) % 8) for k in range(5)) for n in range(8 ** 5)]
    rnd.shuffle(codes)
    state = {"next": 0, "ended": 0, "runs": [], "errors": []}

    def take():
        with lock:
            if state["next"] == len(codes):
                # Every code used: guesses would repeat and could no longer be followed. Counted as a failure of
                # the workload itself (fewer games per case, or more colours, fix it).
                state["errors"].append("more guesses than codes: the workload cannot follow each guess")
            c = codes[state["next"] % len(codes)]
            state["next"] += 1
            return c

    def worker(w):
        r = random.Random(rnd.random())
        k = 0
        while True:
            with lock:
                if state["ended"] >= games:
                    return
            k += 1
            ending = r.choice(["quit", "quit", "give up", "play out"])
            guesses = [take() for _ in range(r.randint(1, 3) if ending != "play out" else 8)]
            tail = {"quit": "q\n", "give up": "x\ny\n", "play out": "q\n"}[ending]
            args = [binary] + MM_ARGS + (["--seed", str(w * 100000 + k)] if seeded else [])
            res = subprocess.run(args, input=("\n".join(guesses) + "\n" + tail).encode(), capture_output=True,
                                 env=env_for(d), timeout=120)
            t = res.stdout.decode("utf-8", "replace")
            played = [m.group(1).replace(" ", "") for m in ACCEPTED.finditer(t)]
            ids = [int(m.group(1)) for m in RECORDED.finditer(t)]
            with lock:
                state["runs"].append((played, ids, TOLD in t))
                if ids or "could NOT be recorded" in t:
                    state["ended"] += 1
                if res.returncode != 0 or "panicked" in t + res.stderr.decode("utf-8", "replace"):
                    state["errors"].append(res.stderr.decode("utf-8", "replace")[-300:])

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(procs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db = sqlite3.connect(os.path.join(d, "parlor.db"))
    finished = {i: stored_guesses(m) for i, m in db.execute("SELECT id, moves FROM games")}
    unfinished = [stored_guesses(m) for (m,) in db.execute("SELECT moves FROM unfinished")]
    db.close()
    shutil.rmtree(d, ignore_errors=True)
    # Where each guess is kept: (row, index) over finished games then games in progress.
    rows = list(finished.values()) + unfinished
    where = {}
    for r_i, row_moves in enumerate(rows):
        for i, g in enumerate(row_moves):
            where.setdefault(g, []).append((r_i, i))
    runs = state["runs"]
    lost = duplicated = changed = told = 0
    dup_rows = set()
    for played, _, was_told in runs:
        told += was_told
        for g in played:
            places = where.get(g, [])
            if not places and not was_told:
                lost += 1
            if len(places) > 1:
                duplicated += 1
                dup_rows.update(p[0] for p in places[1:])
        # A run's guesses, kept, are one stretch of one game, in the order played.
        kept = [where[g][0] for g in played if g in where]
        if kept and not was_told:
            r_i, start = kept[0]
            if rows[r_i][start:start + len(played)] != played:
                changed += 1
    invented = sum(1 for g in where if not any(g in p for p, _, _ in runs))
    announced = [i for _, ids, _ in runs for i in ids]
    said_twice = len(announced) - len(set(announced))
    silent = len(set(finished) - set(announced))
    phantom = len(set(announced) - set(finished))
    bad = lost + duplicated + changed + invented + said_twice + silent + phantom + len(state["errors"])
    run_of = {g: n for n, (p, _, _) in enumerate(runs) for g in p}
    continued = sum(1 for r in finished.values() if len({run_of.get(g) for g in r}) > 1)
    kind = "with --seed" if seeded else "without --seed"
    if not claims:
        kind += ", a file in place of the claims folder"
    row(f"{procs} processes playing Mastermind in one directory, {kind}", len(runs), bad, "0",
        f"{len(finished)} games recorded ({continued} continued across processes), {len(unfinished)} left "
        f"unfinished; {sum(len(p) for p, _, _ in runs)} guesses played: {lost} lost, {duplicated} recorded twice "
        f"({len(dup_rows)} games), {changed} out of order, {invented} never played; records: {said_twice} "
        f"announced twice, {silent} unannounced, {phantom} announced but missing; {told} runs told their game "
        f"went elsewhere" + (f"; {len(state['errors'])} runs failed: {state['errors'][0]!r}" if state["errors"]
                             else ""))


def no_claims(binary, games, rnd):
    """A file where the claims folder should be: each run must say it cannot claim its game, and the database
    alone must still record each game once (a run told another process played on its game may lose its guesses)."""
    d = tempfile.mkdtemp(prefix="parlor-noclaims-")
    open(os.path.join(d, "claims"), "w").write("not a folder")
    r = subprocess.run([binary] + MM_ARGS, input=b"12345\nq\n", capture_output=True, env=env_for(d), timeout=60)
    said = "could not claim the game in" in r.stdout.decode("utf-8", "replace")
    shutil.rmtree(d, ignore_errors=True)
    row("a file in place of the claims folder: not said", 1, 0 if said else 1, "0",
        "the run must say it cannot claim its game")
    concurrent(binary, games, 3, False, rnd, claims=False)


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
    real_moves = []
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
        # Random directions (one generator per game: each move drawn anew), so the game is really played: a
        # direction that changes nothing is refused and the next one is tried.
        mover = random.Random(seed)
        moves = "".join(mover.choice("wasd") + "\n" for _ in range(3000))
        r = subprocess.run([binary, "2048", "--seed", str(seed)], input=(moves + "q\n").encode(),
                           capture_output=True, env=env_for(d), preexec_fn=preexec, timeout=300)
        t = r.stdout.decode("utf-8", "replace")
        made = [int(m) for m in re.findall(r"· (\d+) moves?", t)]
        real_moves.append(max(made) if made else 0)
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
        f"{how}; writes failed in {failures_seen} of {runs} games; {sum(real_moves)} real moves played "
        f"({min(real_moves)} to {max(real_moves)} a game)")


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


def sqlite_types(binary):
    """Saved games whose columns hold values of the wrong SQLite type: set aside whole, as stored; the game starts
    afresh and is played."""
    cases = [("moves", "x'ff00fe'"), ("seed", "'forty-two'"), ("options", "x'7b7d'"), ("score", "1.5"),
             ("assisted", "'yes'"), ("started_at", "x'00'"), ("session", "x'00ff'"), ("game", "x'32303438'")]
    runs = bad = 0
    failed = []
    for column, value in cases:
        d = tempfile.mkdtemp(prefix="parlor-type-")
        subprocess.run([binary, "2048", "--seed", "5"], input=b"a\nd\nq\n", capture_output=True, env=env_for(d))
        db = sqlite3.connect(os.path.join(d, "parlor.db"))
        db.execute(f"UPDATE unfinished SET {column} = {value}")
        db.commit()
        db.close()
        # A row whose game is not text is not a 2048 row to `parlor 2048`: the menu, which lists every game, finds it.
        # The new game's board is random: of the four directions one always moves (two tiles cannot block all four),
        # where left and up alone may both be refused (1 board in about 150).
        args, keys = ([binary], b"c1\nq\n") if column == "game" else ([binary, "2048"], b"a\nw\nd\ns\nq\n")
        r1 = subprocess.run(args, input=keys, capture_output=True, env=env_for(d), timeout=60)
        db = sqlite3.connect(os.path.join(d, "parlor.db"))
        aside = db.execute(f"SELECT COUNT(*) FROM set_aside WHERE {column} = {value}").fetchone()[0]
        db.close()
        t = (r1.stdout + r1.stderr).decode("utf-8", "replace")
        played = "Game saved." in t or column == "game"
        ok = r1.returncode == 0 and aside == 1 and "set aside" in t and played and "panicked" not in t
        runs += 1
        if not ok:
            bad += 1
            failed.append(column)
        shutil.rmtree(d, ignore_errors=True)
    row("saved games with a column of the wrong SQLite type", runs, bad, "0",
        "moves, seed, options, score, assisted, started_at, session, game: set aside as stored, a new game played"
        + (f"; failed: {failed}" if failed else ""))


def finished_rows(binary):
    """Damaged finished games: left out of the history, which says how many and why, in text and beside --json,
    as statistics count them; a history of damaged games only never says there is none."""
    d = tempfile.mkdtemp(prefix="parlor-fin-")
    for s_ in range(4):
        subprocess.run([binary, "2048", "--seed", str(s_ + 1)], input=b"a\nd\nx\ny\n", capture_output=True,
                       env=env_for(d))
    db = sqlite3.connect(os.path.join(d, "parlor.db"))
    db.execute("UPDATE games SET result = 'vanished' WHERE id = 1")
    db.execute("UPDATE games SET score = x'00' WHERE id = 2")
    db.execute("UPDATE games SET seeded = 'no' WHERE id = 3")
    db.commit()
    checks = []
    h = subprocess.run([binary, "history"], capture_output=True, env=env_for(d)).stdout.decode()
    checks.append(("history", "3 damaged finished games left out" in h))
    j = subprocess.run([binary, "history", "--json"], capture_output=True, env=env_for(d))
    try:
        shown = len(json.loads(j.stdout))
    except ValueError:
        shown = -1
    checks.append(("history --json", shown == 1 and b"3 damaged finished games left out" in j.stderr))
    st = subprocess.run([binary, "stats", "--game", "2048", "--json"], capture_output=True, env=env_for(d))
    checks.append(("stats", b'"damaged":3' in st.stdout))
    m = subprocess.run([binary], input=b"h\nq\n", capture_output=True, env=env_for(d)).stdout.decode()
    checks.append(("plain menu history", "3 damaged finished games left out" in m))
    db.execute("UPDATE games SET result = 'vanished' WHERE id = 4")
    db.commit()
    db.close()
    h = subprocess.run([binary, "history"], capture_output=True, env=env_for(d)).stdout.decode()
    checks.append(("all damaged", "No finished game yet" not in h and "4 damaged finished games left out" in h))
    shutil.rmtree(d, ignore_errors=True)
    failed = [w for w, ok in checks if not ok]
    row("damaged finished games hidden without a word", len(checks), len(failed), "0",
        "history, history --json, stats, the plain menu's history, a history of damaged games only"
        + (f"; failed: {failed}" if failed else ""))


def weights(binary):
    """Damaged 2048 weights files, a folder and a FIFO in their place: refused at once with the reason, and the
    hint comes from the hand-made evaluation (never a hang)."""
    # A real network's first bytes: the full 51 MB file when it was put back (it left the tree in session 18),
    # else the compiled-in sparse file's first half (its data crate), which a weights file may be too.
    crates = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates")
    full = os.path.join(crates, "twenty48", "weights", "twenty48-ntuple.p48")
    shipped = full if os.path.exists(full) else os.path.join(crates, "twenty48-net-1", "data", "twenty48-ntuple.p48s.1")
    d = tempfile.mkdtemp(prefix="parlor-weights-")
    head = open(shipped, "rb").read(200000)
    cases = {
        "random bytes": lambda p: open(p, "wb").write(os.urandom(100000)),
        "truncated": lambda p: open(p, "wb").write(head),
        "header then garbage": lambda p: open(p, "wb").write(head[:300] + os.urandom(5000)),
        "empty": lambda p: open(p, "wb").close(),
        "a folder": lambda p: os.mkdir(p),
        "a FIFO": lambda p: os.mkfifo(p),
    }
    runs = bad = 0
    failed = []
    for what, make in cases.items():
        p = os.path.join(d, f"w{runs}.p48")
        make(p)
        e = env_for(d)
        e["PARLOR_2048_WEIGHTS"] = p
        try:
            r = subprocess.run([binary, "--plain", "2048", "--seed", "1"], input=b"t\nq\n", capture_output=True,
                               env=e, timeout=60)
            t = r.stdout.decode("utf-8", "replace")
            ok = r.returncode == 0 and "Hint: slide" in t and "hand-made evaluation" in t
        except subprocess.TimeoutExpired:
            ok = False
        runs += 1
        if not ok:
            bad += 1
            failed.append(what)
    shutil.rmtree(d, ignore_errors=True)
    row("damaged 2048 weights: a hang, a crash or no fallback", runs, bad, "0",
        ", ".join(cases) + (f"; failed: {failed}" if failed else ""))


def tables_and_trees(binary):
    """Damaged Nocca tables and Mastermind strategy trees: the game goes on (a hint is given), nothing hangs."""
    runs = bad = 0
    failed = []
    hurts = {
        "random bytes": lambda p: open(p, "wb").write(os.urandom(max(os.path.getsize(p), 64))),
        "truncated": lambda p: os.truncate(p, os.path.getsize(p) // 2),
        "one byte flipped": lambda p: _patch(p, os.path.getsize(p) // 2, b"\xff"),
        "empty": lambda p: open(p, "wb").close(),
    }
    for what, hurt in hurts.items():
        d = tempfile.mkdtemp(prefix="parlor-table-")
        subprocess.run([binary, "nocca", "solve", "3x3"], capture_output=True, env=env_for(d), timeout=120)
        table = os.path.join(d, "tables", "nocca-3x3.table")
        if os.path.exists(table):
            hurt(table)
        try:
            r = subprocess.run([binary, "--plain", "nocca", "--board", "3x3", "--level", "perfect"],
                               input=b"t\nq\n", capture_output=True, env=env_for(d), timeout=120)
            t = r.stdout.decode("utf-8", "replace")
            ok = os.path.exists(table) or True
            ok = r.returncode == 0 and "Hint:" in t and "panicked" not in t
        except subprocess.TimeoutExpired:
            ok = False
        runs += 1
        if not ok:
            bad += 1
            failed.append(f"table {what}")
        shutil.rmtree(d, ignore_errors=True)
    for what in ("random bytes", "empty"):
        d = tempfile.mkdtemp(prefix="parlor-tree-")
        os.makedirs(os.path.join(d, "trees"))
        tree = os.path.join(d, "trees", "bulls-cows-optimal.pmt")
        open(tree, "wb").write(os.urandom(4096) if what == "random bytes" else b"")
        try:
            r = subprocess.run([binary, "--plain", "mastermind", "--variant", "bulls-cows"], input=b"t\nq\n",
                               capture_output=True, env=env_for(d), timeout=120)
            t = r.stdout.decode("utf-8", "replace")
            ok = r.returncode == 0 and "Hint" in t and "panicked" not in t
        except subprocess.TimeoutExpired:
            ok = False
        runs += 1
        if not ok:
            bad += 1
            failed.append(f"tree {what}")
        shutil.rmtree(d, ignore_errors=True)
    row("damaged Nocca tables and Mastermind trees: a hang or a crash", runs, bad, "0",
        "the 3x3 table random, truncated, a byte flipped, empty; the Bulls and Cows tree random, empty"
        + (f"; failed: {failed}" if failed else ""))


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


def engine_limits(binary):
    """2048 slides whose tile or points cannot be held (refused whole, nothing printed on stdout); a Nocca solve
    larger than this machine can hold (its cost said first, refused at once); a long perft stopped by SIGINT."""
    d = tempfile.mkdtemp(prefix="parlor-limits-")
    top, half = str(2 ** 63), str(2 ** 62)
    checks = []
    for board, why in [(f"{top},{top},0/{half},{half},0/0,0,0", "cannot hold"),
                       (f"{half},{half},{half},{half}/0,0,0,0/0,0,0,0/0,0,0,0", "2^64 points"),
                       (f"{top},{top},{top}/{top},{top},{top}/{top},{top},{top}", "cannot hold")]:
        r = subprocess.run([binary, "2048", "slide", board, "left", "--json"], capture_output=True, env=env_for(d))
        checks.append((f"slide {board[:24]}...", r.returncode != 0 and not r.stdout and why.encode() in r.stderr))
    total = int(open("/proc/meminfo").read().split("MemTotal:")[1].split()[0]) * 1024 if os.path.exists(
        "/proc/meminfo") else None
    for board, need in [("5x5", 14.9e9), ("6x5", 74.8e9)]:
        if total is None or need <= total / 2:
            continue
        t0 = time.time()
        r = subprocess.run([binary, "nocca", "solve", board], capture_output=True, env=env_for(d), timeout=60)
        e = r.stderr.decode("utf-8", "replace")
        checks.append((f"solve {board}", r.returncode != 0 and f"solving {board}: about" in e
                       and "is not solved here" in e and time.time() - t0 < 10))
    p = subprocess.Popen([binary, "nocca", "perft", "12"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env_for(d))
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=10)
        checks.append(("perft 12 and SIGINT", p.returncode != 0 and b"stopped after" in err))
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        checks.append(("perft 12 and SIGINT", False))
    shutil.rmtree(d, ignore_errors=True)
    failed = [w for w, ok in checks if not ok]
    row("engine limits: a 2^64 tile or 2^64 points, a solve too large, a perft stopped", len(checks), len(failed),
        "0", "3 slides refused, 5x5 and 6x5 solves refused where over half the memory, perft 12 stopped by SIGINT"
        + (f"; failed: {failed}" if failed else ""))


def _state(pid):
    try:
        stat = open(f"/proc/{pid}/stat").read()
        return stat.rsplit(") ", 1)[1][0]
    except (OSError, IndexError):
        return "?"


def suspends(binary, repeats):
    """Ctrl-Z and `kill -TSTP` in the full screen: stopped, the terminal must be given back (cooked mode, main
    screen, cursor shown, mouse off); on SIGCONT the full screen comes back and takes keys; after quitting, the
    terminal is given back again."""
    runs = bad = 0
    failed = []
    for what, stop in [("Ctrl-Z", lambda pid, fd: os.write(fd, b"\x1a")),
                       ("kill -TSTP", lambda pid, fd: os.kill(pid, signal.SIGTSTP))]:
        for _ in range(repeats):
            d = tempfile.mkdtemp(prefix="parlor-tstp-")
            pid, fd = tui_spawn(binary, ["2048", "--seed", "1"], d)
            stream = read_until(fd, b"help")
            time.sleep(0.1)
            stop(pid, fd)
            deadline = time.time() + 10
            while _state(pid) != "T" and time.time() < deadline:
                stream += read_until(fd, b"\x00", 0.05)
            stream += read_until(fd, b"\x00", 0.2)
            stopped_ok = _state(pid) == "T" and restored(stream, fd)
            os.kill(pid, signal.SIGCONT)
            back = read_until(fd, b"\x1b[?1049h", 10)
            back += read_until(fd, b"Score", 5)
            taken_back = b"\x1b[?1049h" in back and b"Score" in back
            os.write(fd, b"q")
            time.sleep(0.3)
            os.write(fd, b"q")
            stream += back
            done = False
            deadline = time.time() + 10
            while time.time() < deadline:
                stream += read_until(fd, b"\x00", 0.1)
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    done = True
                    stream += read_until(fd, b"\x00", 0.2)
                    break
            ok = stopped_ok and taken_back and done and restored(stream, fd)
            if not done:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            os.close(fd)
            runs += 1
            if not ok:
                bad += 1
                failed.append(f"{what}: stopped {stopped_ok}, taken back {taken_back}, ended {done}")
            shutil.rmtree(d, ignore_errors=True)
    row("full-screen suspend (Ctrl-Z, kill -TSTP) and SIGCONT: terminal not given back or not taken back", runs,
        bad, "0", f"{repeats} each" + (f"; failed: {sorted(set(failed))}" if failed else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--kills", type=int, default=150)
    ap.add_argument("--games", type=int, default=6000,
                    help="games to finish: half by three processes without --seed, as many again in the other cases")
    ap.add_argument("--endings", type=int, default=5, help="runs of each way to end the full screen")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    rnd = random.Random(a.seed)
    started = time.time()
    kill_nine(binary, a.kills, rnd)
    for seeded in (False, True):
        for procs in (3, 2):
            concurrent(binary, a.games // 2 if procs == 3 else a.games // 4, procs, seeded, rnd)
    no_claims(binary, max(a.games // 10, 30), rnd)
    full_disk(binary)
    damaged(binary)
    sqlite_types(binary)
    finished_rows(binary)
    weights(binary)
    tables_and_trees(binary)
    engine_limits(binary)
    endings(binary, a.endings)
    suspends(binary, a.endings)
    print("| fault | runs | bad | target | notes |")
    print("|---|---|---|---|---|")
    for what, runs, bad, target, note in ROWS:
        print(f"| {what} | {runs} | {bad} | {target} | {note} |")
    print(f"\n({time.time() - started:.0f} s; {sys.platform}, euid {os.geteuid()})")
    sys.exit(1 if any(r[2] for r in ROWS) else 0)


if __name__ == "__main__":
    main()
