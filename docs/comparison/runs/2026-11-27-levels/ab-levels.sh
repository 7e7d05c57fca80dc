#!/bin/bash
# A/B: flat shm collectives vs groups of 2 (TERN_SHMCOLL_GROUP=2), Tern only, interleaved.
B=/work/main/build-bench/bin
out=/work/rec/ab-levels; mkdir -p $out
for np in 4 8; do
for rep in 1 2 3 4 5; do
  for mode in flat g2; do
    env=""; [ $mode = g2 ] && env="TERN_SHMCOLL_GROUP=2"
    env $env $B/mpiexec -n $np $B/tern-bench barrier bcast reduce allreduce -m 8,1K -i 2000 -x 200 > $out/np$np-$mode-$rep.txt 2>&1
  done
done
done
