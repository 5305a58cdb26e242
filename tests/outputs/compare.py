#!/usr/bin/env python3
"""compare.py A B [CHECKOUT...]: diff two recordings of record.sh after masking what differs from
run to run: scratch paths, process ids, the checkouts' own paths (CHECKOUT...), manifest
timestamps, and the numbers on lines that talk about time. A TSV file is compared as a set of rows
(parallel workers write rows in any order) and reported by the columns that differ. Prints the
differences that remain and, on stderr, how many files differ."""
import os, re, sys, difflib
A, B = sys.argv[1], sys.argv[2]
CHECKOUTS = [os.path.abspath(c) for c in sys.argv[3:]]
TIMEWORDS = re.compile(r'wall|processor|CPU|cpu|elapsed|ETA|ends about|solve_s|seconds per|\bms\b.*\bper\b| s\)| s\.$| s,|took|speed|in \d+(\.\d+)? s\b|\(\d+s\)|rounds|ratio', re.I)
NUM = re.compile(r'\d+(\.\d+)?(e[-+]?\d+)?')
def norm(line):
    line = re.sub(r'/tmp/[^/\s:\'"]+', '/tmp/TMP', line)
    line = re.sub(r'\(pid \d+\)', '(pid N)', line)
    line = re.sub(r'/tmp/[\w.-]+?[-.]\w{6}\b', '/tmp/TMP', line)
    if re.search(r'SIG[A-Z]+ |background job|redraw per|peak RSS|within \(ms\)|run time|solve time|CVODE BDF to', line):
        line = NUM.sub('N', line)
    for c in CHECKOUTS:
        line = line.replace(c, 'CHECKOUT')
    line = re.sub(r'run of \S+Z', 'run of TIME', line)
    if TIMEWORDS.search(line):
        line = NUM.sub('N', line)
    return line
def files(root):
    out = set()
    for d, _, fs in os.walk(root):
        for f in fs:
            out.add(os.path.relpath(os.path.join(d, f), root))
    return out
fa, fb = files(A), files(B)
for f in sorted(fa ^ fb):
    print(f"only in {'A' if f in fa else 'B'}: {f}")
n = 0
for f in sorted(fa & fb):
    la = [norm(l) for l in open(os.path.join(A, f), errors='replace').read().splitlines()]
    lb = [norm(l) for l in open(os.path.join(B, f), errors='replace').read().splitlines()]
    if f.endswith('.tsv') and la and lb and len(la) == len(lb) and la[0] == lb[0]:
        head = la[0].split('\t')
        ra, rb = sorted(la[1:]), sorted(lb[1:])
        cols = {}
        for x, y in zip(ra, rb):
            xa, yb = x.split('\t'), y.split('\t')
            for i, (c1, c2) in enumerate(zip(xa, yb)):
                if c1 != c2:
                    cols[head[i] if i < len(head) else i] = cols.get(head[i] if i < len(head) else i, 0) + 1
        if cols:
            n += 1
            print(f"--- {f}: rows equal as a set apart from columns {cols}")
        continue
    if la != lb:
        d = list(difflib.unified_diff(la, lb, f, f, n=0, lineterm=''))
        n += 1
        print('\n'.join(d[:40]))
        if len(d) > 40: print(f"... {len(d) - 40} more lines")
print(f"{n} files differ after masking", file=sys.stderr)
