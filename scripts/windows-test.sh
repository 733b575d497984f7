#!/usr/bin/env bash
# Windows: cross-builds parlor.exe (x86_64-pc-windows-gnu, Debian's mingw-w64 as linker) and plays it under wine,
# in plain mode through pipes, with a temporary WINEPREFIX and data directory (docs/TESTING.md, Windows).
# Needs: rustup's x86_64-pc-windows-gnu target, gcc-mingw-w64-x86-64 and wine (.ci/run installs them).
# Usage: scripts/windows-test.sh [PARLOR_EXE]   (an already built parlor.exe skips the build)
#        scripts/windows-test.sh --build        (only the build, into CARGO_TARGET_DIR or target/)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "windows-test: FAILED: $*" >&2
    exit 1
}
for tool in wine x86_64-w64-mingw32-gcc python3; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install -y wine gcc-mingw-w64-x86-64)"
done

exe="${1:-}"
if [ -z "$exe" ] || [ "$exe" = --build ]; then
    rustup target list --installed | grep -qx x86_64-pc-windows-gnu || rustup target add x86_64-pc-windows-gnu
    # The dev profile (opt-level 1): the same code as a release, built in a fraction of the time.
    cargo build --target x86_64-pc-windows-gnu -p parlor
    if [ "$exe" = --build ]; then exit 0; fi
    exe="${CARGO_TARGET_DIR:-target}/x86_64-pc-windows-gnu/debug/parlor.exe"
fi
[ -f "$exe" ] || fail "no $exe"
exe="$(realpath "$exe")"

work="$(mktemp -d)"
trap 'WINEPREFIX="$work/prefix" wineserver -k 2>/dev/null || true; rm -rf "$work"' EXIT
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
# The data and settings in a directory of their own (parlor reads these variables on Windows as elsewhere).
# wine shows the Unix file system as drive Z:.
mkdir -p "$work/data"
# shellcheck disable=SC1003 # a backslash, not an escaped quote
data="Z:$(printf '%s' "$work/data" | tr / '\\')"
export PARLOR_DATA_DIR="$data" PARLOR_CONFIG_DIR="$data"

# Runs parlor.exe under wine with stdin from $2 (a string), its stdout in $work/out and stderr in $work/err.
run() {
    local input="$1"
    shift
    printf '%s' "$input" | wine "$exe" "$@" >"$work/out" 2>"$work/err" || {
        echo "--- stdout" >&2
        tail -20 "$work/out" >&2
        echo "--- stderr" >&2
        tail -20 "$work/err" >&2
        return 1
    }
    # Windows line ends out of the console: compared as Unix text.
    sed -i 's/\r$//' "$work/out" "$work/err"
}
check() {
    echo "windows-test: $1"
}
has() {
    grep -qF -- "$1" "$work/out" || {
        tail -20 "$work/out" >&2
        fail "$2: the output lacks '$1'"
    }
}

start=$(date +%s)
check "wine starts (the prefix is made once, then reused)"
wineboot -i >/dev/null 2>&1 || true
# Rust's std needs bcryptprimitives.dll (ProcessPrng), which wine 8 lacks: a stand-in in this prefix only
# (scripts/wine-bcryptprimitives.c; every Windows from 10 has the real one).
if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
        scripts/wine-bcryptprimitives.c -lbcrypt || fail "could not build the bcryptprimitives.dll stand-in"
fi

check "--version names the version"
run "" --version || fail "--version exited with an error"
grep -Eq '^parlor [0-9]+\.[0-9]+\.[0-9]+' "$work/out" || fail "--version printed '$(cat "$work/out")'"

check "--help lists the commands"
run "" --help || fail "--help exited with an error"
has "history" "--help"
has "mastermind" "--help"

check "2048 in plain mode through a pipe, played to the end (no move left)"
moves="$(python3 -c 'print("a\nd\ns\nw\n" * 1000, end="")')"
run "$moves" 2048 --seed 7 --size 3 || fail "2048 exited with an error"
has "Game over: no move left" "2048 played to its end"
has "Recorded as game #1" "2048 recorded"

check "Mastermind in plain mode through a pipe, played to the end (out of guesses)"
run "$(python3 -c 'print("red red red red\n" * 8, end="")')" mastermind --seed 5 || fail "mastermind exited with an error"
has "Out of guesses: the code was" "mastermind played to its end"
has "Recorded as game #2" "mastermind recorded"

check "Nocca Nocca in plain mode through a pipe, two players, to a goal win"
run "$(printf '%s\n' c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k)" nocca --mode two --seed 4 ||
    fail "nocca exited with an error"
has "Recorded as game #3" "nocca played to a win and recorded"

check "mastermind solve (a strategy tree built and its figures printed as JSON)"
run "" mastermind solve --strategy knuth --json || fail "mastermind solve exited with an error"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["codes"] == 360' "$work/out" || fail "mastermind solve --json printed no JSON: $(head -c 300 "$work/out")"

check "history --json holds the three games"
run "" history --json || fail "history --json exited with an error"
python3 - "$work/out" <<'EOF' || fail "history --json does not hold the games played"
import json, sys
games = json.load(open(sys.argv[1]))
got = sorted(g["game"] for g in games)
assert got == ["2048", "mastermind", "nocca"], got
# Each finished as played: 2048 and Mastermind lost, the two-player Nocca game done (a result for neither "you").
results = {g["game"]: g["result"] for g in games}
assert results == {"2048": "lost", "mastermind": "lost", "nocca": "done"}, results
EOF

check "a game resumed after the process is killed mid-game keeps its moves"
fifo="$work/in"
mkfifo "$fifo"
wine "$exe" mastermind --variant classic --seed 8 <"$fifo" >"$work/killed" 2>&1 &
pid=$!
exec 3>"$fifo"
printf '1 1 2 2\nred ye or bla\n' >&3
for _ in $(seq 1 60); do
    grep -q "2 of 10 guesses used" "$work/killed" 2>/dev/null && break
    sleep 0.5
done
grep -q "2 of 10 guesses used" "$work/killed" || fail "the game to kill did not take its two guesses: $(tail -5 "$work/killed")"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
exec 3>&-
run "" mastermind --variant classic || fail "the resumed game exited with an error"
has "Continuing your game in progress" "resume after a kill"
has "RED RED GRE GRE   #1" "resume after a kill: the first guess"
has "RED YEL ORA BLA   #2" "resume after a kill: the second guess"
has "Input ended: the game is saved" "resume after a kill"

echo "windows-test: all checks passed in $(($(date +%s) - start)) s"
