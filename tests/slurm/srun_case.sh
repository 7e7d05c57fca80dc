#!/usr/bin/env bash
# One Slurm test: srun starts PROGRAM on the fixture's cluster (cluster.sh).
#
#   srun_case.sh DIR BUILT EXPECT [VAR=VALUE...] [SRUN_ARGS...] -- PROGRAM [ARGS...]
#
# VAR=VALUE: set for srun, which passes its environment to the tasks.
# TERN_CASE_LAUNCH=salloc among them runs "salloc SRUN_ARGS PROGRAM..."
# instead: PROGRAM is then Tern's mpiexec inside the allocation, and the
# survivors looked for are those of the program it starts (its first word
# after mpiexec's own arguments, which the case must put first).
# BUILT: "yes", or why this build cannot run the case (then: skipped).
# EXPECT:
#   ok       exit 0, and "ok" in the output
#   nompi    srun without a PMI plugin: non-zero exit, a task saying to use
#            srun --mpi=pmi2 or --mpi=pmix (or mpiexec, in a build without)
#   killed   a rank SIGKILLs itself: the job ends non-zero within the
#            timeout, no rank survives
# In every case nothing new may be left in /dev/shm.
set -uo pipefail

dir=$1 built=$2 expect=$3
shift 3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TERN_SLURM_DIR=$dir/slurm NETNS_HOSTS_PREFIX=sl NETNS_HOSTS_NET=10.200.77

if [ -f "$dir/unavailable" ]; then
    echo "skipped: $(cat "$dir/unavailable")"
    exit 77
fi
if [ "$built" != yes ]; then
    echo "skipped: $built"
    exit 77
fi
[ -f "$TERN_SLURM_DIR/pids" ] || {
    echo "FAIL: the Slurm cluster in $TERN_SLURM_DIR is not up (fixture slurm.up)"
    exit 1
}

program=
for a in "$@"; do
    if [ "$a" = -- ]; then program=next; elif [ "$program" = next ]; then program=$a; fi
done
while [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
    export "$1"
    shift
done
srun_args=()
while [ "$1" != -- ]; do
    srun_args+=("$1")
    shift
done
shift

launch=${TERN_CASE_LAUNCH:-srun}
unset TERN_CASE_LAUNCH
[ "$launch" = srun ] || program=$2

before=$(ls -A /dev/shm | sort)
out=$(timeout 100 "$here/../../tools/hosts/slurm.sh" run "$launch" --time=2 "${srun_args[@]}" "$@" 2>&1)
rc=$?
echo "$out"
echo "srun exit: $rc"
fail() {
    echo "FAIL: $*"
    exit 1
}
[ $rc = 124 ] && fail "$launch did not end within 100 s"

case $expect in
ok)
    [ $rc = 0 ] || fail "$launch exited $rc"
    grep -q ": ok$" <<<"$out" || fail "the program did not report ok"
    ;;
nompi)
    [ $rc != 0 ] || fail "srun without a PMI plugin exited 0"
    # A build without PMI2 and PMIx points to mpiexec instead.
    grep -Eq "srun started this program as task [0-9]+ of [0-9]+.*(srun --mpi=pmi|Tern's mpiexec)" <<<"$out" ||
        fail "no message saying to use srun --mpi=pmi2 or --mpi=pmix"
    grep -q ": ok$" <<<"$out" && fail "the tasks ran on as singletons"
    ;;
killed)
    [ $rc != 0 ] || fail "a job with a killed rank exited 0"
    ;;
esac
# Slurm ends the step's processes itself; give it its KillWait.
name=$(basename "$program")
for _ in $(seq 50); do pgrep -x "$name" >/dev/null || break; sleep 0.1; done
pgrep -a -x "$name" && fail "processes of $name survive the job"
after=$(ls -A /dev/shm | sort)
new=$(comm -13 <(echo "$before") <(echo "$after"))
[ -z "$new" ] || fail "left in /dev/shm: $new"
echo "PASS"
