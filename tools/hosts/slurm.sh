#!/usr/bin/env bash
# A throwaway Slurm cluster on this machine, for running Tern under srun.
#
#   tools/hosts/slurm.sh up N     slurmctld plus N slurmd; prints the SLURM_CONF to export
#   tools/hosts/slurm.sh down     stops, by pid, everything 'up' started
#   tools/hosts/slurm.sh env      prints "export SLURM_CONF=..." for a running cluster
#   tools/hosts/slurm.sh run CMD  runs CMD where srun reaches the cluster (node h1's
#                                 network namespace when N > 1), SLURM_CONF set
#
# N = 1: one node in this machine's own network, named after this machine.
# N > 1: nodes h1..hN, the simulated hosts tools/hosts/netns.sh makes (run
# 'tools/hosts/netns.sh up N' first): each daemon runs in its host's network
# and UTS namespaces, slurmctld on h1, and so must srun ('run' does that).
#
# Everything lives under $TERN_SLURM_DIR (default /tmp/tern-slurm): the
# configuration, spool, state, logs and the pids 'down' stops.  Root only.
# Environment: TERN_SLURM_DIR; TERN_SLURM_CTLD_PORT and TERN_SLURM_SLURMD_PORT
# (default 16817, 16818); TERN_SLURM_CPUS, the CPUs each node claims
# (default 16); NETNS_HOSTS_PREFIX and NETNS_HOSTS_NET as netns.sh takes them.
#
# Why it is done this way (found with Slurm 22.05 on Debian 12):
# - no systemd: the daemons run in the foreground (-D), started here, and
#   their pids are recorded;
# - slurmctld only runs on a host of the name SlurmctldHost gives (this
#   machine's, or h1's in its UTS namespace);
# - auth/none and cred/none: no munged to run and no key to make; the
#   daemons listen only on loopback or inside the namespaces;
# - proctrack/linuxproc and task/none: no cgroups (a container has none to
#   give);
# - slurmd enters its namespaces with nsenter: 'ip netns exec' remounts
#   /sys, and slurmd then dies setting up cgroups;
# - every slurmd has its own configuration file differing only in TmpFS:
#   the pmix plugin makes its directories there, and two nodes sharing one
#   TmpFS fail with "File exists".
set -euo pipefail

dir=${TERN_SLURM_DIR:-/tmp/tern-slurm}
ctld_port=${TERN_SLURM_CTLD_PORT:-16817}
slurmd_port=${TERN_SLURM_SLURMD_PORT:-16818}
# tools/hosts/netns.sh: host hK has address $net.K, its UTS namespace is
# kept in $netns_state/hK.uts.
prefix=${NETNS_HOSTS_PREFIX:-h}
net=${NETNS_HOSTS_NET:-10.200.0}
netns_state=/run/tern-netns-$prefix

die() {
    echo "slurm.sh: $*" >&2
    exit 1
}

need() {
    command -v "$1" >/dev/null 2>&1 || die "$1 not found (Debian: apt-get install $2)"
}

# write_conf FILE NODE_LINES CTLD_NAME CTLD_ADDR TMPFS
write_conf() {
    local file=$1 nodes=$2 ctld_name=$3 ctld=$4 tmpfs=$5
    cat >"$file" <<EOF
ClusterName=tern
SlurmctldHost=$ctld_name($ctld)
MailProg=/bin/true
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/spool/%n/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.%n.log
TmpFS=$tmpfs
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=5
$nodes
PartitionName=tern Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

wait_nodes_idle() {
    local n=$1 i
    for i in $(seq 1 100); do
        local idle
        idle=$(SLURM_CONF=$dir/slurm.conf in_ctld_ns timeout 5 sinfo -h -o '%D %t' 2>/dev/null |
            awk '$2 ~ /^idle/ {s += $1} END {print s + 0}')
        [ "$idle" -ge "$n" ] && return 0
        sleep 0.2
    done
    echo "slurm.sh: the nodes did not become idle; sinfo says:" >&2
    SLURM_CONF=$dir/slurm.conf in_ctld_ns sinfo >&2 || true
    tail -n 20 "$dir"/log/*.log >&2 || true
    return 1
}

# Runs a command on host hK (network and UTS namespaces).
on_host() {
    local h=$1
    shift
    nsenter --net="/run/netns/$h" --uts="$netns_state/$h.uts" "$@"
}

# Runs a command where slurmctld is (h1 when N > 1).
in_ctld_ns() {
    if [ -f "$dir/netns" ]; then
        on_host "${prefix}1" "$@"
    else
        "$@"
    fi
}

start() { # start PIDNAME CMD...: in the background, pid recorded
    local name=$1
    shift
    "$@" </dev/null >>"$dir/log/$name.out" 2>&1 &
    echo "$! $name" >>"$dir/pids"
}

up() {
    local n=${1:-1}
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "up: N must be a positive number, not '$n'"
    [ "$(id -u)" = 0 ] || die "needs root (the daemons run as root, slurmd enters namespaces)"
    need slurmctld slurmctld
    need slurmd slurmd
    need srun slurm-client
    [ -e "$dir/pids" ] && die "a cluster is already up in $dir (run: $0 down)"
    # Only what an earlier 'up' made: TERN_SLURM_DIR may name a shared folder.
    rm -rf "$dir/state" "$dir/log" "$dir/spool" "$dir/tmp" "$dir/netns" "$dir"/slurm*.conf
    mkdir -p "$dir/state" "$dir/log" "$dir/spool"
    local ctld ctld_name nodes="" hosts=()
    # Tests start more ranks than this machine has cores, as mpiexec lets
    # them: each node claims TERN_SLURM_CPUS (config_overrides makes slurmd
    # believe it).
    local cpus=${TERN_SLURM_CPUS:-16}
    if [ "$n" = 1 ]; then
        local self
        self=$(hostname -s)
        ctld=127.0.0.1
        ctld_name=$self
        nodes="NodeName=$self NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN"
        hosts=("$self")
    else
        local k
        need nsenter util-linux
        for k in $(seq 1 "$n"); do
            [ -e "/run/netns/$prefix$k" ] && [ -e "$netns_state/$prefix$k.uts" ] ||
                die "simulated host $prefix$k is missing: run 'tools/hosts/netns.sh up $n' first"
            nodes+="NodeName=$prefix$k NodeAddr=$net.$k CPUs=$cpus State=UNKNOWN"$'\n'
            hosts+=("$prefix$k")
        done
        ctld=$net.1
        ctld_name=${prefix}1
        touch "$dir/netns"
    fi
    write_conf "$dir/slurm.conf" "$nodes" "$ctld_name" "$ctld" "$dir/tmp/shared"
    : >"$dir/pids"
    local h
    for h in "${hosts[@]}"; do
        mkdir -p "$dir/spool/$h" "$dir/tmp/$h"
        write_conf "$dir/slurm.$h.conf" "$nodes" "$ctld_name" "$ctld" "$dir/tmp/$h"
    done
    if [ "$n" = 1 ]; then
        start slurmctld slurmctld -D -i -f "$dir/slurm.conf"
        start "slurmd.${hosts[0]}" slurmd -D -N "${hosts[0]}" -f "$dir/slurm.${hosts[0]}.conf"
    else
        # nsenter execs the daemon: the pid recorded is the daemon's.
        h=${hosts[0]}
        start slurmctld nsenter --net="/run/netns/$h" --uts="$netns_state/$h.uts" \
            slurmctld -D -i -f "$dir/slurm.conf"
        for h in "${hosts[@]}"; do
            start "slurmd.$h" nsenter --net="/run/netns/$h" --uts="$netns_state/$h.uts" \
                slurmd -D -N "$h" -f "$dir/slurm.$h.conf"
        done
    fi
    if ! wait_nodes_idle "$n"; then
        down
        exit 1
    fi
    echo "export SLURM_CONF=$dir/slurm.conf"
}

down() {
    [ -f "$dir/pids" ] || return 0
    local pid name
    # slurmd first: a slurmd whose controller is gone retries for a while.
    tac "$dir/pids" | while read -r pid name; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    local i
    for i in $(seq 1 50); do
        local alive=0
        while read -r pid name; do
            kill -0 "$pid" 2>/dev/null && alive=1
        done <"$dir/pids"
        [ $alive = 0 ] && break
        sleep 0.1
    done
    while read -r pid name; do
        if kill -0 "$pid" 2>/dev/null; then
            echo "slurm.sh: $name (pid $pid) ignored SIGTERM; SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done <"$dir/pids"
    rm -f "$dir/pids"
}

case ${1:-} in
up) up "${2:-1}" ;;
down) down ;;
env)
    [ -f "$dir/pids" ] || die "no cluster is up in $dir"
    echo "export SLURM_CONF=$dir/slurm.conf"
    ;;
run)
    shift
    [ -f "$dir/pids" ] || die "no cluster is up in $dir"
    export SLURM_CONF=$dir/slurm.conf
    # srun hands its environment to the tasks, and Tern warns about
    # TERN_* variables that are not its parameters.
    unset TERN_SLURM_DIR TERN_SLURM_CTLD_PORT TERN_SLURM_SLURMD_PORT TERN_SLURM_CPUS \
        NETNS_HOSTS_PREFIX NETNS_HOSTS_NET
    in_ctld_ns "$@"
    ;;
*)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
