#!/bin/bash
# A/B of the small blocking collectives' data in the flag line, one sitting, interleaved: a build
# of the commit before (BASE, data in the slots) against this one (BUILD), 2 ranks, medians of 7
# (the ratio: median of the repetitions' ratios, base and new run back to back);
# each repetition also measures the cache-line transfer between the two cores (bench-cacheline).
# usage: BASE=build-base BUILD=build ab.sh OUT.md   (the runs in OUT.md.raw)
out=$1; : > $out.raw
for rep in 1 2 3 4 5 6 7; do
  line=$(${BUILD:-build}/bin/bench-cacheline 2>/dev/null | grep -o '[0-9.]* ns' | head -1)
  echo "# rep $rep cache line: $line" >> $out.raw
  for b in bcast gather allgather reduce allreduce reduce_scatter scan; do
    for which in base new; do
      B=$([ $which = base ] && echo ${BASE:-build-base} || echo ${BUILD:-build})/bin
      $B/mpiexec -n 2 $B/tern-bench $b -m 1,8,16,64 -f json 2>/dev/null | python3 -c '
import json, sys
for row in json.loads(sys.stdin.read())["rows"]: print(sys.argv[1], sys.argv[2], sys.argv[3], int(row[0]), row[1])' $rep $b $which >> $out.raw
    done
  done
done
python3 - "$out" <<'PY'
import sys,statistics as st
out=sys.argv[1]; d={}
for l in open(out+'.raw'):
    if l.startswith('#'): continue
    r,b,w,sz,v=l.split(); d.setdefault((b,int(sz),w),{})[int(r)]=float(v)
with open(out,'w') as f:
    f.write('| benchmark | size | slots (us) | flag line (us) | flag line / slots |\n|---|---|---|---|---|\n')
    for b in 'bcast gather allgather reduce allreduce reduce_scatter scan'.split():
        for sz in (1,8,16,64):
            if (b,sz,'base') not in d: continue
            a=d[(b,sz,'base')]; c=d[(b,sz,'new')]
            ratio=st.median(c[r]/a[r] for r in a if r in c)
            f.write('| %s | %d B | %.4f | %.4f | %.2f |\n'%(b,sz,st.median(a.values()),st.median(c.values()),ratio))
    f.write('\n'+''.join(l for l in open(out+'.raw') if l.startswith('#')))
PY
