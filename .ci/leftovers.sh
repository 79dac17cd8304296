#!/usr/bin/env bash
# Names, stops and fails on any process that still holds this CI run's output open (a
# pipe or socket on stdout/stderr) and is not one of the run's own ancestors. The runner
# reads that output until it closes, so such a process (a daemon started without closing
# the descriptors it inherited) would keep CI "running" until its time limit.
set -uo pipefail

targets=()
for fd in 1 2; do
  t=$(readlink "/proc/$$/fd/$fd" 2>/dev/null) || continue
  case $t in pipe:* | socket:*) targets+=("$t") ;; esac
done
[ "${#targets[@]}" -gt 0 ] || exit 0

# fdinfo's flags are octal open(2) flags: O_WRONLY (1) or O_RDWR (2) in the low bits.
writable() {
  local flags
  flags=$(awk '/^flags:/ { print $2 }' "$1" 2>/dev/null) || return 1
  [ -n "$flags" ] && [ $((8#$flags & 3)) -ne 0 ]
}

declare -A keep
pid=$$
while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
  keep[$pid]=1
  pid=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
done

found=()
for dir in /proc/[0-9]*; do
  pid=${dir#/proc/}
  [ -n "${keep[$pid]:-}" ] && continue
  for fd in "$dir"/fd/*; do
    t=$(readlink "$fd" 2>/dev/null) || continue
    for want in "${targets[@]}"; do
      # Only a writer keeps the output from ending (the reader is the runner itself).
      if [ "$t" = "$want" ] && writable "$dir/fdinfo/${fd##*/}"; then
        found+=("$pid")
        break 2
      fi
    done
  done
done
[ "${#found[@]}" -eq 0 ] && exit 0

echo "ci: FAILED: processes started by this run still hold its output open:" >&2
for pid in "${found[@]}"; do
  echo "  pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
done
echo "ci: stopping them, so the run can end" >&2
kill -TERM "${found[@]}" 2>/dev/null
sleep 5
kill -KILL "${found[@]}" 2>/dev/null
exit 1
