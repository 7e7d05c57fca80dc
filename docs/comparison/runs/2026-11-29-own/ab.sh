#!/bin/bash
# A/B of the small shared-memory collectives reading neither this rank's own
# input nor its own flag back from its line (and alltoall's and scatter's
# blocks in the flag line), one sitting, interleaved: a build of the commit before (BASE)
# against this one (BUILD), 2 ranks, REPS repetitions (default 7); each
# repetition also measures the cache-line transfer between the two cores
# (bench-cacheline), and the summary keeps the placements apart.
# usage: [REPS=7] [PAUSE=0 seconds between repetitions, to meet both placements]
#        BASE=build-base BUILD=build ab.sh OUT.md   (the runs in OUT.md.raw)
#        SUMMARY_ONLY=1 ab.sh OUT.md: OUT.md again from OUT.md.raw
out=$1
benches="barrier allreduce reduce alltoall scatter reduce_scatter scan exscan"
[ -n "$SUMMARY_ONLY" ] || : > $out.raw
[ -n "$SUMMARY_ONLY" ] || for rep in $(seq 1 ${REPS:-7}); do
  sleep ${PAUSE:-0}
  line=$(${BUILD:-build}/bin/bench-cacheline 2>/dev/null | grep -o '[0-9.]* ns' | head -1)
  echo "# rep $rep cache line: $line" >> $out.raw
  for b in $benches; do
    for which in base new; do
      B=$([ $which = base ] && echo ${BASE:-build-base} || echo ${BUILD:-build})/bin
      $B/mpiexec -n 2 $B/tern-bench $b -m 1,8,16,64 -f json 2>/dev/null | python3 -c '
import json, sys
for row in json.loads(sys.stdin.read())["rows"]: print(sys.argv[1], sys.argv[2], sys.argv[3], int(row[0]), row[1])' $rep $b $which >> $out.raw
    done
  done
done
python3 - "$out" "$benches" <<'PY'
import sys, re, statistics as st
out, benches = sys.argv[1], sys.argv[2].split()
d, place = {}, {}
for l in open(out + '.raw'):
    if l.startswith('#'):
        m = re.match(r'# rep (\d+) cache line: ([0-9.]+)', l)
        if m:
            ns = float(m.group(2))
            place[int(m.group(1))] = 'about 25 ns' if ns < 40 else 'about 55 ns' if ns < 120 else 'about 260 ns'
        continue
    r, b, w, sz, v = l.split()
    d.setdefault((b, int(sz), w), {})[int(r)] = float(v)
with open(out, 'w') as f:
    for p in ('about 260 ns', 'about 55 ns', 'about 25 ns'):
        reps = [r for r in place if place[r] == p]
        if not reps: continue
        f.write('\nA cache line between the cores in %s (%d repetitions)\n\n' % (p, len(reps)))
        f.write('| benchmark | size | before (us) | after (us) | after / before |\n|---|---|---|---|---|\n')
        for b in benches:
            for sz in (0, 1, 8, 16, 64):
                if (b, sz, 'base') not in d: continue
                a = d[(b, sz, 'base')]; c = d[(b, sz, 'new')]
                rs = [r for r in reps if r in a and r in c]
                if not rs: continue
                ratio = st.median(c[r] / a[r] for r in rs)
                f.write('| %s | %d B | %.3f | %.3f | %.2f |\n' % (b, sz, st.median(a[r] for r in rs),
                                                              st.median(c[r] for r in rs), ratio))
    f.write('\n' + ''.join(l for l in open(out + '.raw') if l.startswith('#')))
PY
