#!/usr/bin/env bash
# run_rma_matrix.sh MPIEXEC TERN_BENCH NP
#
# Every one-sided benchmark with every synchronisation it offers and every
# window kind, validated (-c), a few sizes: each must end with "# NAME: ok"
# after at least one row of numbers, so a wrong value in any mode fails.
set -u
mpiexec=$1 bench=$2 np=$3
passive="put-latency get-latency put-bw get-bw acc-latency get-acc-latency fop-latency cas-latency"
active="$passive put-bibw halo2d-put halo3d-put"

bad=0
for sync in lock lock_all flush flush_local fence pscw; do
    names=$passive
    [[ $sync == fence || $sync == pscw ]] && names=$active
    for win in create allocate dynamic alloc_mem; do
        # the halos' grids come from the heap: no alloc_mem window for them
        [[ $win == alloc_mem ]] && names=${names/ halo2d-put halo3d-put/}
        # shellcheck disable=SC2086
        out=$("$mpiexec" --timeout 100 -n "$np" "$bench" $names -m 1,8,100,4096 -i 2 -x 1 -w 4 -c \
              --sync "$sync" --win "$win" 2>&1)
        rc=$?
        for n in $names; do
            rows=$(awk -v n="$n" 'index($0, "# tern-bench " n ": ") == 1 { on = 1; next }
                                  on && /^[0-9]/ { r++ } on && index($0, "# " n ": ") == 1 { on = 0 }
                                  END { print r + 0 }' <<<"$out")
            if ! grep -qxF "# $n: ok" <<<"$out" || ((rows == 0)); then
                echo "FAIL: $n --sync $sync --win $win:"
                grep -F "# $n: " <<<"$out" || tail -5 <<<"$out"
                bad=1
            fi
        done
        if ((rc != 0)); then
            echo "FAIL: --sync $sync --win $win: tern-bench exited with $rc"
            bad=1
        fi
    done
done
((bad)) || echo "every one-sided benchmark gave the right data with every synchronisation and window kind"
exit $bad
