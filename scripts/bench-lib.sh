# What the races against twips share (sourced by scripts/bench-puzzles.sh and
# scripts/bench-puzzle-solve.sh, which set $timeout).

# Runs "$@" under GNU time; prints "SECONDS KIB" (or "failed") and keeps stdout in $1's file.
timed() {
  local log=$1
  shift
  if /usr/bin/time -f "%e %M" -o "$log.time" timeout "$timeout" "$@" >"$log" 2>"$log.err"; then
    cat "$log.time"
  else
    echo "failed"
  fi
}

# $1 / $2 to three places, or "-" where either is not a number.
ratio() { python3 -c "import sys; a,b=sys.argv[1:]; print(f'{float(a)/float(b):.3f}')" "$1" "$2" 2>/dev/null || echo -; }

# KiB as whole MiB, or "-".
mib() { python3 -c "import sys; print(f'{int(sys.argv[1])/1024:.0f}')" "$1" 2>/dev/null || echo -; }
