# An independent replay of a compact strategy tree (PMCT version 1, see src/compact.rs) of Super Mastermind:
# its own decoder and its own feedback function, in another language than the engine.
# Usage: python3 crates/mastermind/scripts/check_compact_tree.py crates/mastermind/data/super-best.pmct
import struct, sys, itertools
b = open(sys.argv[1], 'rb').read()
assert b[:4] == b'PMCT' and b[4] == 1
h = 0xcbf29ce484222325
for x in b[:-8]:
    h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
assert h == struct.unpack('<Q', b[-8:])[0], 'checksum'
n = b[5]; name = b[6:6+n].decode(); p = 6 + n
total_claim, = struct.unpack('<Q', b[p:p+8]); mx = b[p+8]; cnt, = struct.unpack('<I', b[p+9:p+13])
body = b[p+13:-8]; assert len(body) == 2*cnt
gs = struct.unpack('<%dH' % cnt, body)
assert name == 'super'
P, C = 5, 8
codes = list(itertools.product(range(C), repeat=P))  # numeric order: first peg most significant
def fb(s, g):
    bl = sum(a == c for a, c in zip(s, g))
    common = sum(min(s.count(k), g.count(k)) for k in range(C))
    return (bl, common - bl)
pos = 0
depth_of = {}
def node(cands, depth):
    global pos
    if len(cands) == 1 and depth > 1:
        g = cands[0]
    else:
        g = codes[gs[pos]]; pos += 1
    parts = {}
    for s in cands:
        parts.setdefault(fb(s, g), []).append(s)
    for f in sorted(parts):
        if f == (P, 0):
            for s in parts[f]: depth_of[s] = depth
        else:
            node(parts[f], depth + 1)
sys.setrecursionlimit(10000)
node(codes, 1)
assert pos == cnt
assert len(depth_of) == len(codes)
tot = sum(depth_of.values()); m = max(depth_of.values())
hist = [0]*(m+1)
for d in depth_of.values(): hist[d] += 1
print(name, 'claimed', total_claim, mx, 'replayed', tot, m, hist)
assert tot == total_claim and m == mx
