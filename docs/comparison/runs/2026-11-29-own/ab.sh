#!/bin/bash
# A/B of the small shared-memory collectives that read neither this rank's
# own input nor its own flag back from its line, and carry alltoall's and
# scatter's blocks (and the nonblocking calls' data) in the flag line: a
# build of the commit before (BASE) against this one (BUILD), 2 ranks, one
# sitting, interleaved, REPS repetitions (default 7), PAUSE seconds between
# them (default 0) to meet the host's placements of the two cores.
#
# The placement changes within a minute, so every pair (the same benchmark
# on both builds, back to back) is bracketed by two measurements of the
# cache-line transfer between the cores (bench-cacheline): a pair counts
# under a placement only when both agree (about 25, 55 or 260 ns), and
# pairs that straddled a change are left out.  Ratio: median over the
# pairs of each placement of after / before.
# usage: [REPS=7] [PAUSE=0] BASE=build-base BUILD=build ab.sh OUT.md
#        (the runs in OUT.md.raw); SUMMARY_ONLY=1 ab.sh OUT.md: OUT.md
#        again from OUT.md.raw
out=$1
benches="barrier allreduce reduce alltoall scatter gather bcast allgather reduce_scatter scan exscan ibcast igather iscatter iallgather ialltoall iallreduce"
line() { ${BUILD:-build}/bin/bench-cacheline -r 5 -n 20000 2>/dev/null | grep -o '[0-9.]* ns' | head -1 | cut -d' ' -f1; }
[ -n "$SUMMARY_ONLY" ] || : > $out.raw
[ -n "$SUMMARY_ONLY" ] || for rep in $(seq 1 ${REPS:-7}); do
  sleep ${PAUSE:-0}
  for b in $benches; do
    before=$(line)
    : > $out.pair
    for which in base new; do
      B=$([ $which = base ] && echo ${BASE:-build-base} || echo ${BUILD:-build})/bin
      $B/mpiexec -n 2 $B/tern-bench $b -m 1,8 -f json 2>/dev/null | python3 -c '
import json, sys
for row in json.loads(sys.stdin.read())["rows"]: print(sys.argv[1], sys.argv[2], sys.argv[3], int(row[0]), row[1])' $rep $b $which >> $out.pair
    done
    after=$(line)
    sed "s/\$/ $before $after/" $out.pair >> $out.raw
  done
done
rm -f $out.pair
python3 - "$out" "$benches" <<'PY'
import sys, statistics as st
out, benches = sys.argv[1], sys.argv[2].split()
def place(ns):
    ns = float(ns)
    return 'about 25 ns' if ns < 40 else 'about 55 ns' if ns < 120 else 'about 260 ns'
d, straddled = {}, 0
for l in open(out + '.raw'):
    rep, b, w, sz, v, ns0, ns1 = l.split()
    if place(ns0) != place(ns1):
        straddled += 1
        continue
    d.setdefault((place(ns0), b, int(sz)), {}).setdefault(int(rep), {})[w] = float(v)
with open(out, 'w') as f:
    f.write('%d runs left out: the placement changed between the two measurements around them\n' % straddled)
    for p in ('about 260 ns', 'about 55 ns', 'about 25 ns'):
        rows = [(b, sz) for b in benches for sz in (0, 1, 8) if (p, b, sz) in d]
        if not rows: continue
        f.write('\nA cache line between the cores in %s\n\n' % p)
        f.write('| benchmark | size | pairs | before (us) | after (us) | after / before |\n|---|---|---|---|---|---|\n')
        for b, sz in rows:
            pairs = [x for x in d[(p, b, sz)].values() if 'base' in x and 'new' in x]
            if not pairs: continue
            f.write('| %s | %s | %d | %.3f | %.3f | %.2f |\n' % (
                b, '–' if sz == 0 else '%d B' % sz, len(pairs), st.median(x['base'] for x in pairs),
                st.median(x['new'] for x in pairs), st.median(x['new'] / x['base'] for x in pairs)))
PY
