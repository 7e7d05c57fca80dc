#!/usr/bin/env bash
# The Slurm cluster of the ctest fixtures (tests/slurm/CMakeLists.txt).
#
#   cluster.sh up DIR N     N = 1: tools/hosts/slurm.sh's one node in this
#                           machine's network; N > 1: simulated hosts
#                           (tools/hosts/netns.sh, prefix "sl") with a slurmd each
#   cluster.sh down DIR N   stops what 'up' started
#
# Where this machine cannot have the cluster (no Slurm, not root, no
# namespaces) 'up' exits 77 and writes the reason to DIR/unavailable, which
# the tests (srun_case.sh) report as theirs.  A cluster that should start but
# does not is a failure (exit 1).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tools=$here/../../tools/hosts
action=${1:?usage: cluster.sh up|down DIR N}
dir=${2:?usage: cluster.sh up|down DIR N}
n=${3:?usage: cluster.sh up|down DIR N}
export TERN_SLURM_DIR=$dir/slurm
# Own hosts, beside those other tests may make with netns.sh's defaults.
export NETNS_HOSTS_PREFIX=sl NETNS_HOSTS_NET=10.200.77

unavailable() {
    mkdir -p "$dir"
    echo "$*" >"$dir/unavailable"
    echo "skipped: $*"
    exit 77
}

case $action in
up)
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] || unavailable "the Slurm daemons need root"
    for p in slurmctld:slurmctld slurmd:slurmd srun:slurm-client; do
        command -v "${p%%:*}" >/dev/null ||
            unavailable "${p%%:*} is not installed (Debian: apt-get install ${p#*:})"
    done
    if [ "$n" -gt 1 ]; then
        # To a file: the sshd it leaves running holds whatever output it had.
        "$tools/netns.sh" up "$n" >"$dir/netns.out" 2>&1
        rc=$?
        cat "$dir/netns.out"
        [ $rc = 77 ] && unavailable "no simulated hosts: $(sed -n 's/.*SKIP: //p' "$dir/netns.out")"
        [ $rc = 0 ] || exit 1
        touch "$dir/netns"
    fi
    if ! "$tools/slurm.sh" up "$n"; then
        [ -f "$dir/netns" ] && "$tools/netns.sh" down
        exit 1
    fi
    ;;
down)
    rc=0
    "$tools/slurm.sh" down || rc=1
    if [ -f "$dir/netns" ]; then "$tools/netns.sh" down || rc=1; fi
    rm -rf "$dir"
    exit $rc
    ;;
*)
    echo "usage: cluster.sh up|down DIR N" >&2
    exit 2
    ;;
esac
