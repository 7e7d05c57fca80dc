#!/usr/bin/env bash
# Simulated hosts on one machine: network namespaces joined by a bridge, each
# with its own hostname and sshd, for testing multi-host launches.
#
#   tools/hosts/netns.sh up N     hosts h1..hN (exits 77 with the reason where
#                                 the machine refuses namespaces or has no sshd)
#   tools/hosts/netns.sh down     stops everything 'up' started, by pid
#   tools/hosts/netns.sh status   prints the hosts, exit 1 when none are up
#   tools/hosts/netns.sh exec hN CMD...   runs CMD on hN (network + hostname)
#
# What 'up N' makes:
#   - namespace hK (ip netns, /run/netns/hK), address 10.200.0.K/24 on eth0,
#     lo up; no default route, so nothing leaves 10.200.0.0/24;
#   - a bridge in the root namespace with 10.200.0.254/24, so the root
#     namespace reaches every host (mpiexec may run there or inside a host);
#   - a UTS namespace per host kept alive by a bind mount on $state/hK.uts, so
#     that hostname(1) says hK for everything started through sshd or through
#     'netns.sh exec' / nsenter --net=/run/netns/hK --uts=$state/hK.uts;
#   - sshd per host on 10.200.0.K:22 with a throwaway host key, and a
#     throwaway client key authorised for root;
#   - /etc/ssh/ssh_config.d/tern-hosts.conf mapping hK to its address with
#     that key and known_hosts, so plain `ssh hK cmd` works from the root
#     namespace and from inside every host (no /etc/hosts edit: hosts files
#     are shared by all namespaces and belong to the machine).
#
# Facts learnt on this machine kind (Debian 12, root in a container):
#   - sshd needs /run/sshd (privilege separation) even with -D, and refuses
#     keys in group-writable directories unless StrictModes is off;
#   - `ip netns exec` remounts /sys and bind-mounts /etc/netns/<name>/*, and
#     gives no UTS namespace: nsenter with both namespaces is used instead;
#   - `unshare --uts=FILE` keeps a UTS namespace without a process once FILE
#     exists (touch it first); it is released by umount FILE;
#   - pid 1 of the sandbox does not reap orphans: a stopped sshd stays a
#     zombie (harmless; 'down' treats zombies as gone);
#   - Debian's ssh_config reads /etc/ssh/ssh_config.d/*.conf first, so the
#     drop-in wins over the defaults but not over ~/.ssh/config.
#
# Environment: TERN_NETNS_PREFIX (default h) and TERN_NETNS_NET (default
# 10.200.0) allow two sets side by side (e.g. two test trees); the state
# lives in /run/tern-netns-$PREFIX.
set -euo pipefail

prefix=${TERN_NETNS_PREFIX:-h}
net=${TERN_NETNS_NET:-10.200.0}
state=/run/tern-netns-$prefix
bridge=tern-$prefix
sshconf=/etc/ssh/ssh_config.d/tern-hosts-$prefix.conf

skip() {
    echo "netns.sh: SKIP: $*" >&2
    exit 77
}
die() {
    echo "netns.sh: $*" >&2
    exit 1
}

usable() {
    [ "$(id -u)" = 0 ] || skip "needs root (ip netns, bridges, sshd on port 22)"
    command -v ip > /dev/null || skip "ip (iproute2) is not installed"
    command -v nsenter > /dev/null && command -v unshare > /dev/null ||
        skip "nsenter/unshare (util-linux) are not installed"
    [ -x /usr/sbin/sshd ] || skip "sshd is not installed (apt-get install openssh-server)"
    command -v ssh-keygen > /dev/null || skip "ssh-keygen is not installed (openssh-client)"
    local probe=tnp$$ err
    if ! err=$(ip netns add "$probe" 2>&1); then
        skip "the machine refuses network namespaces: $err"
    fi
    ip netns del "$probe"
    if ! err=$(ip link add "$probe" type bridge 2>&1); then
        skip "the machine refuses bridges: $err"
    fi
    ip link del "$probe"
}

ns_run() { # ns_run K CMD...: in host K's network and UTS namespaces
    local k=$1
    shift
    nsenter --net=/run/netns/$prefix$k --uts=$state/$prefix$k.uts "$@"
}

up() {
    local n=$1 k
    [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 250 ] ||
        die "up: the number of hosts must be 1..250, not '$n'"
    usable
    [ -e "$state" ] && die "hosts '$prefix' are already up ($state exists): run 'down' first"
    mkdir -p "$state" /run/sshd
    chmod 700 "$state"
    echo "$n" > "$state/count"
    # From here on, a failure leaves state that 'down' removes.
    trap 'echo "netns.sh: up failed; cleaning up" >&2; down' ERR

    ssh-keygen -q -t ed25519 -N '' -C tern-host -f "$state/hostkey"
    ssh-keygen -q -t ed25519 -N '' -C tern-client -f "$state/id"
    cp "$state/id.pub" "$state/authorized_keys"
    echo "$prefix*,$net.* $(cut -d' ' -f1,2 "$state/hostkey.pub")" > "$state/known_hosts"

    ip link add "$bridge" type bridge
    ip addr add "$net.254/24" dev "$bridge"
    ip link set "$bridge" up
    for k in $(seq 1 "$n"); do
        local h=$prefix$k
        ip netns add "$h"
        ip link add "$bridge-$k" type veth peer name eth0 netns "$h"
        ip link set "$bridge-$k" master "$bridge" up
        ip -n "$h" addr add "$net.$k/24" dev eth0
        ip -n "$h" link set eth0 up
        ip -n "$h" link set lo up
        touch "$state/$h.uts"
        unshare --uts="$state/$h.uts" hostname "$h"
        cat > "$state/sshd_$h" << EOF
ListenAddress $net.$k:22
HostKey $state/hostkey
PidFile none
AuthorizedKeysFile $state/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
LogLevel ERROR
MaxStartups 200:30:400
MaxSessions 200
EOF
        ns_run "$k" /usr/sbin/sshd -D -e -f "$state/sshd_$h" 2>> "$state/sshd_$h.log" &
        echo $! >> "$state/pids"
        cat >> "$state/ssh_config" << EOF
Host $h
    HostName $net.$k
EOF
    done
    cat >> "$state/ssh_config" << EOF
Host $prefix* $net.*
    User root
    IdentityFile $state/id
    IdentitiesOnly yes
    UserKnownHostsFile $state/known_hosts
    StrictHostKeyChecking yes
    CheckHostIP no
    BatchMode yes
    ConnectTimeout 3
    LogLevel ERROR
EOF
    cp "$state/ssh_config" "$sshconf"

    # sshd binds only once its namespace's address is up; wait for each.
    local deadline=$((SECONDS + 10))
    for k in $(seq 1 "$n"); do
        until ssh "$prefix$k" true 2> /dev/null; do
            [ $SECONDS -lt $deadline ] || {
                cat "$state/sshd_$prefix$k.log" >&2 || true
                die "sshd on $prefix$k did not answer within 10 s"
            }
            sleep 0.1
        done
    done
    trap - ERR
    echo "netns.sh: $n hosts up: $prefix""1..$prefix$n on $net.0/24 (root namespace $net.254)"
}

# A dead sshd may stay a zombie: pid 1 of this machine kind does not reap.
running() { [ -r /proc/$1/stat ] && [ "$(cut -d' ' -f3 /proc/$1/stat)" != Z ]; }

down() {
    trap - ERR
    [ -d "$state" ] || return 0
    local pid k n
    if [ -f "$state/pids" ]; then
        while read -r pid; do kill "$pid" 2> /dev/null || true; done < "$state/pids"
        while read -r pid; do
            for _ in $(seq 50); do running "$pid" || break; sleep 0.02; done
            kill -9 "$pid" 2> /dev/null || true
        done < "$state/pids"
    fi
    n=$(cat "$state/count" 2> /dev/null || echo 0)
    for k in $(seq 1 "$n"); do
        # Processes a test left inside the host (ranks, proxies) go with it.
        for pid in $(ip netns pids "$prefix$k" 2> /dev/null); do kill -9 "$pid" 2> /dev/null || true; done
        ip netns del "$prefix$k" 2> /dev/null || true
        umount "$state/$prefix$k.uts" 2> /dev/null || true
    done
    ip link del "$bridge" 2> /dev/null || true
    rm -f "$sshconf"
    rm -rf "$state"
}

case ${1:-} in
    up) up "${2:?usage: netns.sh up N}" ;;
    down) down ;;
    status)
        [ -f "$state/count" ] || { echo "no hosts '$prefix' up"; exit 1; }
        echo "$(cat "$state/count") hosts: $prefix""1..$prefix$(cat "$state/count") on $net.0/24"
        ;;
    exec)
        h=${2:?usage: netns.sh exec hN CMD...}
        shift 2
        [ -e "$state/$h.uts" ] || die "no host $h"
        exec nsenter --net=/run/netns/$h --uts=$state/$h.uts "$@"
        ;;
    *)
        echo "usage: netns.sh up N | down | status | exec hN CMD..." >&2
        exit 2
        ;;
esac
