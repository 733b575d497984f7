#!/usr/bin/env python3
"""Checks that each workspace crate's `rust-version` is true: no dependency it builds with (normal and build
dependencies, on any platform, as locked in Cargo.lock) declares a newer `rust-version` than the crate does.

Run from the repository root: `python3 scripts/msrv-check.py`. Exits 1 and names the crate and the dependency that
needs a newer toolchain; exits 0 saying each crate's claim and the newest dependency under it. Only one toolchain
can be installed here, so this checks the claim against the dependencies' own claims; clippy reads the same
`rust-version` (its `msrv`) and warns of any newer standard library API the crate's own code calls.
"""

import json
import subprocess
import sys


def version(text):
    """A `rust-version` as a tuple of three numbers (a missing one counts as no claim: 0)."""
    parts = [int(x) for x in (text or "0").split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def shown(v):
    return ".".join(str(x) for x in v)


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    failed = False
    for member in meta["workspace_members"]:
        claim = version(packages[member].get("rust_version"))
        seen, stack, newest, who = set(), [member], (0, 0, 0), None
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            if pid != member:
                need = version(packages[pid].get("rust_version"))
                if need > newest:
                    newest, who = need, packages[pid]["name"]
            for dep in nodes[pid]["deps"]:
                # Normal and build dependencies; dev-dependencies only of the member itself are left out (they
                # build its tests, not the crate a user builds).
                if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
                    stack.append(dep["pkg"])
        name = packages[member]["name"]
        if newest > claim:
            print(f"{name}: rust-version {shown(claim)}, but {who} needs {shown(newest)}")
            failed = True
        else:
            print(f"{name}: rust-version {shown(claim)} (newest dependency claim: {shown(newest)}, {who})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
