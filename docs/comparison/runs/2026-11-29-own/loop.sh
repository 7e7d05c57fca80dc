#!/bin/bash
# The OSU-style loop (collective, then barrier) split per rank, both builds,
# once the cores are in separate caches (the 260 ns placement): how the
# time of a call moves between the call and the barrier that follows it.
# usage: BASE=build-base BUILD=build loop.sh   (loop.c built with BUILD's mpicc)
B=${BUILD:-build}; A=${BASE:-build-base}
$B/bin/mpicc -O2 "$(dirname "$0")/loop.c" -o /tmp/loop.tern
for k in 1 2; do
  for m in bcast gather allgather; do
    LBL=base LD_LIBRARY_PATH=$A/lib $A/bin/mpiexec -n 2 /tmp/loop.tern $m | sort
    LBL=new $B/bin/mpiexec -n 2 /tmp/loop.tern $m | sort
  done
  $B/bin/bench-cacheline -r 5 -n 20000 | grep cacheline_ns
done
