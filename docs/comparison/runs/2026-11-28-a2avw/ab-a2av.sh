#!/bin/bash
# A/B on one build: ialltoallv/ialltoallw through shared memory (auto) against the
# point-to-point exchange (TERN_IALLTOALLV/W_ALGORITHM=exchange, what auto took before),
# interleaved, 5 repetitions, 2 and 4 ranks, sizes 8 B, 512 B, 64 KiB.
B=${1:-/work/build-dev}
for rep in 1 2 3 4 5; do
  for np in 2 4; do
    for alg in shm exchange; do
      for b in ialltoallv ialltoallw; do
        out=$(TERN_IALLTOALLV_ALGORITHM=$alg TERN_IALLTOALLW_ALGORITHM=$alg $B/bin/mpiexec -n $np \
              $B/bin/tern-bench $b -m 8,512,64K 2>&1 | grep -E '^[0-9]')
        while read -r size overall rest; do
          echo "$rep $np $alg $b $size $overall"
        done <<< "$out"
      done
    done
  done
done
