#!/usr/bin/env bash
# Not a test: helper of outputs.test.
# usage: interrupt.sh DIR COMMAND...
# Runs COMMAND with TMPDIR=DIR in its own process group, interrupts the
# group (as Ctrl-C in a terminal would) as soon as a file appears in DIR,
# and prints the exit status and what is left in DIR.
set -u
dir=$1
shift
set -m
# lit's workers ignore SIGINT, and children inherit that.
TMPDIR=$dir env --default-signal=INT "$@" &
pid=$!
for ((i = 0; i < 12000; i++)); do
  [[ -n $(ls -A "$dir") ]] && break
  sleep 0.005
done
kill -INT -- "-$pid"
wait "$pid"
echo "status: $?"
echo "left: $(ls -A "$dir")"
