# A one-machine Slurm cluster for tests, sourced by the farm tests: munged,
# slurmctld and two slurmd ("nodes" n1 and n2, one CPU each) started as plain
# background processes on free loopback ports, everything under one folder,
# stopped by their pids (slurm_cluster_stop, also on EXIT). The recipe and its
# traps are in ../../../shared/FACTS.md ("Slurm on one machine").
#
#   source tests/farm/slurm_cluster.sh
#   slurm_cluster_start "$work/slurm"    # exports SLURM_CONF; returns when n1 and n2 are idle
#   sbatch --wait --array=1-3 ...
#   slurm_cluster_stop

slurm_cluster_pids=()

slurm_cluster_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_cluster_stop() {
  local pid
  for pid in "${slurm_cluster_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${slurm_cluster_pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  slurm_cluster_pids=()
}

# slurm_cluster_start DIR: 0 when the cluster is up, 1 (with its logs on
# stderr) when it did not come up in 30 s.
slurm_cluster_start() {
  local dir=$1 host
  host=$(hostname)
  mkdir -p "$dir/munge/run" "$dir/munge/etc" "$dir/state" "$dir/spool/n1" "$dir/spool/n2" "$dir/log"
  chmod 755 "$dir/munge/run"
  chmod 700 "$dir/munge/etc"
  dd if=/dev/urandom of="$dir/munge/etc/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/etc/munge.key"
  local socket=$dir/munge/run/munge.socket
  munged -F --force --socket="$socket" --key-file="$dir/munge/etc/munge.key" --pid-file="$dir/munge/run/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.out" 2>&1 &
  slurm_cluster_pids+=($!)
  local ctld_port n1_port n2_port
  ctld_port=$(slurm_cluster_free_port)
  n1_port=$(slurm_cluster_free_port)
  n2_port=$(slurm_cluster_free_port)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=oprigtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$n1_port CPUs=1 State=UNKNOWN
NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$n2_port CPUs=1 State=UNKNOWN
PartitionName=test Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
  slurmctld -D -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  slurm_cluster_pids+=($!)
  slurmd -D -N n1 -f "$SLURM_CONF" >"$dir/log/slurmd-n1.out" 2>&1 &
  slurm_cluster_pids+=($!)
  slurmd -D -N n2 -f "$SLURM_CONF" >"$dir/log/slurmd-n2.out" 2>&1 &
  slurm_cluster_pids+=($!)
  for _ in $(seq 300); do
    if [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" = 2 ]; then return 0; fi
    sleep 0.1
  done
  echo "the Slurm cluster did not come up in 30 s:" >&2
  sinfo -N >&2 || true
  tail -n 20 "$dir"/log/*.log "$dir"/log/*.out >&2 || true
  return 1
}
