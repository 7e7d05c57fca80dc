#!/bin/bash
# A/B of the nonblocking partitioned allreduce, one sitting, interleaved:
# TERN_IALLREDUCE_ALGORITHM=recursive_doubling (what auto took above 4 KiB
# before) against auto (shm_partition), medians of 5.  OMB's overall time
# of MPI_Iallreduce with its computation, and its pure communication time.
# usage: BUILD=build ab.sh OUT.md   (the runs in OUT.md.raw)
B=${BUILD:-build}/bin
out=$1; : > $out.raw
for rep in 1 2 3 4 5; do
  for np in 2 4 8; do
    for alg in recursive_doubling auto; do
      TERN_IALLREDUCE_ALGORITHM=$alg $B/mpiexec -n $np $B/tern-bench iallreduce -m 8K,64K,512K,1M,4M -f text 2>/dev/null | grep -v "^#" | grep . | awk -v r=$rep -v n=$np -v a=$alg '{print r, n, a, $1, $2, $4}' >> $out.raw
    done
  done
done
python3 - "$out" <<'PY'
import sys,statistics as st
out=sys.argv[1]; d={}
for l in open(out+'.raw'):
    r,n,a,sz,ov,pure=l.split(); d.setdefault((int(n),a,int(sz)),[]).append((float(ov),float(pure)))
def med(k,i): return st.median(v[i] for v in d[k])
with open(out,'w') as f:
    f.write('| ranks | size | recursive doubling: overall / pure (us) | shm_partition: overall / pure (us) | overall, partition / doubling |\n|---|---|---|---|---|\n')
    for n in (2,4,8):
        for sz in sorted({k[2] for k in d if k[0]==n}):
            a=(n,'recursive_doubling',sz); c=(n,'auto',sz)
            lab='%d KiB'%(sz//1024) if sz<1<<20 else '%d MiB'%(sz>>20)
            f.write('| %d | %s | %.1f / %.1f | %.1f / %.1f | %.2f |\n'%(n,lab,med(a,0),med(a,1),med(c,0),med(c,1),med(c,0)/med(a,0)))
PY
