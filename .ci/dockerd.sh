#!/usr/bin/env bash
# Starts or stops the Docker daemon on a machine without systemd.
#
#   .ci/dockerd.sh start   start dockerd in the background and wait until
#                          `docker info` answers; its PID goes to
#                          $DOCKERD_PIDFILE (default .ci/dockerd.pid)
#   .ci/dockerd.sh stop    stop the dockerd that start started, by its PID
#
# A daemon that already answers is used as it is, and stop leaves it alone:
# only a daemon this script started is stopped. Its log is .ci/dockerd.log.
set -euo pipefail
cd "$(dirname "$0")/.."

pidfile=${DOCKERD_PIDFILE:-.ci/dockerd.pid}
log=.ci/dockerd.log
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

case "${1:-}" in
start)
  if docker info >/dev/null 2>&1; then
    echo "dockerd: already running; using it"
    exit 0
  fi
  "${sudo_cmd[@]}" dockerd >"$log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
      echo "dockerd: started (pid $(cat "$pidfile")), server $(docker info --format '{{.ServerVersion}}')"
      exit 0
    fi
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "dockerd: exited; its log:"; tail -20 "$log"; rm -f "$pidfile"; exit 1
    fi
    sleep 1
  done
  echo "dockerd: no answer to docker info after 60 s; its log:"; tail -20 "$log"; exit 1
  ;;
stop)
  [ -f "$pidfile" ] || exit 0
  pid=$(cat "$pidfile")
  rm -f "$pidfile"
  if kill -0 "$pid" 2>/dev/null; then
    "${sudo_cmd[@]}" kill -TERM "$pid"
    for _ in $(seq 1 30); do
      kill -0 "$pid" 2>/dev/null || { echo "dockerd: stopped (pid $pid)"; exit 0; }
      sleep 1
    done
    echo "dockerd: still running 30 s after SIGTERM; killing pid $pid"
    "${sudo_cmd[@]}" kill -KILL "$pid" || true
  fi
  ;;
*)
  echo "usage: $0 start|stop" >&2; exit 2
  ;;
esac
