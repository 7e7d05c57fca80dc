#!/bin/bash
# A/B of the slots' bound for the data movers, one sitting, interleaved: TERN_SHMCOLL_MOVE_MAX=4K
# (what every shared-memory collective carried before) against the default, medians of 5.
# usage: BUILD=build ab.sh OUT.md   (the runs in OUT.md.raw)
B=${BUILD:-build}/bin
out=$1; : > $out.raw
for rep in 1 2 3 4 5; do
  for np in 2 4 8; do
    for b in bcast gather scatter allgather alltoall ibcast igather iscatter iallgather ialltoall; do
      for mv in 4K 256K; do
        TERN_SHMCOLL_MOVE_MAX=$mv $B/mpiexec -n $np $B/tern-bench $b -m 8K,64K -f text 2>/dev/null | grep -v "^#" | grep . | awk -v r=$rep -v n=$np -v b=$b -v m=$mv '{print r, n, b, m, $1, $2}' >> $out.raw
      done
    done
  done
done
python3 - "$out" <<'PY'
import sys,statistics as st
out=sys.argv[1]; d={}
for l in open(out+'.raw'):
    r,n,b,m,sz,v=l.split(); d.setdefault((int(n),b,int(sz),m),[]).append(float(v))
with open(out,'w') as f:
    f.write('| benchmark | ranks | size | 4K bound (us) | default (us) | default / 4K |\n|---|---|---|---|---|---|\n')
    for n in (2,4,8):
        for b in 'bcast gather scatter allgather alltoall ibcast igather iscatter iallgather ialltoall'.split():
            for sz in (8192,65536):
                a=st.median(d[(n,b,sz,'4K')]); c=st.median(d[(n,b,sz,'256K')])
                f.write('| %s | %d | %s | %.2f | %.2f | %.2f |\n'%(b,n,'8 KiB' if sz==8192 else '64 KiB',a,c,c/a))
PY
